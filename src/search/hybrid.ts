/**
 * @module search/hybrid
 * Hybrid retrieval: BM25 over the whole corpus, a vector signal when an embedder is configured,
 * and structure signals — the source (session or file) the drawer belongs to, the time the query
 * names, and rooms named in the query — fused by normalised weighted sum.
 *
 * Every weight is documented in `hybrid-params.ts` with the reason for its value; the
 * measurements behind them are in BENCHMARKS.md (`loci bench locomo`).
 */
import { createError } from '../core/errors.js';
import { monotonicMs, type Clock } from '../core/clock.js';
import type { Drawer, LexicalHit, MemoryStore } from '../store/ports.js';
import { matchesFilter } from '../store/shared.js';
import { queryTokens } from '../text/index.js';
import { collapseExchanges } from './collapse.js';
import { feedbackPass } from './feedback.js';
import { asksWhy, explains, matchProfile } from './prose.js';
import { attachContext, filterOf, toHit } from './search.js';
import { americanVariants } from './spelling.js';
import { parseTimeCues, stripTimeCues, timeProximity } from './time-cues.js';
import { HYBRID_DEFAULTS, type HybridParams, type VectorSearcher } from './hybrid-params.js';
import type { SearchHit, SearchOptions, SearchResult, SignalTrace } from './types.js';

/** What hybrid search needs. */
interface HybridDeps {
  store: MemoryStore;
  vectors?: VectorSearcher | undefined;
  /** Why vectors are unavailable, when they are (reported as `fallback`). */
  vectorsUnavailable?: string | undefined;
  clock?: Clock;
  params?: Partial<HybridParams>;
  /** Drawer ids linked to the entities a query names (from the knowledge graph), when available. */
  entityDrawers?: ((query: string) => Promise<ReadonlySet<string>>) | undefined;
}

interface Cand {
  id: string;
  hit?: LexicalHit;
  bm25: number;
  bm25Rank: number | null;
  vec: number;
  vecRank: number | null;
  source: number;
  time: number;
  room: number;
  entity: number;
  neighbour: number;
  exchange: number;
  /** 1 when the question asks why and the drawer's prose gives a reason (answer-type signal). */
  why: number;
  fused: number;
}

const maxIso = (a: string | undefined, b: string) => (a !== undefined && a > b ? a : b);
const minIso = (a: string | undefined, b: string) => (a !== undefined && a < b ? a : b);

function check(name: string, v: number, min: number, max: number): void {
  if (!Number.isInteger(v) || v < min || v > max) {
    throw createError('INVALID_ARGUMENT', { name, value: v, expected: `an integer from ${min} to ${max}` });
  }
}

