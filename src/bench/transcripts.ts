/**
 * @module bench/transcripts
 * The real-transcripts retrieval benchmark (`loci bench transcripts`): a folder of real agent
 * transcripts (Claude Code, Codex, Gemini CLI, Slack exports) is mined into a fresh palace through
 * the product path (`palace.mine(dir, { mode: 'convos', flush: true })`), and questions written by
 * reading those transcripts are asked through `palace.search`. Each question names the exchange
 * that answers it by a stable locator — the transcript file and short verbatim anchors from the
 * answering message (or a line number) — so the gold survives re-chunking. A plain-BM25 baseline
 * (MiniSearch, default options, over the same drawers) ranks in the same run.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createError, fsError } from '../core/errors.js';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { openPalace } from '../palace/index.js';
import type { HybridParams, SearchHit } from '../search/index.js';
import { showTranscriptProjects } from './transcripts-show.js';

/** One benchmark question (see `bench/data/transcripts-questions.json`). */
export interface TranscriptQuestion {
  /** Stable id, e.g. `spot-2`. */
  id: string;
  /** Question kind: `why`, `what` or `how`. */
  kind: string;
  /** The question, in the asker's words. */
  question: string;
  /** The answering transcript, relative to the data folder (`claude-code/x.jsonl`). */
  file: string;
  /** Short verbatim quotes (≤ 8 words) from the answering message; any one suffices. */
  anchors: string[];
  /** Optional 1-based line of the answering record: a drawer whose line range covers it is a hit too. */
  line?: number;
}

/** hits@k and reciprocal rank, averaged over questions. */
export interface HitScores {
  'hits@1': number;
  'hits@5': number;
  'hits@10': number;
  mrr: number;
}

/** Scores of each system over one group of questions. */
export interface TranscriptsGroup {
  n: number;
  loci: HitScores;
  lexical: HitScores;
  baseline: HitScores;
}

/** Options of {@link runTranscriptsBench}. */
export interface TranscriptsBenchOptions {
  /** The transcripts folder (`../shared/data/transcripts`). */
  data: string;
  /** The questions, or the path of a JSON file `{ questions: [...] }`. */
  questions: string | readonly TranscriptQuestion[];
  /** Fusion weights for Loci's side (ablations). Default: the product defaults. */
  searchParams?: Partial<HybridParams>;
  /** Progress messages. */
  onProgress?: (message: string) => void;
  /**
   * Also render, for the three projects most questions are about, the wake-up text and two
   * recalls for a human to judge (report field `show`). Default false.
   */
  show?: boolean;
}

/** One question's outcome: the 1-based rank of the first gold drawer, or null (not in the top 10). */
interface TranscriptsQuestionResult {
  id: string;
  kind: string;
  source_kind: string;
  question: string;
  /** Rank of the first part of an answering exchange (null: not in the top 10). */
  loci: number | null;
  lexical: number | null;
  baseline: number | null;
  /** Loci's rank of the first drawer that itself holds an anchor (the stricter judgement). */
  loci_drawer: number | null;
  /** Whether any stored drawer matches the gold at all. */
  stored: boolean;
}

/** The bench report (`loci bench transcripts --json`). */
export interface TranscriptsReport extends TranscriptsGroup {
  /** Loci judged by drawer (the drawer itself holds an anchor) rather than by exchange. */
  loci_drawer_level: HitScores;
  files: number;
  drawers: number;
  seconds: number;
  system: string;
  lexical_system: string;
  baseline_system: string;
  /** By question kind (why / what / how). */
  by_kind: Record<string, TranscriptsGroup>;
  /** By transcript kind (the first folder of the gold file: claude-code, codex-cli, …). */
  by_source: Record<string, TranscriptsGroup>;
  /**
   * A 2-fold check: the odd-numbered questions (1st, 3rd, … in file order) and the even-numbered
   * ones. A ranking change tuned on one half should hold on the other.
   */
  halves: { odd: TranscriptsGroup; even: TranscriptsGroup };
  /** Questions whose answer no stored drawer holds (an ingestion loss, not a ranking miss). */
  unstored: string[];
  /** Questions whose anchors do not occur in their transcript file (a broken gold). */
  broken_gold: string[];
  per_question: TranscriptsQuestionResult[];
  /** With `show`: the wake-up and two recalls of the three projects most questions are about. */
  show?: string;
}

