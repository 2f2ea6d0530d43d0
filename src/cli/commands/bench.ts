/**
 * @module cli/commands/bench
 * `loci bench locomo|longmemeval --data FILE` and `loci bench transcripts`: retrieval benchmarks
 * through the product path, with a plain-BM25 baseline in the same run.
 */
import { METRIC_KEYS, runLocomoBench, runLongMemEvalBench, type Metrics } from '../../internal.js';
import type { RegisterCommand } from '../context.js';
import { colors, intOption, printJson, table } from '../format.js';
import { registerTranscriptsBench, searchParamsOption } from './bench-transcripts.js';

const f = (x: number) => x.toFixed(3);
type Flags = { lexical?: boolean; captions?: boolean; only?: string[]; json?: boolean; params?: string };

function compare(rows: [string, Metrics, Metrics][]): string {
  const head = ['', ...METRIC_KEYS];
  const out: string[][] = [head];
  for (const [name, a, b] of rows) {
    out.push([`${name} loci`, ...METRIC_KEYS.map((k) => f(a[k]))]);
    out.push([`${name} bm25`, ...METRIC_KEYS.map((k) => f(b[k]))]);
  }
  return table(out);
}

export const register: RegisterCommand = (program, ctx) => {
  const bench = program.command('bench').description('retrieval benchmarks (Loci vs plain BM25 in the same run)');
  bench
    .command('locomo')
    .description('LoCoMo session-level retrieval: one fresh palace per conversation')
    .requiredOption('--data <file>', 'a LoCoMo-format JSON file (e.g. locomo10.json)')
    .option('--lexical', 'BM25 only on the Loci side (ablation)')
    .option('--captions', 'append image captions to turns, for both systems')
    .option('--only <ids...>', 'only these conversation ids')
    .option('--json', 'print the full report as JSON')
    .option('--params <json>', 'fusion weights for Loci (ablations), e.g. \'{"feedback":0.3}\'')
    .action(async (o: { data: string } & Flags) => {
      const searchParams = searchParamsOption(o.params);
      const r = await runLocomoBench({
        ...(searchParams ? { searchParams } : {}),
        data: o.data,
        mode: o.lexical ? 'lexical' : 'hybrid',
        captions: Boolean(o.captions),
        ...(o.only ? { only: o.only } : {}),
        ...(ctx.globals().databaseUrl ? { databaseUrl: ctx.globals().databaseUrl! } : {}),
        onProgress: (m) => ctx.io.stderr(`${m}\n`),
      });
      if (o.json) return printJson(ctx.io, r);
      const c = colors(ctx.io);
      ctx.io.stdout(
        `${c.bold('LoCoMo')} n=${r.n} (${r.n_without_category_5} without category 5), ${r.conversations} ` +
          `conversations, ${r.seconds} s\n`,
      );
      const rows: [string, Metrics, Metrics][] = [
        ['overall', r, r.baseline],
        ['no cat 5', r.without_category_5, r.baseline.without_category_5],
      ];
      for (const k of Object.keys(r.by_category))
        rows.push([`cat ${k} (n=${r.by_category[k]!.n})`, r.by_category[k]!, r.baseline.by_category[k]!]);
      ctx.io.stdout(compare(rows));
      ctx.io.stdout(c.dim(`rendering: ${r.rendering}\nembedder: ${r.embedder}\nstorage: ${r.storage}\n`));
    });
  registerTranscriptsBench(bench, ctx);
  bench
    .command('longmemeval')
    .description('LongMemEval session retrieval: one fresh palace per question, user turns only')
    .requiredOption('--data <file>', 'a LongMemEval JSON file (e.g. longmemeval_s.json)')
    .option('--lexical', 'BM25 only on the Loci side (ablation)')
    .option('--limit <n>', 'only the first n questions')
    .option('--json', 'print the full report as JSON')
    .action(async (o: { data: string; lexical?: boolean; limit?: string; json?: boolean }) => {
      const r = await runLongMemEvalBench({
        data: o.data,
        mode: o.lexical ? 'lexical' : 'hybrid',
        ...(o.limit ? { limit: intOption('--limit', o.limit, 500, 1, 1_000_000) } : {}),
        onProgress: (m) => ctx.io.stderr(`${m}\n`),
      });
      if (o.json) return printJson(ctx.io, r);
      ctx.io.stdout(`LongMemEval n=${r.n} (${r.abstentions} abstention questions left out), ${r.seconds} s\n`);
      const rows: [string, Metrics, Metrics][] = [['overall', r, r.baseline]];
      ctx.io.stdout(compare(rows));
      for (const [t, m] of Object.entries(r.by_type))
        ctx.io.stdout(`  ${t} (n=${m.n}): any@5 ${f(m['any@5'])} any@10 ${f(m['any@10'])}\n`);
    });
};