/** Hybrid search (see the module comment). */
export async function searchHybrid(deps: HybridDeps, query: string, opts: SearchOptions = {}): Promise<SearchResult> {
  const t0 = monotonicMs();
  const p = { ...HYBRID_DEFAULTS, ...deps.params };
  const limit = opts.limit ?? 10;
  check('limit', limit, 1, 100);
  const context = opts.context ?? 0;
  check('context', context, 0, 10);
  const now = deps.clock?.now() ?? Date.now();
  const cues = parseTimeCues(query, now);
  const words = stripTimeCues(query, cues);
  let tokens = queryTokens(words);
  if (tokens.length === 0) tokens = queryTokens(query);
  // British spellings also search their American forms (the words transcripts and code use).
  const variants = americanVariants(words);
  if (variants) tokens = [...new Set([...tokens, ...queryTokens(variants)])];
  const filter = filterOf(opts);
  const k = opts.mode === 'lexical' ? limit : Math.max(p.candidates, limit * 10);

  const [lex, vec, linked] = await Promise.all([
    tokens.length ? deps.store.searchLexical(tokens, filter, k) : Promise.resolve([]),
    deps.vectors && opts.mode !== 'lexical'
      ? deps.vectors.knn(query, filter, Math.max(50, limit * 5))
      : Promise.resolve([]),
    deps.entityDrawers && opts.mode !== 'lexical' && p.entity > 0
      ? deps.entityDrawers(query)
      : Promise.resolve(new Set<string>()),
  ]);

  const cands = new Map<string, Cand>();
  const cand = (id: string): Cand => {
    let c = cands.get(id);
    if (!c)
      cands.set(
        id,
        (c = {
          id,
          bm25: 0,
          bm25Rank: null,
          vec: 0,
          vecRank: null,
          source: 0,
          time: 0,
          room: 0,
          entity: 0,
          neighbour: 0,
          exchange: 0,
          why: 0,
          fused: 0,
        }),
      );
    return c;
  };
  lex.forEach((h, i) => Object.assign(cand(h.id), { hit: h, bm25: h.score, bm25Rank: i + 1 }));
  // A named time is a strong cue even without shared words: drawers said then are candidates too.
  if (cues.length && opts.mode !== 'lexical') {
    const pad = p.timeTauDays * 86_400_000;
    const since = new Date(Math.min(...cues.map((c) => c.start)) - pad).toISOString();
    const until = new Date(Math.max(...cues.map((c) => c.end)) + pad).toISOString();
    const dated = await deps.store.list(
      { ...filter, since: maxIso(filter?.since, since), until: minIso(filter?.until, until) },
      { limit: k, order: 'date' },
    );
    for (const d of dated.drawers) {
      const c = cand(d.id);
      c.hit ??= {
        id: d.id,
        score: 0,
        wing: d.wing,
        room: d.room,
        hall: d.hall,
        source: d.source,
        chunkIndex: d.chunkIndex,
        contentDate: d.contentDate,
      };
    }
  }
  vec
    .filter((h) => h.score >= p.vectorMinScore)
    .forEach((h, i) => Object.assign(cand(h.id), { vec: h.score, vecRank: i + 1 }));
  if (opts.mode === 'lexical') {
    return finish(
      deps,
      query,
      tokens,
      [...cands.values()].slice(0, limit).map((c) => ({ c, fused: c.bm25 })),
      ['bm25'],
      opts,
      context,
      t0,
      undefined,
    );
  }

  // Vector-only candidates need their ranking fields.
  const missing = [...cands.values()].filter((c) => !c.hit).map((c) => c.id);
  if (missing.length) {
    for (const d of await deps.store.getMany(missing)) {
      if (!matchesFilter(d, filter)) {
        cands.delete(d.id);
        continue;
      }
      const c = cands.get(d.id)!;
      c.hit = {
        id: d.id,
        score: 0,
        wing: d.wing,
        room: d.room,
        hall: d.hall,
        source: d.source,
        chunkIndex: d.chunkIndex,
        contentDate: d.contentDate,
      };
    }
  }
  const live = [...cands.values()].filter((c) => c.hit);
  const why = p.why > 0 && asksWhy(query);
  const texts =
    p.toolWeight < 1 || p.coverage > 0 || why || p.feedback > 0
      ? await discountToolText(deps.store, live, tokens, p, limit)
      : undefined;
  if (p.feedback > 0 && texts) {
    // Expansion (off by default): the second pass's BM25 joins each drawer's own, new drawers join.
    const best = Math.max(1e-12, ...live.map((c) => c.bm25));
    const o = { mode: p.feedbackMode, docs: p.feedbackDocs, terms: p.feedbackTerms, gate: p.feedbackGate };
    for (const f of await feedbackPass(deps.store, live, texts, tokens, filter, k, o)) {
      const c = cands.get(f.hit.id) ?? cand(f.hit.id);
      if (!c.hit) live.push(Object.assign(c, { hit: f.hit }));
      c.bm25 += p.feedback * f.norm * best;
    }
  }

  // Source signal: summed BM25 of the candidates of each source.
  const perSource = sourceEvidence(live, p.sourceTop);
  if (p.exchange > 0 && texts) exchangeEvidence(live, texts);
  const roomWords = new Set(tokens);
  const roomHit = new Map<string, number>();
  const roomMatches = (room: string) => {
    let v = roomHit.get(room);
    if (v === undefined) roomHit.set(room, (v = queryTokens(room).some((t) => roomWords.has(t)) ? 1 : 0));
    return v;
  };
  const byPosition = new Map<string, number>();
  if (p.neighbour > 0)
    for (const c of live) if (c.hit!.source !== null) byPosition.set(`${c.hit!.source}\0${c.hit!.chunkIndex}`, c.bm25);
  for (const c of live) {
    const s = c.hit!.source;
    c.source = s === null ? c.bm25 : perSource.get(s)!;
    c.time = timeProximity(c.hit!.contentDate, cues, p.timeTauDays);
    c.room = roomMatches(c.hit!.room);
    c.entity = linked.has(c.id) ? 1 : 0;
    if (p.neighbour > 0 && s !== null) {
      const i = c.hit!.chunkIndex;
      c.neighbour = Math.max(byPosition.get(`${s}\0${i - 1}`) ?? 0, byPosition.get(`${s}\0${i + 1}`) ?? 0);
    }
  }
  const max = (f: (c: Cand) => number) => Math.max(1e-12, ...live.map(f));
  const mb = max((c) => c.bm25);
  const ms = max((c) => c.source);
  const mv = max((c) => c.vec);
  const useVec = vec.length > 0;
  const useTime = cues.length > 0;
  for (const c of live) {
    c.why = why && texts?.has(c.id) && explains(texts.get(c.id)!.text) ? 1 : 0;
    c.fused =
      p.bm25 * (c.bm25 / mb) +
      p.source * (c.source / ms) +
      (useVec ? p.vector * (c.vec / mv) : 0) +
      (useTime ? p.time * c.time : 0) +
      p.room * c.room +
      p.entity * c.entity +
      p.neighbour * (c.neighbour / mb) +
      p.exchange * (c.exchange / mb) +
      p.why * c.why;
  }
  // Ties: better BM25 rank, then earlier chunk.
  live.sort((a, b) => b.fused - a.fused || (a.bm25Rank ?? 1e9) - (b.bm25Rank ?? 1e9));
  const useEntity = linked.size > 0;
  const signals = [
    'bm25',
    'source',
    ...(useVec ? ['vector'] : []),
    ...(useTime ? ['time'] : []),
    'room',
    ...(useEntity ? ['entity'] : []),
  ];
  const fallback = !deps.vectors && deps.vectorsUnavailable ? deps.vectorsUnavailable : undefined;

  let ranked: Cand[] = live.slice(0, limit);
  let known = texts;
  if (p.collapse > 0)
    ({ top: ranked, drawers: known } = await collapseExchanges(
      deps.store,
      live,
      limit,
      p.collapseShare,
      texts,
      (c) => c.hit!.source,
      p.collapseCopies > 0,
    ));
  const top = ranked.map((c) => {
    const trace: Record<string, SignalTrace> = {
      bm25: { rank: c.bm25Rank, score: c.bm25, contribution: p.bm25 * (c.bm25 / mb) },
      source: { rank: null, score: c.source, contribution: p.source * (c.source / ms) },
      room: { rank: null, score: c.room, contribution: p.room * c.room },
    };
    if (useVec) trace['vector'] = { rank: c.vecRank, score: c.vec, contribution: p.vector * (c.vec / mv) };
    if (useTime) trace['time'] = { rank: null, score: c.time, contribution: p.time * c.time };
    if (useEntity) trace['entity'] = { rank: null, score: c.entity, contribution: p.entity * c.entity };
    if (p.exchange > 0)
      trace['exchange'] = { rank: null, score: c.exchange, contribution: p.exchange * (c.exchange / mb) };
    if (p.neighbour > 0)
      trace['neighbour'] = { rank: null, score: c.neighbour, contribution: p.neighbour * (c.neighbour / mb) };
    if (why) trace['why'] = { rank: null, score: c.why, contribution: p.why * c.why };
    return { c, fused: c.fused, trace };
  });
  return finish(deps, query, tokens, top, signals, opts, context, t0, fallback, known);
}

