/**
 * @module search/feedback
 * Query expansion from the palace's own text, computed at query time from the lexical candidates
 * (no table, no model): words that the best-matching drawers share but the other candidates do
 * not are searched in a second lexical pass, and its BM25 is added at a small weight.
 *
 * Two ways of choosing the words:
 * - **pseudo-relevance feedback** ({@link feedbackTerms}, RM3-style): words frequent in the prose
 *   of the top few candidates, weighted by how rare they are among all candidates;
 * - **associations** ({@link associatedTerms}): per query word, the words whose positive pointwise
 *   mutual information with it (co-occurrence in the same candidate drawer) is highest, summed
 *   over the query words weighted by their rarity.
 */
import type { DrawerFilter, LexicalHit, MemoryStore } from '../store/ports.js';
import { STOPWORDS, tokenize } from '../text/index.js';
import { splitProse } from './prose.js';

/** Stop-words as the tokenizer emits them (stemmed), so stemmed tokens can be checked. */
let stemmedStops: ReadonlySet<string> | undefined;
const stops = (): ReadonlySet<string> => (stemmedStops ??= new Set([...STOPWORDS].flatMap((w) => tokenize(w))));

/** A word worth expanding with: not a stop-word, 3+ characters, not a number or a hex-like id. */
function usable(t: string, query: ReadonlySet<string>): boolean {
  return t.length >= 3 && t.length <= 24 && !query.has(t) && !/\d/.test(t) && !stops().has(t);
}

/** Term counts of a drawer's prose (tool lines left out). */
export function proseCounts(text: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of tokenize(splitProse(text).prose)) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

