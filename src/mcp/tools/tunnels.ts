/**
 * @module mcp/tools/tunnels
 * Links between rooms: implicit ones (the same room name in several wings) and explicit tunnels
 * (stored, optionally pointing at drawers) — traverse, find, create, list, delete, follow.
 * Registered only when the palace has a graph (`ToolContext.graph`).
 */
import * as z from 'zod';
import type { RoomRef, Tunnel as StoredTunnel } from '../../internal.js';
import { DESTRUCTIVE, READ, WRITE, defineTool, type AnyTool } from '../tool.js';
import { idArg } from '../args.js';
import { plural, preview } from '../shapes.js';
import { graphOf } from './kg.js';

const name = z.string().trim().min(1).max(200);

const End = z.object({
  wing: z.string(),
  room: z.string(),
  drawer_id: z.string().nullable().describe('the drawer this end points at, if any'),
});
const Tunnel = z.object({
  id: z.string().describe('tunnel id (for loci_delete_tunnel)'),
  source: End,
  target: End,
  label: z.string(),
  created_at: z.string(),
});

const endOf = (r: RoomRef): z.output<typeof End> => ({ wing: r.wing, room: r.room, drawer_id: r.drawerId ?? null });
const tunnelOf = (t: StoredTunnel): z.output<typeof Tunnel> => ({
  id: t.id,
  source: endOf(t.source),
  target: endOf(t.target),
  label: t.label,
  created_at: t.createdAt,
});
const endText = (e: z.output<typeof End>) => `${e.wing}/${e.room}${e.drawer_id ? `#${e.drawer_id}` : ''}`;
const tunnelLine = (t: z.output<typeof Tunnel>) =>
  `${t.id}: ${endText(t.source)} ↔ ${endText(t.target)}${t.label ? ` (${t.label})` : ''}`;

const traverse = defineTool({
  name: 'loci_traverse',
  title: 'Walk from a room',
  description:
    "Starting from a room, walks the palace's links breadth-first: rooms of the same name in other wings (the same " +
    'topic in another project) and explicit tunnels, up to max_hops away. Use it to find related material ' +
    'across projects.',
  input: {
    wing: name,
    room: name,
    max_hops: z.number().int().min(1).max(6).default(2).describe('how far to walk, 1–6 (default 2)'),
  },
  output: {
    rooms: z.array(
      z.object({
        wing: z.string(),
        room: z.string(),
        hops: z.number().int(),
        drawers: z.number().int(),
        via: z.enum(['start', 'implicit', 'explicit']),
        from: z.object({ wing: z.string(), room: z.string() }).nullable(),
        label: z.string().nullable(),
      }),
    ),
  },
  annotations: READ,
  async run(ctx, a) {
    const kg = await graphOf(ctx);
    const steps = await kg.traverse({ wing: a.wing, room: a.room }, a.max_hops);
    const rooms = steps.map((s) => ({
      wing: s.wing,
      room: s.room,
      hops: s.hops,
      drawers: s.count,
      via: s.via,
      from: s.from,
      label: s.label ?? null,
    }));
    const text = rooms
      .map(
        (r) =>
          `${'  '.repeat(r.hops)}${r.wing}/${r.room} ` +
          `(${r.drawers})${r.via === 'start' ? '' : ` via ${r.via}${r.label ? ` "${r.label}"` : ''}`}`,
      )
      .join('\n');
    return { data: { rooms }, text };
  },
});

const find = defineTool({
  name: 'loci_find_tunnels',
  title: 'Shared topics across wings',
  description:
    'Finds rooms present in several wings (the same topic in several projects) — optionally only those shared by ' +
    'wing_a and wing_b.',
  input: { wing_a: name.optional(), wing_b: name.optional() },
  output: { links: z.array(z.object({ room: z.string(), wings: z.array(z.string()) })) },
  annotations: READ,
  async run(ctx, a) {
    const kg = await graphOf(ctx);
    const links = (await kg.implicitTunnels()).filter(
      (l) => (!a.wing_a || l.wings.includes(a.wing_a)) && (!a.wing_b || l.wings.includes(a.wing_b)),
    );
    const text = links.length
      ? links.map((l) => `${l.room}: ${l.wings.join(', ')}`).join('\n')
      : 'no room is shared by those wings';
    return { data: { links }, text };
  },
});

