/**
 * @module bench/metrics
 * Retrieval metrics of the benchmark protocol (session level): any@k, frac@k, all@k, ndcg@k.
 */

/** Metric names reported by the benches. */
export const METRIC_KEYS = ['any@5', 'any@10', 'frac@5', 'frac@10', 'all@5', 'all@10', 'ndcg@10'] as const;
type MetricKey = (typeof METRIC_KEYS)[number];
export type Metrics = Record<MetricKey, number>;

/** Metrics of one ranked list against the gold set (binary relevance). */
export function scoreRanking(ranked: readonly (string | number)[], gold: readonly (string | number)[]): Metrics {
  const G = new Set(gold);
  const out = {} as Metrics;
  for (const k of [5, 10] as const) {
    const hits = ranked.slice(0, k).filter((s) => G.has(s)).length;
    out[`any@${k}`] = hits > 0 ? 1 : 0;
    out[`frac@${k}`] = G.size ? hits / G.size : 0;
    out[`all@${k}`] = hits === G.size ? 1 : 0;
  }
  let dcg = 0;
  ranked.slice(0, 10).forEach((s, i) => {
    if (G.has(s)) dcg += 1 / Math.log2(i + 2);
  });
  let idcg = 0;
  for (let i = 0; i < Math.min(G.size, 10); i++) idcg += 1 / Math.log2(i + 2);
  out['ndcg@10'] = idcg ? dcg / idcg : 0;
  return out;
}

/** Unweighted mean of metric rows (0s when empty). */
export function meanMetrics(rows: readonly Metrics[]): Metrics {
  const out = Object.fromEntries(METRIC_KEYS.map((k) => [k, 0])) as Metrics;
  if (rows.length === 0) return out;
  for (const r of rows) for (const k of METRIC_KEYS) out[k] += r[k] / rows.length;
  for (const k of METRIC_KEYS) out[k] = Math.round(out[k] * 10_000) / 10_000;
  return out;
}

/** De-duplicates a list keeping first occurrences, then appends the missing `all` in order. */
export function completeRanking<T>(ranked: readonly T[], all: readonly T[]): T[] {
  const seen = new Set<T>();
  const out: T[] = [];
  for (const x of [...ranked, ...all]) {
    if (!seen.has(x)) {
      seen.add(x);
      out.push(x);
    }
  }
  return out;
}