/** How many of `docs` contain each word. */
function docFreq(docs: readonly ReadonlyMap<string, number>[]): Map<string, number> {
  const df = new Map<string, number>();
  for (const d of docs) for (const t of d.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  return df;
}

const top = (scores: Map<string, number>, n: number): string[] =>
  [...scores]
    .filter(([, s]) => s > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, n)
    .map(([t]) => t);

/**
 * RM3-style feedback words: Σ over the `feedback` drawers of tf/|d| × log(1 + N / (1 + df)), df
 * counted over `all` candidates (N of them), words found in at least `minDocs` feedback drawers.
 * The query's own words are never returned.
 */
export function feedbackTerms(
  feedback: readonly ReadonlyMap<string, number>[],
  all: readonly ReadonlyMap<string, number>[],
  query: ReadonlySet<string>,
  n: number,
  minDocs = 1,
): string[] {
  const df = docFreq(all);
  const inFeedback = docFreq(feedback);
  const N = Math.max(1, all.length);
  const scores = new Map<string, number>();
  for (const d of feedback) {
    let len = 0;
    for (const v of d.values()) len += v;
    for (const [t, tf] of d) {
      if (!usable(t, query) || (inFeedback.get(t) ?? 0) < minDocs) continue;
      const idf = Math.log(1 + N / (1 + (df.get(t) ?? 0)));
      scores.set(t, (scores.get(t) ?? 0) + (tf / Math.max(1, len)) * idf);
    }
  }
  return top(scores, n);
}

/**
 * Words associated with the query in the candidates: for each query word q found in 1 ≤ df(q) < N
 * candidates, PPMI(q, t) = max(0, log(P(q, t) / (P(q) P(t)))) over candidate drawers (a word must
 * co-occur with q in at least `minCo` drawers), weighted by the idf of q; summed over q.
 */
export function associatedTerms(
  docs: readonly ReadonlyMap<string, number>[],
  queryWords: readonly string[],
  n: number,
  minCo = 2,
): string[] {
  const query = new Set(queryWords);
  const N = docs.length;
  const df = docFreq(docs);
  const scores = new Map<string, number>();
  for (const q of query) {
    const dq = df.get(q) ?? 0;
    if (dq === 0 || dq >= N) continue;
    const idf = Math.log(1 + N / dq);
    const co = docFreq(docs.filter((d) => d.has(q)));
    for (const [t, c] of co) {
      if (c < minCo || !usable(t, query)) continue;
      const pmi = Math.log((c * N) / (dq * df.get(t)!));
      if (pmi > 0) scores.set(t, (scores.get(t) ?? 0) + idf * pmi);
    }
  }
  return top(scores, n);
}

/** A lexical candidate as the expansion pass sees it. */
interface FeedbackCandidate {
  id: string;
  /** Its (tool-discounted) BM25. */
  bm25: number;
  /** Its source (session or file), for the source-aware order of mode 2. */
  hit?: { source: string | null };
}

/** Options of {@link expansionWords} and {@link feedbackPass}. */
interface FeedbackOptions {
  /** 0: feedback from the top `docs` candidates by BM25; 2: by BM25 plus source evidence; 1: associations. */
  mode: number;
  /** Feedback drawers (modes 0 and 2). */
  docs: number;
  /** Expansion words searched. */
  terms: number;
  /** Only expand when the best loaded candidate covers less than this share of the query (≥ 1: always). */
  gate?: number;
}

/**
 * Candidates best first for feedback: by BM25, or (mode 2) by 0.7 × BM25 + 0.35 × the summed BM25
 * of the source, both normalised — the product's fused order without its other signals.
 */
function feedbackOrder(cands: readonly FeedbackCandidate[], mode: number): FeedbackCandidate[] {
  const ranked = cands.filter((c) => c.bm25 > 0).sort((a, b) => b.bm25 - a.bm25);
  if (mode !== 2) return ranked;
  const src = new Map<string, number>();
  for (const c of ranked) {
    const s = c.hit?.source;
    if (s != null) src.set(s, (src.get(s) ?? 0) + c.bm25);
  }
  const mb = Math.max(1e-12, ranked[0]?.bm25 ?? 0);
  const ms = Math.max(1e-12, ...src.values());
  const f = (c: FeedbackCandidate) => 0.7 * (c.bm25 / mb) + 0.35 * ((src.get(c.hit?.source ?? '') ?? c.bm25) / ms);
  return ranked.sort((a, b) => f(b) - f(a));
}

/**
 * The expansion words for a query, chosen from the loaded candidate texts (`texts`, by id):
 * `cands` are the lexical candidates (only the loaded ones are read). Empty when fewer than three
 * are loaded.
 */
export function expansionWords(
  cands: readonly FeedbackCandidate[],
  texts: ReadonlyMap<string, { text: string }>,
  queryWords: readonly string[],
  o: FeedbackOptions,
): string[] {
  const loaded = feedbackOrder(cands, o.mode).filter((c) => texts.has(c.id));
  if (loaded.length < 3) return [];
  const counts = loaded.map((c) => proseCounts(texts.get(c.id)!.text));
  return o.mode === 1
    ? associatedTerms(counts, queryWords, o.terms)
    : feedbackTerms(counts.slice(0, o.docs), counts, new Set(queryWords), o.terms);
}

/**
 * The second lexical pass: the drawers matching the expansion words, each with its BM25 over them
 * normalised by the best (`norm`, 0–1). Empty when the gate holds or no word was chosen.
 */
export async function feedbackPass(
  store: Pick<MemoryStore, 'searchLexical'>,
  cands: readonly FeedbackCandidate[],
  texts: ReadonlyMap<string, { text: string }>,
  queryWords: readonly string[],
  filter: DrawerFilter | undefined,
  k: number,
  o: FeedbackOptions,
): Promise<{ hit: LexicalHit; norm: number }[]> {
  const gate = o.gate ?? 2;
  if (
    gate < 1 &&
    bestCoverage(
      [...texts.values()].map((d) => d.text),
      queryWords,
    ) >= gate
  )
    return [];
  const words = expansionWords(cands, texts, queryWords, o);
  if (!words.length) return [];
  const hits = await store.searchLexical(words, filter, k);
  const mx = Math.max(1e-12, ...hits.map((h) => h.score));
  return hits.map((hit) => ({ hit, norm: hit.score / mx }));
}

/**
 * How well the best of `texts` covers the query: the largest idf-weighted share of `queryWords`
 * one text contains (idf from the texts themselves). Low when no drawer uses the asker's words,
 * the case query expansion is for.
 */
export function bestCoverage(texts: readonly string[], queryWords: readonly string[]): number {
  if (!texts.length || !queryWords.length) return 1;
  const sets = texts.map((t) => new Set(tokenize(t)));
  const w = queryWords.map((q) => Math.log(1 + sets.length / (1 + sets.filter((s) => s.has(q)).length)));
  const all = w.reduce((a, b) => a + b, 0);
  let best = 0;
  for (const s of sets) {
    let c = 0;
    queryWords.forEach((q, i) => {
      if (s.has(q)) c += w[i]!;
    });
    best = Math.max(best, all > 0 ? c / all : 1);
  }
  return best;
}
