/**
 * @module search/hybrid-params
 * The fusion weights and limits of hybrid search (`HybridParams`), their defaults with the reason
 * for each value, and the vector searcher it can use. The measurements behind the values are in
 * BENCHMARKS.md (`loci bench locomo`, `loci bench transcripts`).
 */
import type { DrawerFilter } from '../store/ports.js';

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
export const HYBRID_DEFAULTS: Readonly<HybridParams> = {
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
