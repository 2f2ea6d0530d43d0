/**
 * @module mcp/tools/palace
 * The map of the palace: status, wings, rooms and the wing → room taxonomy.
 */
import * as z from 'zod';
import { READ, defineTool, type AnyTool } from '../tool.js';
import { nameArg } from '../args.js';
import { byCount, plural } from '../shapes.js';

const status = defineTool({
  name: 'loci_status',
  title: 'Palace status',
  description:
    'Counts, size and index health of the memory palace: drawers (verbatim text chunks), sources, wings (projects, ' +
    'people, agents) and rooms (topics), bytes on disk, whether the full-text and vector indexes are ' +
    'healthy, and which optional capabilities are on. Cheap; call it once to see whether there is memory to ' +
    'search, then loci_get_taxonomy for the map.',
  input: {},
  output: {
    home: z.string(),
    drawers: z.number().int(),
    sources: z.number().int(),
    wings: z.number().int(),
    rooms: z.number().int(),
    bytes: z.number().int(),
    schema_version: z.number().int(),
    index: z.object({
      lexical: z.string().describe('"ok" or what is wrong with the full-text index'),
      vectors: z.string().describe('the vector index, or why semantic search is off'),
    }),
    capabilities: z.object({ knowledge_graph: z.boolean(), diary: z.boolean() }),
  },
  annotations: READ,
  async run(ctx) {
    const s = await ctx.palace.status();
    const rooms = Object.values(s.rooms).reduce((n, r) => n + Object.keys(r).length, 0);
    const data = {
      home: s.home,
      drawers: s.drawers,
      sources: s.sources,
      wings: Object.keys(s.wings).length,
      rooms,
      bytes: s.bytes,
      schema_version: s.schemaVersion,
      index: { lexical: s.index.lexical, vectors: s.index.vectors },
      capabilities: { knowledge_graph: ctx.graph !== undefined, diary: typeof ctx.palace.diaryWrite === 'function' },
    };
    const mb = (s.bytes / 1048576).toFixed(1);
    const text =
      `${plural(s.drawers, 'drawer')} from ${plural(s.sources, 'source')} in ${plural(data.wings, 'wing')} / ` +
      `${plural(rooms, 'room')}, ${mb} MB (${s.home})\n` +
      `index: full-text ${s.index.lexical}; vectors ${s.index.vectors}` +
      (s.drawers === 0 ? '\nthe palace is empty: mine a folder with loci_mine' : '');
    return { data, text };
  },
});

const listWings = defineTool({
  name: 'loci_list_wings',
  title: 'List wings',
  description:
    'Lists the wings of the palace (top-level groups: one per project, person or agent) with their drawer counts, ' +
    'largest first. Use a wing name to filter loci_search and loci_list_drawers.',
  input: {},
  output: { wings: z.array(z.object({ wing: z.string(), drawers: z.number().int() })) },
  annotations: READ,
  async run(ctx) {
    const wings = byCount(await ctx.palace.listWings()).map(([wing, drawers]) => ({ wing, drawers }));
    const text = wings.length
      ? wings.map((w) => `${w.wing}: ${w.drawers}`).join('\n')
      : 'no wings yet: mine a folder with loci_mine';
    return { data: { wings }, text };
  },
});

const listRooms = defineTool({
  name: 'loci_list_rooms',
  title: 'List rooms',
  description:
    'Lists rooms (topics inside a wing, e.g. a source folder or a conversation subject) with drawer counts, ' +
    'largest first. Give `wing` for one wing; without it, room counts are summed over all wings.',
  input: { wing: nameArg.optional().describe('only rooms of this wing') },
  output: { wing: z.string().nullable(), rooms: z.array(z.object({ room: z.string(), drawers: z.number().int() })) },
  annotations: READ,
  async run(ctx, a) {
    const rooms = byCount(await ctx.palace.listRooms(a.wing)).map(([room, drawers]) => ({ room, drawers }));
    const text = rooms.length
      ? rooms.map((r) => `${r.room}: ${r.drawers}`).join('\n')
      : a.wing
        ? `no rooms in wing ${a.wing} (see loci_list_wings)`
        : 'no rooms yet';
    return { data: { wing: a.wing ?? null, rooms }, text };
  },
});

const taxonomy = defineTool({
  name: 'loci_get_taxonomy',
  title: 'Wing → room taxonomy',
  description:
    'The whole map of the palace in one call: every wing with its rooms and drawer counts. Use it to pick ' +
    '`wing`/`room` filters before searching.',
  input: {},
  output: {
    wings: z.array(
      z.object({
        wing: z.string(),
        drawers: z.number().int(),
        rooms: z.array(z.object({ room: z.string(), drawers: z.number().int() })),
      }),
    ),
  },
  annotations: READ,
  async run(ctx) {
    const wings = [];
    for (const [wing, drawers] of byCount(await ctx.palace.listWings())) {
      const rooms = byCount(await ctx.palace.listRooms(wing)).map(([room, n]) => ({ room, drawers: n }));
      wings.push({ wing, drawers, rooms });
    }
    const text = wings.length
      ? wings
          .map((w) => `${w.wing} (${w.drawers})\n${w.rooms.map((r) => `  ${r.room}: ${r.drawers}`).join('\n')}`)
          .join('\n')
      : 'the palace is empty';
    return { data: { wings }, text };
  },
});

/** Status and map tools. */
export const palaceTools: AnyTool[] = [status, listWings, listRooms, taxonomy];
