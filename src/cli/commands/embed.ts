/**
 * @module cli/commands/embed
 * `loci embed`: bring the vector index up to date with the configured embedder (`LOCI_EMBEDDER`).
 */
import type { RegisterCommand } from '../context.js';
import { printJson } from '../format.js';
import { withPalace } from '../open.js';
import { bar, progressLine } from '../progress.js';

export const register: RegisterCommand = (program, ctx) => {
  program
    .command('embed')
    .description('embed drawers that have no vector yet (rebuilds everything after an embedder change)')
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      '\nThe embedder comes from LOCI_EMBEDDER: hash (default, weights-free), none, ollama:<model>,\n' +
        'openai:<model>[@dims] or onnx:<model folder>. Mining embeds new drawers by itself.\n',
    )
    .action(async (o: { json?: boolean }) => {
      const progress = progressLine(ctx.io, !o.json);
      const t0 = performance.now();
      const r = await withPalace(ctx, async (p) => {
        const n = await p.embed({
          onProgress: (done, total) =>
            progress.update(`${bar(done / Math.max(1, total))} ${done}/${total} drawers embedded`),
        });
        return { n, status: (await p.status()).index.vectors };
      }).finally(() => progress.done());
      const seconds = (performance.now() - t0) / 1000;
      if (o.json)
        return printJson(ctx.io, { embedded: r.n, vectors: r.status, seconds: Math.round(seconds * 1000) / 1000 });
      ctx.io.stdout(`embedded ${r.n} drawers in ${seconds.toFixed(2)} s — vectors: ${r.status}\n`);
    });
};
