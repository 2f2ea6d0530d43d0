/**
 * @module cli/commands/bench-transcripts
 * `loci bench transcripts [--data DIR] [--questions FILE] [--show] [--json]`: the real-transcripts
 * benchmark (hits@1 / hits@5 for Loci, Loci's BM25 alone and MiniSearch, per question kind and per
 * transcript kind); `--show` adds, for the three projects most questions are about, the wake-up
 * text and two recalls, for a human to judge.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { createError } from '../../core/errors.js';
import { runTranscriptsBench, type HitScores, type TranscriptsGroup } from '../../internal.js';
import type { HybridParams } from '../../search/index.js';
import type { CliContext } from '../context.js';
import { colors, printJson, table } from '../format.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const f = (x: number) => x.toFixed(3);
type P = { params?: string };

function rows(name: string, g: TranscriptsGroup): string[][] {
  const cells = (s: HitScores) => [f(s['hits@1']), f(s['hits@5']), f(s['hits@10']), f(s.mrr)];
  return [
    [`${name} (n=${g.n}) loci`, ...cells(g.loci)],
    [`${name} loci bm25-only`, ...cells(g.lexical)],
    [`${name} minisearch`, ...cells(g.baseline)],
  ];
}

/**
 * `--params '{"feedback":0.3}'`: fusion weights for Loci's side of a bench (ablations), a JSON
 * object of numbers; throws INVALID_ARGUMENT otherwise.
 */
export function searchParamsOption(raw: string | undefined): Partial<HybridParams> | undefined {
  if (raw === undefined) return undefined;
  const expected = 'a JSON object of numbers, e.g. {"feedback":0.3}';
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw createError('INVALID_ARGUMENT', { name: '--params', value: raw, expected });
  }
  if (!v || typeof v !== 'object' || Array.isArray(v) || !Object.values(v).every((x) => Number.isFinite(x)))
    throw createError('INVALID_ARGUMENT', { name: '--params', value: raw, expected });
  return v as Partial<HybridParams>;
}

/** Registers `loci bench transcripts` under `bench`. */
export function registerTranscriptsBench(bench: Command, ctx: CliContext): void {
  bench
    .command('transcripts')
    .description('real agent transcripts: hand-written questions, hits@1/@5 vs plain BM25 in the same run')
    .option('--data <dir>', 'the transcripts folder', join(ROOT, '..', 'shared', 'data', 'transcripts'))
    .option('--questions <file>', 'the question set', join(ROOT, 'bench', 'data', 'transcripts-questions.json'))
    .option('--show', 'also print, for three projects, the wake-up text and two recalls')
    .option('--misses', 'list the questions Loci misses at rank 1')
    .option('--json', 'print the full report as JSON')
    .option('--params <json>', 'fusion weights for Loci (ablations), e.g. \'{"feedback":0.3}\'')
    .action(async (o: { data: string; questions: string; show?: boolean; misses?: boolean; json?: boolean } & P) => {
      const searchParams = searchParamsOption(o.params);
      const r = await runTranscriptsBench({
        data: o.data,
        questions: o.questions,
        ...(searchParams ? { searchParams } : {}),
        onProgress: (m) => ctx.io.stderr(`${m}\n`),
        ...(o.show ? { show: true } : {}),
      });
      if (o.json) return printJson(ctx.io, r);
      const c = colors(ctx.io);
      ctx.io.stdout(
        `${c.bold('Transcripts')} n=${r.n} questions, ${r.files} files, ${r.drawers} drawers, ${r.seconds} s\n`,
      );
      const out: string[][] = [['', 'hits@1', 'hits@5', 'hits@10', 'mrr'], ...rows('overall', r)];
      for (const [k, g] of Object.entries(r.by_kind)) out.push(...rows(k, g));
      for (const [k, g] of Object.entries(r.by_source)) out.push(...rows(k, g));
      out.push(...rows('odd-numbered', r.halves.odd), ...rows('even-numbered', r.halves.even));
      ctx.io.stdout(table(out));
      if (r.unstored.length) ctx.io.stdout(`answer stored in no drawer: ${r.unstored.join(', ')}\n`);
      if (r.broken_gold.length) ctx.io.stdout(`anchors not found in their transcript: ${r.broken_gold.join(', ')}\n`);
      if (o.misses) {
        for (const q of r.per_question.filter((x) => x.loci !== 1)) {
          ctx.io.stdout(
            `miss ${q.id} loci=${q.loci ?? '-'} bm25=${q.lexical ?? '-'} minisearch=${q.baseline ?? '-'}: ` +
              `${q.question}\n`,
          );
        }
      }
      ctx.io.stdout(c.dim(`system: ${r.system}\nbaseline: ${r.baseline_system}\n`));
      if (r.show) ctx.io.stdout(r.show);
    });
}
