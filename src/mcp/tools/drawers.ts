/**
 * @module mcp/tools/drawers
 * Drawer CRUD: add, get, update, delete and paged listing.
 */
import * as z from 'zod';
import { createError } from '../../core/errors.js';
import type { DrawerFilter, DrawerPatch } from '../../internal.js';
import { DESTRUCTIVE, READ, WRITE, defineTool, type AnyTool } from '../tool.js';
import { ARG_LIMITS, idArg, metadataArg, nameArg } from '../args.js';
import { DrawerFull, DrawerSummary, headerOf, plural, toFull, toSummary } from '../shapes.js';

const name = nameArg;
const metadata = metadataArg;

const addDrawer = defineTool({
  name: 'loci_add_drawer',
  title: 'Store text',
  description:
    'Files a piece of text verbatim in the palace (a decision, a fact, a snippet worth keeping) under a wing ' +
    '(project / person) and room (topic), so later searches find it. ' +
    'Storing the same text in the same place twice is a no-op that returns the existing id. Run ' +
    'loci_check_duplicate first if it may already be stored elsewhere.',
  input: {
    wing: name.describe('top-level group, usually the project name'),
    room: name.describe('topic inside the wing, e.g. auth, decisions, deploy'),
    content: z.string().min(1).max(ARG_LIMITS.content).describe('the text, stored verbatim'),
    hall: name.optional().describe('kind of content, e.g. facts, decisions, events, advice'),
    source: z.string().min(1).max(2000).optional().describe('where it came from (a path or URL), if anywhere'),
    content_date: z.string().min(4).max(40).optional().describe('when it was said or written (ISO-8601), if not now'),
    metadata: metadata.optional().describe('free-form JSON kept with the drawer'),
    added_by: name.default('mcp').describe('who files it (an agent name); default "mcp"'),
  },
  output: {
    drawer_id: z.string(),
    added: z.boolean().describe('false when the same drawer already existed'),
    wing: z.string(),
    room: z.string(),
  },
  annotations: WRITE(true),
  async run(ctx, a) {
    const r = await ctx.palace.addDrawer({
      wing: a.wing,
      room: a.room,
      text: a.content,
      hall: a.hall ?? null,
      source: a.source ?? null,
      contentDate: a.content_date ?? null,
      addedBy: a.added_by,
      ...(a.metadata ? { metadata: a.metadata } : {}),
    });
    const text = `${r.added ? 'stored' : 'already stored as'} ${r.id} in ${a.wing}/${a.room}`;
    return { data: { drawer_id: r.id, added: r.added, wing: a.wing, room: a.room }, text };
  },
});

const getDrawer = defineTool({
  name: 'loci_get_drawer',
  title: 'Read a drawer',
  description:
    'Returns one drawer in full: its verbatim text, wing/room/hall, source file and lines, dates and metadata. Ids ' +
    'come from loci_search, loci_list_drawers and the other tools.',
  input: { drawer_id: idArg.describe('the drawer id') },
  output: { drawer: DrawerFull },
  annotations: READ,
  async run(ctx, a) {
    const d = await ctx.palace.get(a.drawer_id);
    if (!d) throw createError('DRAWER_NOT_FOUND', { id: a.drawer_id });
    const drawer = toFull(d);
    return { data: { drawer }, text: `${headerOf(drawer)}${drawer.hall ? ` · ${drawer.hall}` : ''}\n${drawer.text}` };
  },
});

