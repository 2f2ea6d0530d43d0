/**
 * @module cli/commands/status
 * `loci status`, `loci get <id>`, `loci list wings|rooms|drawers`.
 */
import { createError } from '../../core/errors.js';
import type { RegisterCommand } from '../context.js';
import { bytes, colors, intOption, printJson, table } from '../format.js';
import { withPalace } from '../open.js';

export const register: RegisterCommand = (program, ctx) => {
  program
    .command('status')
    .description('show the palace: location, drawers per wing and room, size, index health')
    .option('--json', 'print as JSON')
    .action(async (o: { json?: boolean }) => {
      const s = await withPalace(ctx, (p) => p.status());
      if (o.json) {
        return printJson(ctx.io, {
          home: s.home,
          database: s.database,
          drawers: s.drawers,
          sources: s.sources,
          wings: s.wings,
          rooms: s.rooms,
          text_bytes: s.textBytes,
          bytes: s.bytes,
          schema_version: s.schemaVersion,
          index: s.index,
          ...(s.engine ? { engine: s.engine } : {}),
        });
      }
      const c = colors(ctx.io);
      ctx.io.stdout(`${c.bold('palace')} ${s.home}\n`);
      ctx.io.stdout(`database ${s.database} (${bytes(s.bytes)}, schema v${s.schemaVersion})\n`);
      ctx.io.stdout(`${s.drawers} drawers from ${s.sources} sources, ${bytes(s.textBytes.total)} of text\n`);
      ctx.io.stdout(`full-text index: ${s.index.lexical}; vectors: ${s.index.vectors}\n`);
      if (s.engine) ctx.io.stdout(`engine: ${s.engine}\n`);
      if (s.drawers === 0) {
        ctx.io.stdout('\nempty — try `loci mine <folder>`\n');
        return;
      }
      ctx.io.stdout('\n');
      // SIZE: UTF-8 bytes of the drawers' text (the database on disk is larger: indexes, history).
      const rows: string[][] = [['WING', 'ROOM', 'DRAWERS', 'SIZE']];
      const size = (n: number | undefined) => bytes(n ?? 0);
      for (const [w, n] of Object.entries(s.wings)) {
        rows.push([w, '', String(n), size(s.textBytes.wings[w])]);
        for (const [r, m] of Object.entries(s.rooms[w] ?? {}))
          rows.push(['', r, String(m), size(s.textBytes.rooms[w]?.[r])]);
      }
      ctx.io.stdout(table(rows));
    });

  program
    .command('get')
    .description('print one drawer by id (verbatim)')
    .argument('<id>', 'drawer id, as printed by search')
    .option('--context <n>', 'also print ±n neighbouring drawers', undefined)
    .option('--json', 'print as JSON')
    .action(async (id: string, o: { json?: boolean; context?: string }) => {
      const n = intOption('--context', o.context, 0, 0, 10);
      const { d, around } = await withPalace(ctx, async (p) => ({
        d: await p.get(id),
        around: n ? await p.neighbours(id, n) : [],
      }));
      if (!d) throw createError('DRAWER_NOT_FOUND', { id });
      if (o.json) return printJson(ctx.io, { drawer: d, ...(n ? { context: around.filter((x) => x.id !== id) } : {}) });
      const c = colors(ctx.io);
      ctx.io.stdout(
        c.dim(
          `${d.id}  ${d.wing}/${d.room}${d.hall ? ` [${d.hall}]` : ''}  ${d.source ?? ''}` +
            `${d.lineStart ? `:${d.lineStart}-${d.lineEnd}` : ''}  ${d.contentDate ?? ''}\n`,
        ),
      );
      if (n) for (const x of around) ctx.io.stdout((x.id === id ? x.text : c.dim(x.text)) + '\n' + c.dim('---') + '\n');
      else ctx.io.stdout(d.text + (d.text.endsWith('\n') ? '' : '\n'));
    });

  program
    .command('list')
    .description('list wings, rooms or drawers with counts')
    .argument('<what>', 'wings | rooms | drawers')
    .option('-w, --wing <wing>', 'only this wing')
    .option('-r, --room <room>', 'only this room (drawers)')
    .option('-n, --limit <k>', 'drawers per page (default 20)')
    .option('--offset <k>', 'skip this many drawers')
    .option('--json', 'print as JSON')
    .action(
      async (what: string, o: { wing?: string; room?: string; json?: boolean; limit?: string; offset?: string }) => {
        if (!['wings', 'rooms', 'drawers'].includes(what)) {
          throw createError('INVALID_ARGUMENT', { name: 'what', value: what, expected: 'wings, rooms or drawers' });
        }
        await withPalace(ctx, async (p) => {
          if (what === 'wings') {
            const w = await p.listWings();
            if (o.json) return printJson(ctx.io, { wings: w });
            ctx.io.stdout(
              Object.keys(w).length
                ? table([['WING', 'DRAWERS'], ...Object.entries(w).map(([k, v]) => [k, String(v)])])
                : 'no wings yet\n',
            );
          } else if (what === 'rooms') {
            const r = await p.listRooms(o.wing);
            if (o.json) return printJson(ctx.io, { wing: o.wing ?? null, rooms: r });
            ctx.io.stdout(
              Object.keys(r).length
                ? table([['ROOM', 'DRAWERS'], ...Object.entries(r).map(([k, v]) => [k, String(v)])])
                : 'no rooms\n',
            );
          } else {
            const limit = intOption('--limit', o.limit, 20, 1, 1000);
            const offset = intOption('--offset', o.offset, 0, 0, 10 ** 9);
            const page = await p.listDrawers(
              { ...(o.wing ? { wing: o.wing } : {}), ...(o.room ? { room: o.room } : {}) },
              { limit, offset },
            );
            if (o.json) {
              return printJson(ctx.io, {
                total: page.total,
                offset,
                drawers: page.drawers.map((d) => ({
                  id: d.id,
                  wing: d.wing,
                  room: d.room,
                  source: d.source,
                  preview: d.text.slice(0, 200),
                })),
              });
            }
            for (const d of page.drawers) {
              ctx.io.stdout(`${d.id}  ${d.wing}/${d.room}  ${d.text.split('\n')[0]!.slice(0, 100)}\n`);
            }
            ctx.io.stdout(`(${offset + 1}-${offset + page.drawers.length} of ${page.total})\n`);
          }
        });
      },
    );
};