/** Sets each candidate's exchange signal: the best BM25 among the other parts of its exchange. */
function exchangeEvidence(live: readonly Cand[], texts: ReadonlyMap<string, Drawer>): void {
  const parts = new Map<string, Cand[]>();
  for (const c of live) {
    const ex = texts.get(c.id)?.metadata['exchangeId'];
    if (typeof ex !== 'string' || c.hit!.source === null) continue;
    const key = `${c.hit!.source}\0${ex}`;
    let l = parts.get(key);
    if (!l) parts.set(key, (l = []));
    l.push(c);
  }
  for (const l of parts.values()) {
    if (l.length < 2) continue;
    for (const c of l) c.exchange = Math.max(...l.map((o) => (o === c ? 0 : o.bm25)));
  }
}

/** Per source, the summed BM25 of its best `top` candidates (all when `top` is 0). */
function sourceEvidence(live: readonly Cand[], top: number): Map<string, number> {
  const lists = new Map<string, number[]>();
  for (const c of live) {
    const s = c.hit!.source;
    if (s !== null) {
      let l = lists.get(s);
      if (!l) lists.set(s, (l = []));
      l.push(c.bm25);
    }
  }
  const out = new Map<string, number>();
  for (const [s, l] of lists) {
    if (top > 0 && l.length > top) l.sort((a, b) => b - a).length = top;
    out.set(
      s,
      l.reduce((a, b) => a + b, 0),
    );
  }
  return out;
}

