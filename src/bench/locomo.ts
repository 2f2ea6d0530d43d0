/**
 * @module bench/locomo
 * The LoCoMo retrieval benchmark (see `../shared/docs/benchmark-protocol.md`): for every
 * conversation a fresh palace is built with Loci's own conversation ingest (each session written
 * as a chat log with its date, then `palace.mine(…, { mode: 'convos' })`) and queried with Loci's
 * own search; a plain-BM25 baseline (MiniSearch, default options) ranks the same session
 * documents in the same run.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processEnv } from '../core/env.js';
import { openPalace, type Palace } from '../palace/index.js';
import { dropPostgresPalace } from '../store/index.js';
import type { HybridParams } from '../search/index.js';
import { completeRanking, meanMetrics, scoreRanking, type Metrics } from './metrics.js';
import { loadLocomo, renderSession, type LocomoConversation } from './locomo-data.js';

/** Options of {@link runLocomoBench}. */
export interface LocomoBenchOptions {
  /** Path of a LoCoMo-format JSON file. */
  data: string;
  /** `hybrid` (default) or `lexical` (BM25 only) for Loci's side. */
  mode?: 'hybrid' | 'lexical';
  /** Append image captions to turns (`[shared a photo: …]`), for both systems. Default false. */
  captions?: boolean;
  /** Only these conversation ids. */
  only?: readonly string[];
  /** Progress messages (one per conversation). */
  onProgress?: (message: string) => void;
  /**
   * How a session folder gets into the palace. Default: Loci's conversation miner
   * (`palace.mine(dir, { mode: 'convos', wing })`).
   */
  ingest?: (palace: Palace, dir: string, wing: string) => Promise<void>;
  /** Fusion weights for Loci's side (ablations). Default: the product defaults. */
  searchParams?: Partial<HybridParams>;
  /**
   * A PostgreSQL server (`postgres://…`): each conversation's palace is a schema of its own there
   * (dropped afterwards) instead of a SQLite file. Default: SQLite (`LOCI_DATABASE_URL` is ignored).
   */
  databaseUrl?: string;
}

/** `url` with a schema of its own for one conversation's palace. */
function conversationUrl(url: string, conv: string): string {
  const u = new URL(url);
  const tag = conv
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .slice(0, 20);
  u.searchParams.set('schema', `locomo_${tag}_${Math.random().toString(36).slice(2, 10)}`);
  return u.toString();
}

/** Metrics overall, without category 5, and per category. */
interface LocomoScores extends Metrics {
  without_category_5: Metrics;
  by_category: Record<string, Metrics & { n: number }>;
}

/** The bench report (`loci bench locomo --json`). */
export interface LocomoReport extends LocomoScores {
  /** Where the palaces lived. */
  storage: string;
  n: number;
  n_without_category_5: number;
  conversations: number;
  dropped_no_evidence: number;
  baseline: LocomoScores & { system: string };
  system: string;
  rendering: string;
  embedder: string;
  seconds: number;
  per_question?: {
    conversation: string;
    question: string;
    category: number;
    gold: number[];
    loci: number[];
    baseline: number[];
  }[];
}

interface Row {
  category: number;
  m: Metrics;
}

function summarize(rows: Row[]): LocomoScores {
  const by: Record<string, Metrics & { n: number }> = {};
  for (const c of [...new Set(rows.map((r) => r.category))].sort()) {
    const sub = rows.filter((r) => r.category === c);
    by[String(c)] = { n: sub.length, ...meanMetrics(sub.map((r) => r.m)) };
  }
  return {
    ...meanMetrics(rows.map((r) => r.m)),
    without_category_5: meanMetrics(rows.filter((r) => r.category !== 5).map((r) => r.m)),
    by_category: by,
  };
}

/** The chat-log file of one session: a date line, then one line per turn. */
function sessionFile(conv: LocomoConversation, n: number, captions: boolean): string {
  const s = conv.sessions[n - 1]!;
  return `Date: ${s.date ?? s.dateText}\n\n${renderSession(s, captions)}\n`;
}

const defaultIngest = async (palace: Palace, dir: string, wing: string) => {
  await palace.mine(dir, { mode: 'convos', wing });
};

/** Runs the benchmark and returns the report. */
export async function runLocomoBench(opts: LocomoBenchOptions): Promise<LocomoReport> {
  const t0 = performance.now();
  const captions = opts.captions ?? false;
  const convs = loadLocomo(opts.data).filter((c) => !opts.only || opts.only.includes(c.id));
  const ingest = opts.ingest ?? defaultIngest;
  const { default: MiniSearch } = await import('minisearch');
  const loci: Row[] = [];
  const base: Row[] = [];
  let dropped = 0;
  const work = mkdtempSync(join(tmpdir(), 'loci-bench-'));
  try {
    for (const conv of convs) {
      dropped += conv.dropped;
      const dir = join(work, conv.id, 'sessions');
      const home = join(work, conv.id, 'home');
      mkdirSync(dir, { recursive: true });
      const fileOf = new Map<string, number>();
      for (const s of conv.sessions) {
        const f = join(dir, `session_${String(s.n).padStart(3, '0')}.txt`);
        writeFileSync(f, sessionFile(conv, s.n, captions));
        fileOf.set(f, s.n);
      }
      const all = conv.sessions.map((s) => s.n);
      const url = opts.databaseUrl ? conversationUrl(opts.databaseUrl, conv.id) : undefined;
      const palace = await openPalace({
        home,
        ...(url ? { databaseUrl: url } : { env: { ...processEnv(), LOCI_DATABASE_URL: '' } }),
        ...(opts.searchParams ? { searchParams: opts.searchParams } : {}),
      });
      try {
        await ingest(palace, dir, conv.id);
        const ms = new MiniSearch<{ id: number; text: string }>({ fields: ['text'] });
        ms.addAll(conv.sessions.map((s) => ({ id: s.n, text: renderSession(s, captions) })));
        for (const q of conv.questions) {
          const res = await palace.search(q.question, { limit: 100, mode: opts.mode ?? 'hybrid' });
          const ranked = completeRanking(
            res.hits.map((h) => fileOf.get(h.source ?? '') ?? -1).filter((n) => n > 0),
            all,
          );
          loci.push({ category: q.category, m: scoreRanking(ranked, q.gold) });
          const b = completeRanking(
            ms.search(q.question).map((r) => r.id as number),
            all,
          );
          base.push({ category: q.category, m: scoreRanking(b, q.gold) });
        }
      } finally {
        await palace.close();
        if (url) await dropPostgresPalace(url);
      }
      opts.onProgress?.(`${conv.id}: ${conv.sessions.length} sessions, ${conv.questions.length} questions`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return {
    n: loci.length,
    n_without_category_5: loci.filter((r) => r.category !== 5).length,
    conversations: convs.length,
    dropped_no_evidence: dropped,
    ...summarize(loci),
    baseline: { system: 'MiniSearch 7.2.0, default options, one document per session', ...summarize(base) },
    system: `loci ${opts.mode ?? 'hybrid'} search over conversation drawers (exchanges)`,
    rendering:
      'one file per session: a "Date:" line with the session date, then {speaker} said, "{text}" per ' +
      `turn${captions ? ' + [shared a photo: {blip_caption}]' : ''}; baseline documents are the same turn lines`,
    embedder: 'none (weights-free default)',
    storage: opts.databaseUrl ? 'PostgreSQL (one schema per conversation)' : 'SQLite (one file per conversation)',
    seconds: Math.round((performance.now() - t0) / 10) / 100,
  };
}
