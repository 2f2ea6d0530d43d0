/**
 * @module search/hybrid
 * Hybrid retrieval: BM25 over the whole corpus, a vector signal when an embedder is configured,
 * and structure signals — the source (session or file) the drawer belongs to, the time the query
 * names, and rooms named in the query — fused by normalised weighted sum.
 *
 * Every weight is documented in {@link HYBRID_DEFAULTS} with the reason for its value; the
 * measurements behind them are in BENCHMARKS.md (`loci bench locomo`).
 */
import { createError } from '../core/errors.js';
import type { Clock } from '../core/clock.js';
import type { Drawer, DrawerFilter, LexicalHit, MemoryStore } from '../store/ports.js';
import { matchesFilter } from '../store/shared.js';
import { queryTokens } from '../text/index.js';
import { collapseExchanges } from './collapse.js';
import { feedbackPass } from './feedback.js';
import { asksWhy, explains, matchProfile } from './prose.js';
import { attachContext, filterOf, toHit } from './search.js';
import { americanVariants } from './spelling.js';
import { parseTimeCues, stripTimeCues, timeProximity } from './time-cues.js';
import type { SearchHit, SearchOptions, SearchResult, SignalTrace } from './types.js';

/** A nearest-neighbour searcher over drawer embeddings (see `src/embed`). */
export interface VectorSearcher {
  /** Identity of the embedder (shown by `--explain`). */
  readonly id: string;
  /** The `k` drawers most similar to `query`, best first; score is cosine similarity. */
  knn(query: string, filter: DrawerFilter | undefined, k: number): Promise<{ id: string; score: number }[]>;
}