/** Lexical candidates whose texts are loaded for the prose share and the why signal (at least). */
const DISCOUNTED = 30;

/**
 * Scales each lexical candidate's BM25 by the share of its match found in prose (see
 * `proseShare`); returns the hydrated drawers for reuse. Query-word weights are idf estimates
 * from the candidates themselves (a word in most candidates says little).
 */
async function discountToolText(
  store: MemoryStore,
  live: Cand[],
  tokens: string[],
  p: HybridParams,
  limit: number,
): Promise<Map<string, Drawer>> {
  const { toolWeight, coverage } = p;
  // Only the best candidates can reach the top: the discount is at most × toolWeight, so a drawer
  // ranked below them stays below the prose drawers among them.
  const scored = live
    .filter((c) => c.bm25 > 0)
    .sort((a, b) => b.bm25 - a.bm25)
    .slice(0, Math.max(DISCOUNTED, 3 * limit));
  const drawers = new Map((await store.getMany(scored.map((c) => c.id))).map((d) => [d.id, d]));
  // Most drawers have no tool line (documents, chat logs): only the others need the word counts.
  const texts = [...drawers.values()].map((d) => d.text);
  const toolish = coverage > 0 || texts.some((t) => t.includes('→') || t.includes('['));
  if (!toolish) return drawers;
  const lower = texts.map((t) => t.toLowerCase());
  const n = Math.max(1, lower.length);
  const idf = new Map(tokens.map((t) => [t, Math.log(1 + n / (1 + lower.filter((x) => x.includes(t)).length))]));
  for (const c of scored) {
    const d = drawers.get(c.id);
    if (!d) continue;
    const m = matchProfile(d.text, tokens, idf, toolWeight, coverage > 0);
    c.bm25 *= m.share * (coverage > 0 ? m.coverage ** coverage : 1);
  }
  return drawers;
}

async function finish(
  deps: HybridDeps,
  query: string,
  tokens: string[],
  top: { c: Cand; fused: number; trace?: Record<string, SignalTrace> }[],
  signals: string[],
  opts: SearchOptions,
  context: number,
  t0: number,
  fallback: string | undefined,
  known?: ReadonlyMap<string, Drawer>,
): Promise<SearchResult> {
  const missing = top.map((t) => t.c.id).filter((id) => !known?.has(id));
  const byId = new Map(known);
  for (const d of missing.length ? await deps.store.getMany(missing) : []) byId.set(d.id, d);
  const hits: SearchHit[] = [];
  for (const t of top) {
    const d = byId.get(t.c.id);
    if (!d) continue;
    const h = toHit(d, t.fused);
    if (opts.explain) {
      h.explain = {
        signals: t.trace ?? { bm25: { rank: t.c.bm25Rank, score: t.c.bm25, contribution: t.c.bm25 } },
        fused: t.fused,
      };
    }
    hits.push(h);
  }
  await attachContext(deps.store, hits, context);
  return { query, tokens, hits, signals, ...(fallback ? { fallback } : {}), tookMs: monotonicMs() - t0 };
}
