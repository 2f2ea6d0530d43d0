/**
 * @module bench/longmemeval
 * LongMemEval retrieval (see the benchmark protocol): for each question a fresh palace holds its
 * haystack sessions, one chat-log file per session made of the **user** turns; a hit is any
 * answer session in the top k (any@k), all@k is reported too. Abstention questions (ids ending in
 * `_abs`) have no answer session: they are counted and left out of the metrics.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createError } from '../core/errors.js';
import { openPalace, type Palace } from '../palace/index.js';
import { completeRanking, meanMetrics, scoreRanking, type Metrics } from './metrics.js';
import { readDataFile } from './locomo-data.js';

/** One LongMemEval item (fields used by the bench). */
interface LongMemEvalItem {
  question_id: string;
  question_type: string;
  question: string;
  haystack_session_ids: string[];
  haystack_dates?: string[];
  haystack_sessions: { role: string; content: string }[][];
  answer_session_ids: string[];
}

/** Options of {@link runLongMemEvalBench}. */
export interface LongMemEvalOptions {
  data: string;
  mode?: 'hybrid' | 'lexical';
  /** Only the first `limit` questions. */
  limit?: number;
  onProgress?: (message: string) => void;
  /** How a session folder gets into the palace. Default: `palace.mine(dir, { mode: 'convos' })`. */
  ingest?: (palace: Palace, dir: string, wing: string) => Promise<void>;
}

/** The report of `loci bench longmemeval --json`. */
export interface LongMemEvalReport extends Metrics {
  n: number;
  abstentions: number;
  by_type: Record<string, Metrics & { n: number }>;
  baseline: Metrics & { system: string };
  rendering: string;
  seconds: number;
}

/** Loads and validates a LongMemEval JSON file. */
function loadLongMemEval(path: string): LongMemEvalItem[] {
  const raw = readDataFile(path);
  if (
    !Array.isArray(raw) ||
    raw.some((x) => !x || !Array.isArray(x.haystack_sessions) || !Array.isArray(x.haystack_session_ids))
  ) {
    throw createError('INVALID_ARGUMENT', {
      name: '--data',
      value: path,
      expected: 'a JSON array of LongMemEval items with haystack_sessions and haystack_session_ids',
    });
  }
  return raw as LongMemEvalItem[];
}

/** Normalises a LongMemEval date ("2023/05/20 (Sat) 02:21") to ISO when possible. */
function isoDate(s: string | undefined): string | null {
  if (!s) return null;
  const m = /(\d{4})[/-](\d{2})[/-](\d{2})(?:\D+(\d{2}):(\d{2}))?/.exec(s);
  if (!m) return null;
  return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0))).toISOString();
}

const userText = (session: { role: string; content: string }[]) =>
  session
    .filter((t) => t.role === 'user')
    .map((t) => `User: ${t.content.replace(/\n/g, '\n  ')}`)
    .join('\n');

/** Runs the benchmark. */
export async function runLongMemEvalBench(opts: LongMemEvalOptions): Promise<LongMemEvalReport> {
  const t0 = performance.now();
  const items = loadLongMemEval(opts.data).slice(0, opts.limit ?? Infinity);
  const ingest =
    opts.ingest ?? (async (p: Palace, dir: string, wing: string) => void (await p.mine(dir, { mode: 'convos', wing })));
  const { default: MiniSearch } = await import('minisearch');
  const rows: { type: string; m: Metrics }[] = [];
  const base: Metrics[] = [];
  let abstentions = 0;
  const work = mkdtempSync(join(tmpdir(), 'loci-lme-'));
  try {
    for (const [qi, item] of items.entries()) {
      if (item.question_id.endsWith('_abs') || item.answer_session_ids.length === 0) {
        abstentions++;
        continue;
      }
      const dir = join(work, String(qi), 'sessions');
      mkdirSync(dir, { recursive: true });
      const idOf = new Map<string, string>();
      const docs: { id: string; text: string }[] = [];
      item.haystack_sessions.forEach((session, i) => {
        const sid = item.haystack_session_ids[i]!;
        const text = userText(session);
        if (!text) return;
        const f = join(dir, `s${String(i).padStart(4, '0')}.txt`);
        const date = isoDate(item.haystack_dates?.[i]);
        writeFileSync(f, `${date ? `Date: ${date}\n\n` : ''}${text}\n`);
        idOf.set(f, sid);
        docs.push({ id: sid, text });
      });
      const all = docs.map((d) => d.id);
      const palace = await openPalace({ home: join(work, String(qi), 'home') });
      try {
        await ingest(palace, dir, 'lme');
        const res = await palace.search(item.question, { limit: 100, mode: opts.mode ?? 'hybrid' });
        const ranked = completeRanking(
          res.hits.map((h) => idOf.get(h.source ?? '')).filter((x): x is string => !!x),
          all,
        );
        rows.push({ type: item.question_type, m: scoreRanking(ranked, item.answer_session_ids) });
        const ms = new MiniSearch<{ id: string; text: string }>({ fields: ['text'] });
        ms.addAll(docs);
        base.push(
          scoreRanking(
            completeRanking(
              ms.search(item.question).map((r) => r.id as string),
              all,
            ),
            item.answer_session_ids,
          ),
        );
      } finally {
        await palace.close();
        rmSync(join(work, String(qi)), { recursive: true, force: true });
      }
      if ((qi + 1) % 25 === 0) opts.onProgress?.(`${qi + 1}/${items.length} questions`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const by: Record<string, Metrics & { n: number }> = {};
  for (const t of [...new Set(rows.map((r) => r.type))].sort()) {
    const sub = rows.filter((r) => r.type === t);
    by[t] = { n: sub.length, ...meanMetrics(sub.map((r) => r.m)) };
  }
  return {
    n: rows.length,
    abstentions,
    ...meanMetrics(rows.map((r) => r.m)),
    by_type: by,
    baseline: { system: 'MiniSearch 7.2.0, default options, one document per session', ...meanMetrics(base) },
    rendering:
      'one file per session: a "Date:" line, then "User: {content}" per user turn (assistant turns left out, per ' +
      'the protocol)',
    seconds: Math.round((performance.now() - t0) / 10) / 100,
  };
}