/** Fusion weights and limits. */
export interface HybridParams {
  /**
   * Weight of the drawer's own BM25 score (normalised by the best candidate). Default 0.7.
   * The drawer is the unit returned, so its own match dominates.
   */
  bm25: number;
  /**
   * Weight of the source signal: the sum of the BM25 scores of all candidate drawers from the
   * same source (session or file), normalised. Default 0.35. A drawer whose neighbours also match
   * sits in a document about the query; on LoCoMo this parent-document evidence lifted
   * frac@10 by ~0.01 and helped multi-part questions most. 0.35–0.5 measured alike overall;
   * below 0.35 the inference questions (which draw on a whole conversation) fall back to BM25's level.
   */
  source: number;
  /**
   * Weight of the time signal: 1 when the drawer was said inside an interval the query names
   * ("on 8 May, 2023", "in July 2022", "last week"), decaying with distance. Default 0.5.
   * Only active when the query names a time. Strong because a named date is a precise filter
   * that words cannot express; 0.3–1.0 measured alike.
   */
  time: number;
  /** Decay of the time signal in days. Default 10. */
  timeTauDays: number;
  /**
   * Weight of the vector signal (cosine, normalised). Default 0.3 — a second opinion that
   * finds paraphrases BM25 misses, without overruling exact word matches.
   */
  vector: number;
  /**
   * Vector hits below this cosine similarity are ignored. Default 0.3: unrelated texts score
   * about 0–0.15 with the hash embedder and 0.1–0.3 with sentence-embedding models, so a query
   * with no real match returns nothing instead of the least-bad vectors.
   */
  vectorMinScore: number;
  /**
   * Weight of the room signal: 1 when a query word names the drawer's room. Default 0.1
   * (a tie-breaker: "auth tokens" prefers the auth room).
   */
  room: number;
  /**
   * Weight of the entity signal: the drawer is linked (by an extracted fact or a mention) to an
   * entity the query names. Default 0 (off): on LoCoMo it moved frac@10 by +0.001 at 0.1–0.2
   * (BENCHMARKS.md), while a one-shot `loci search` pays ~40 ms to load the graph for it.
   * Set it (e.g. 0.1) where the graph is rich, e.g. a long-running MCP server.
   */
  entity: number;
  /**
   * Weight of the neighbour signal: the best normalised BM25 score of the chunks right before and
   * after the drawer in the same source (an answer often spans two exchanges). Default 0.
   */
  neighbour: number;
  /**
   * How much a query word found only in a tool line (`[Bash] …` call, `→ …` result) counts,
   * relative to the same word in prose. Default 0.5. A drawer's BM25 is scaled by the share of
   * its match that survives the discount (see `search/prose`), before the source signal sums
   * it: in real agent transcripts file dumps and command output otherwise outrank the exchange
   * where the thing was said. 1 turns it off (and skips loading candidate texts); drawers without
   * tool lines (chat logs, documents) are unaffected. On the real-transcripts set 0.25–0.5
   * measured alike (hits@1 0.26 → 0.33–0.35), 0.1 and 0 worse (BENCHMARKS.md).
   */
  toolWeight: number;
  /**
   * Weight of the exchange signal: the best normalised BM25 of the other parts of the same
   * exchange (a long prompt-and-reply stored in several drawers, `metadata.exchangeId`). The
   * request and the answer of one exchange are often in different parts; each lends the other its
   * evidence. Default 0.15: with results collapsed to one hit per exchange, 0.05–0.2 all lifted
   * the real-transcripts set (hits@1 0.522 → 0.536–0.551, hits@5 0.826 → 0.826–0.841), 0.3
   * traded hits@1 for hits@5; LoCoMo unchanged (BENCHMARKS.md). Drawers that are a whole
   * exchange are unaffected.
   */
  exchange: number;
  /**
   * Weight of the answer-type signal for questions that ask why: 1 when the drawer's prose gives
   * a reason ("because", "so that", "due to", "instead of" …), else 0. Default 0.1. On the
   * real-transcripts set 77 % of the answers to why-questions give a reason in those words, and
   * 28 % of the other top-3 drawers; 0.1 lifted hits@5 there (0.68 → 0.71) and left LoCoMo
   * unchanged, 0.2 cost LoCoMo one question (BENCHMARKS.md).
   */
  why: number;
  /**
   * How many of a source's best candidates its source signal sums. Default 0 (all of them):
   * summing only the best 1–3 (so that a long session does not win by its size) lifted hits@5 on
   * the real-transcripts set by up to 0.06 but cost LoCoMo frac@10 0.003–0.007 (BENCHMARKS.md).
   */
  sourceTop: number;
  /**
   * Exponent of the query-coverage factor: each lexical candidate's BM25 is multiplied by
   * coverage^q, the idf-weighted share of the query's words it contains. Default 0 (off): at 1
   * it lifted hits@5 on real transcripts but cost LoCoMo frac@10 0.003 (BENCHMARKS.md).
   */
  coverage: number;
  /**
   * One hit per exchange: 1 keeps only the best-ranked part of each exchange (drawers sharing
   * `metadata.exchangeId` in one source), so the top k shows k different exchanges; 0 returns
   * every part. Default 1.
   */
  collapse: number;
  /**
   * With `collapse`, how much of the other parts' fused scores an exchange's best part gains
   * (0–1). Default 0.
   */
  collapseShare: number;
  /**
   * With `collapse`, 1 also collapses copies: drawers opening with the same text (a prompt sent
   * again in another session, a subagent's echo of its parent's request, a compaction summary
   * copied into a new session) keep only their best-ranked instance. Default 1.
   */
  collapseCopies: number;
  /**
   * BM25 candidates considered (and aggregated per source). Default 100, at least 10 × limit:
   * 100 and 200 gave identical LoCoMo results, and fewer candidates cost less to hydrate.
   */
  candidates: number;
  /**
   * Weight of the query-expansion pass (`search/feedback`): words chosen from the candidates' own
   * text are searched in a second BM25 pass, whose score (normalised, × the best BM25) is added to
   * each drawer's BM25 × this weight. Default 0 (off): on the real-transcripts set 0.25–0.35 lifted
   * hits@1 on one half only, and it cost LoCoMo ndcg@10 0.01–0.02 (BENCHMARKS.md).
   */
  feedback: number;
  /**
   * Expansion words: 0 from the top `feedbackDocs` candidates by BM25, 2 the same by BM25 plus
   * source evidence (pseudo-relevance feedback); 1 words associated with the query words. Default 2.
   */
  feedbackMode: number;
  /** Expansion: feedback drawers. Default 3. */
  feedbackDocs: number;
  /** Expansion: words searched in the second pass. Default 10. */
  feedbackTerms: number;
  /** Expansion: only when the best candidate covers less than this share of the query (2: always). */
  feedbackGate: number;
}

/** Default fusion parameters (see each field for the reason of its value). */
const HYBRID_DEFAULTS: Readonly<HybridParams> = {
  bm25: 0.7,
  source: 0.35,
  time: 0.5,
  timeTauDays: 10,
  vector: 0.3,
  vectorMinScore: 0.3,
  room: 0.1,
  entity: 0,
  neighbour: 0,
  toolWeight: 0.5,
  exchange: 0.15,
  why: 0.1,
  sourceTop: 0,
  coverage: 0,
  collapse: 1,
  collapseShare: 0,
  collapseCopies: 1,
  candidates: 100,
  feedback: 0,
  feedbackMode: 2,
  feedbackDocs: 3,
  feedbackTerms: 10,
  feedbackGate: 2,
};

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
  const t0 = performance.now();
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
  return { query, tokens, hits, signals, ...(fallback ? { fallback } : {}), tookMs: performance.now() - t0 };
}