/** Folds text for anchor comparison: lower case, every run of non-letters/digits one space. */
export function foldText(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * Reads a question file (`{ questions: [...] }` or a bare array). Throws PATH_NOT_FOUND (or another
 * file error) when it cannot be read, CONFIG_INVALID when it is not JSON or a question lacks a field.
 */
export function loadTranscriptQuestions(path: string): TranscriptQuestion[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw fsError(e, path);
  }
  let raw: { questions?: TranscriptQuestion[] } | TranscriptQuestion[];
  try {
    raw = JSON.parse(text) as typeof raw;
  } catch (e) {
    throw createError('CONFIG_INVALID', { path, reason: `not valid JSON (${(e as Error).message})` }, e);
  }
  const list = Array.isArray(raw) ? raw : (raw?.questions ?? []);
  for (const q of list) {
    if (!q?.id || !q.question || !q.file || !Array.isArray(q.anchors)) {
      const reason = `question ${JSON.stringify(q).slice(0, 80)} needs id, question, file and anchors`;
      throw createError('CONFIG_INVALID', { path, reason });
    }
  }
  return list;
}

/** Every string value of a JSON document (transcripts store text JSON-escaped). */
function jsonStrings(v: unknown, out: string[]): void {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) jsonStrings(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) jsonStrings(x, out);
}

/** The decoded text of a transcript file, folded (for checking that anchors exist). */
function foldedSource(path: string): string {
  const raw = readFileSync(path, 'utf8');
  const parts: string[] = [];
  const parse = (s: string) => {
    try {
      jsonStrings(JSON.parse(s), parts);
    } catch {
      parts.push(s);
    }
  };
  if (path.endsWith('.jsonl')) for (const l of raw.split('\n')) parse(l);
  else if (path.endsWith('.json')) parse(raw);
  else parts.push(raw);
  return foldText(parts.join('\n'));
}

interface Gold {
  q: TranscriptQuestion;
  anchors: string[];
}

/** Whether a drawer (source relative to the data folder, text, line range) answers the question. */
function matches(g: Gold, rel: string | null, text: string, lines: [number, number] | null): boolean {
  if (rel === null || !(rel === g.q.file || g.q.file.startsWith(`${rel}/`))) return false;
  if (g.q.line !== undefined && lines && lines[0] <= g.q.line && g.q.line <= lines[1]) return true;
  const t = foldText(text);
  return g.anchors.some((a) => t.includes(a));
}

/** A ranked drawer as the judge sees it. */
interface Judged {
  rel: string | null;
  text: string;
  lines: [number, number] | null;
  /** The exchange the drawer is a part of (`metadata.exchangeId`), when it has one. */
  exchange: string | null;
}

/**
 * Rank of the first answer. The gold is an exchange (issue: "each with the exchange that answers
 * it"): with `exchanges` given, any part of an answering exchange counts; without, only a drawer
 * that itself holds an anchor (the stricter drawer-level judgement).
 */
function firstRank(ranked: readonly Judged[], g: Gold, exchanges?: ReadonlySet<string>): number | null {
  const i = ranked.findIndex(
    (d) =>
      matches(g, d.rel, d.text, d.lines) ||
      (exchanges !== undefined && d.exchange !== null && exchanges.has(d.exchange)),
  );
  return i < 0 ? null : i + 1;
}

const exchangeOf = (metadata: Record<string, unknown>): string | null =>
  typeof metadata['exchangeId'] === 'string' ? metadata['exchangeId'] : null;

function scores(ranks: (number | null)[]): HitScores {
  const n = Math.max(1, ranks.length);
  const at = (k: number) => ranks.filter((r) => r !== null && r <= k).length / n;
  return {
    'hits@1': at(1),
    'hits@5': at(5),
    'hits@10': at(10),
    mrr: ranks.reduce<number>((s, r) => s + (r ? 1 / r : 0), 0) / n,
  };
}

function group(rows: TranscriptsQuestionResult[]): TranscriptsGroup {
  return {
    n: rows.length,
    loci: scores(rows.map((r) => r.loci)),
    lexical: scores(rows.map((r) => r.lexical)),
    baseline: scores(rows.map((r) => r.baseline)),
  };
}

function groupBy(
  rows: TranscriptsQuestionResult[],
  key: (r: TranscriptsQuestionResult) => string,
): Record<string, TranscriptsGroup> {
  const out: Record<string, TranscriptsGroup> = {};
  for (const k of [...new Set(rows.map(key))].sort()) out[k] = group(rows.filter((r) => key(r) === k));
  return out;
}