const create = defineTool({
  name: 'loci_create_tunnel',
  title: 'Link two rooms',
  description:
    'Creates an explicit tunnel between two rooms (optionally between two drawers in them), e.g. the same bug seen ' +
    'in two projects, or design notes and the code they describe. Creating the same link again only updates ' +
    'its label.',
  input: {
    source_wing: name,
    source_room: name,
    target_wing: name,
    target_room: name,
    label: z.string().trim().max(200).default('').describe('why they are linked'),
    source_drawer_id: idArg.optional(),
    target_drawer_id: idArg.optional(),
  },
  output: { tunnel: Tunnel },
  annotations: WRITE(true),
  async run(ctx, a) {
    const kg = await graphOf(ctx);
    const t = tunnelOf(
      await kg.tunnels.create({
        source: { wing: a.source_wing, room: a.source_room, drawerId: a.source_drawer_id ?? null },
        target: { wing: a.target_wing, room: a.target_room, drawerId: a.target_drawer_id ?? null },
        label: a.label,
      }),
    );
    return { data: { tunnel: t }, text: `tunnel ${tunnelLine(t)}` };
  },
});

const list = defineTool({
  name: 'loci_list_tunnels',
  title: 'List tunnels',
  description: 'Lists the explicit tunnels, all of them or those with an end in a wing (and room).',
  input: { wing: name.optional(), room: name.optional() },
  output: { tunnels: z.array(Tunnel) },
  annotations: READ,
  async run(ctx, a) {
    const kg = await graphOf(ctx);
    const tunnels = (
      await kg.tunnels.list({ ...(a.wing ? { wing: a.wing } : {}), ...(a.room ? { room: a.room } : {}) })
    ).map(tunnelOf);
    return {
      data: { tunnels },
      text: tunnels.length
        ? `${plural(tunnels.length, 'tunnel')}\n${tunnels.map(tunnelLine).join('\n')}`
        : 'no tunnels',
    };
  },
});

const remove = defineTool({
  name: 'loci_delete_tunnel',
  title: 'Delete a tunnel',
  description: 'Deletes an explicit tunnel by id (from loci_list_tunnels). The rooms and drawers are not touched.',
  input: { tunnel_id: idArg },
  output: { tunnel_id: z.string(), deleted: z.boolean() },
  annotations: DESTRUCTIVE(true),
  async run(ctx, a) {
    const kg = await graphOf(ctx);
    const deleted = await kg.tunnels.delete(a.tunnel_id);
    return {
      data: { tunnel_id: a.tunnel_id, deleted },
      text: deleted ? `deleted tunnel ${a.tunnel_id}` : `no tunnel ${a.tunnel_id}`,
    };
  },
});

const follow = defineTool({
  name: 'loci_follow_tunnels',
  title: 'Follow tunnels from a room',
  description:
    'Where the explicit tunnels of a room lead: the room at the other end, the label, and a preview of the drawer ' +
    'it points at when there is one.',
  input: { wing: name, room: name },
  output: {
    links: z.array(
      z.object({ tunnel_id: z.string(), label: z.string(), to: End, drawer_preview: z.string().nullable() }),
    ),
  },
  annotations: READ,
  async run(ctx, a) {
    const kg = await graphOf(ctx);
    const links = [];
    for (const { tunnel, to } of await kg.tunnels.follow({ wing: a.wing, room: a.room })) {
      const d = to.drawerId ? await ctx.palace.get(to.drawerId) : undefined;
      links.push({
        tunnel_id: tunnel.id,
        label: tunnel.label,
        to: endOf(to),
        drawer_preview: d ? preview(d.text, 300) : null,
      });
    }
    const text = links.length
      ? links
          .map(
            (l) =>
              `→ ${endText(l.to)}${l.label ? ` (${l.label})` : ''} ` +
              `[${l.tunnel_id}]${l.drawer_preview ? `\n  ${l.drawer_preview.replace(/\s+/g, ' ')}` : ''}`,
          )
          .join('\n')
      : `no tunnels from ${a.wing}/${a.room}`;
    return { data: { links }, text };
  },
});

/** Tunnel and traversal tools. */
export const tunnelTools: AnyTool[] = [traverse, find, create, list, remove, follow];