const updateDrawer = defineTool({
  name: 'loci_update_drawer',
  title: 'Change a drawer',
  description:
    'Changes a drawer in place: corrects its text, or moves it to another wing / room / hall, or replaces its date ' +
    'or metadata. Give only the fields to change; the id stays the same. The old text is overwritten.',
  input: {
    drawer_id: idArg.describe('the drawer id'),
    content: z.string().min(1).max(100_000).optional().describe('new verbatim text'),
    wing: name.optional(),
    room: name.optional(),
    hall: name.nullable().optional().describe('new hall, or null to clear it'),
    content_date: z
      .string()
      .min(4)
      .max(40)
      .nullable()
      .optional()
      .describe('new content date (ISO-8601), or null to clear it'),
    metadata: metadata.optional().describe('replaces the whole metadata object'),
  },
  output: { drawer: DrawerSummary },
  annotations: DESTRUCTIVE(true),
  async run(ctx, a) {
    const patch: DrawerPatch = {};
    if (a.content !== undefined) patch.text = a.content;
    if (a.wing !== undefined) patch.wing = a.wing;
    if (a.room !== undefined) patch.room = a.room;
    if (a.hall !== undefined) patch.hall = a.hall;
    if (a.content_date !== undefined) patch.contentDate = a.content_date;
    if (a.metadata !== undefined) patch.metadata = a.metadata;
    if (Object.keys(patch).length === 0) {
      throw createError('INVALID_ARGUMENT', {
        name: 'fields',
        value: {},
        expected: 'at least one of content, wing, room, hall, content_date, metadata',
      });
    }
    const d = await ctx.palace.updateDrawer(a.drawer_id, patch);
    if (!d) throw createError('DRAWER_NOT_FOUND', { id: a.drawer_id });
    const drawer = toSummary(d);
    return { data: { drawer }, text: `updated ${headerOf(drawer)} (${Object.keys(patch).join(', ')})` };
  },
});

const deleteDrawer = defineTool({
  name: 'loci_delete_drawer',
  title: 'Delete a drawer',
  description:
    'Deletes one drawer for good (there is no undo). Use it for wrong or obsolete text; to change text, prefer ' +
    'loci_update_drawer. Deleting an id that does not exist reports deleted: false.',
  input: { drawer_id: idArg.describe('the drawer id') },
  output: { drawer_id: z.string(), deleted: z.boolean() },
  annotations: DESTRUCTIVE(true),
  async run(ctx, a) {
    const deleted = await ctx.palace.deleteDrawer(a.drawer_id);
    return {
      data: { drawer_id: a.drawer_id, deleted },
      text: deleted ? `deleted ${a.drawer_id}` : `no drawer ${a.drawer_id} (nothing deleted)`,
    };
  },
});

const listDrawers = defineTool({
  name: 'loci_list_drawers',
  title: 'List drawers',
  description:
    'Pages through drawers with ids and short previews, newest filed first (or by content date, or in source ' +
    'order), optionally only one wing / room / hall / source. Use loci_search to find by meaning, this to ' +
    'browse. Pass next_offset back as offset for the next page.',
  input: {
    wing: name.optional(),
    room: name.optional(),
    hall: name.optional(),
    source: z.string().min(1).max(ARG_LIMITS.path).optional().describe('exact source path, or a prefix ending with *'),
    limit: z.number().int().min(1).max(100).default(20).describe('page size, 1–100 (default 20)'),
    offset: z.number().int().min(0).default(0),
    order: z
      .enum(['filed', 'date', 'source'])
      .default('filed')
      .describe('filed: newest stored first; date: newest content first; source: by source and position'),
  },
  output: {
    total: z.number().int(),
    offset: z.number().int(),
    next_offset: z.number().int().nullable().describe('offset of the next page; null on the last page'),
    drawers: z.array(DrawerSummary),
  },
  annotations: READ,
  async run(ctx, a) {
    const filter: DrawerFilter = {};
    if (a.wing) filter.wing = a.wing;
    if (a.room) filter.room = a.room;
    if (a.hall) filter.hall = a.hall;
    if (a.source) filter.source = a.source;
    const r = await ctx.palace.listDrawers(filter, { limit: a.limit, offset: a.offset, order: a.order });
    const drawers = r.drawers.map(toSummary);
    const end = a.offset + drawers.length;
    const next = end < r.total && drawers.length > 0 ? end : null;
    const text =
      `${plural(r.total, 'drawer')}${drawers.length ? `, showing ${a.offset + 1}–${end}` : ''}` +
      `${next !== null ? ` (next offset ${next})` : ''}\n` +
      drawers.map((d) => `${headerOf(d)}\n  ${d.preview.replace(/\s+/g, ' ')}`).join('\n');
    return { data: { total: r.total, offset: a.offset, next_offset: next, drawers }, text };
  },
});

/** Drawer tools. */
export const drawerTools: AnyTool[] = [addDrawer, getDrawer, updateDrawer, deleteDrawer, listDrawers];