/** Runs the benchmark and returns the report. */
export async function runTranscriptsBench(opts: TranscriptsBenchOptions): Promise<TranscriptsReport> {
  const t0 = performance.now();
  const data = resolve(opts.data);
  const questions = typeof opts.questions === 'string' ? loadTranscriptQuestions(opts.questions) : [...opts.questions];
  const golds: Gold[] = questions.map((q) => ({ q, anchors: q.anchors.map(foldText).filter(Boolean) }));
  const sources = new Map<string, string>();
  const broken: string[] = [];
  for (const g of golds) {
    let text = sources.get(g.q.file);
    if (text === undefined) {
      try {
        text = foldedSource(join(data, g.q.file));
      } catch {
        text = '';
      }
      sources.set(g.q.file, text);
    }
    if (g.q.line === undefined && !g.anchors.some((a) => text.includes(a))) broken.push(g.q.id);
  }
  const relOf = (source: string | null): string | null => {
    if (source === null) return null;
    const r = relative(data, isAbsolute(source) ? source : resolve(source));
    return r.startsWith('..') ? null : r.split(sep).join('/');
  };

  const { default: MiniSearch } = await import('minisearch');
  const work = mkdtempSync(join(tmpdir(), 'loci-bench-transcripts-'));
  const rows: TranscriptsQuestionResult[] = [];
  let show: string | undefined;
  let files = 0;
  let drawerCount = 0;
  try {
    const palace = await openPalace({ home: work, ...(opts.searchParams ? { searchParams: opts.searchParams } : {}) });
    try {
      const mined = await palace.mine(data, { mode: 'convos', flush: true });
      files = mined.filesMined;
      const { drawers } = await palace.listDrawers(undefined, { limit: 1_000_000 });
      drawerCount = drawers.length;
      opts.onProgress?.(`mined ${files} files into ${drawers.length} drawers`);
      const byId = new Map<string, Judged>(
        drawers.map((d) => [
          d.id,
          {
            rel: relOf(d.source),
            text: d.text,
            lines: d.lineStart !== null && d.lineEnd !== null ? ([d.lineStart, d.lineEnd] as [number, number]) : null,
            exchange: exchangeOf(d.metadata),
          },
        ]),
      );
      const ms = new MiniSearch<{ id: string; text: string }>({ fields: ['text'] });
      ms.addAll(drawers.map((d) => ({ id: d.id, text: d.text })));
      const view = (hits: SearchHit[]): Judged[] =>
        hits.map((h) => ({ rel: relOf(h.source), text: h.text, lines: h.lines, exchange: exchangeOf(h.metadata) }));
      const all = [...byId.values()];
      for (const g of golds) {
        const answering = new Set(
          all.filter((d) => matches(g, d.rel, d.text, d.lines) && d.exchange !== null).map((d) => d.exchange!),
        );
        const [hy, lex] = await Promise.all([
          palace.search(g.q.question, { limit: 10 }),
          palace.search(g.q.question, { limit: 10, mode: 'lexical' }),
        ]);
        const base = ms
          .search(g.q.question)
          .slice(0, 10)
          .map((r) => byId.get(r.id as string)!);
        rows.push({
          id: g.q.id,
          kind: g.q.kind,
          source_kind: g.q.file.split('/')[0] ?? '',
          question: g.q.question,
          loci: firstRank(view(hy.hits), g, answering),
          lexical: firstRank(view(lex.hits), g, answering),
          baseline: firstRank(base, g, answering),
          loci_drawer: firstRank(view(hy.hits), g),
          stored: firstRank(all, g) !== null,
        });
      }
      if (opts.show) show = await showTranscriptProjects(palace, questions, data);
    } finally {
      await palace.close();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return {
    ...group(rows),
    loci_drawer_level: scores(rows.map((r) => r.loci_drawer)),
    files,
    drawers: drawerCount,
    seconds: Math.round((performance.now() - t0) / 10) / 100,
    system:
      'loci hybrid search (' +
      (opts.searchParams ? `params ${JSON.stringify(opts.searchParams)}` : 'product defaults') +
      ', no embedder) over conversation drawers',
    lexical_system: 'loci lexical (FTS5 BM25 only, same drawers)',
    baseline_system: 'MiniSearch 7.2.0, default options, one document per drawer',
    by_kind: groupBy(rows, (r) => r.kind),
    by_source: groupBy(rows, (r) => r.source_kind),
    halves: { odd: group(rows.filter((_, i) => i % 2 === 0)), even: group(rows.filter((_, i) => i % 2 === 1)) },
    unstored: rows.filter((r) => !r.stored).map((r) => r.id),
    broken_gold: broken,
    per_question: rows,
    ...(show !== undefined ? { show } : {}),
  };
}
