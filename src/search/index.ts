/**
 * @module search
 * The search path: BM25 over the whole corpus, fused with other signals when available.
 */
import type { DuplicateCheck, DuplicateOptions, DuplicateSource } from './duplicates.js';

export { filterOf, toHit, attachContext } from './search.js';
export { searchHybrid } from './hybrid.js';
export type { HybridParams, VectorSearcher } from './hybrid-params.js';
export { parseTimeCues, stripTimeCues, timeProximity } from './time-cues.js';
export { matchSpans, highlight, snippetLines, excerptChars } from './highlight.js';
export type { SearchOptions, SearchHit, SearchResult, SignalTrace, HitExplanation } from './types.js';
export type { DuplicateCheck, DuplicateOptions, DuplicateSource } from './duplicates.js';

/**
 * Exact copies (same text) and near copies (word-set similarity ≥ `threshold`, default 0.9, among
 * the 5 closest lexical hits) of `content` already stored, optionally in one wing. Loads on the
 * first call (`duplicates.ts`).
 */
export async function checkDuplicate(
  src: DuplicateSource,
  content: string,
  opts?: DuplicateOptions,
): Promise<DuplicateCheck> {
  return (await import('./duplicates.js')).checkDuplicate(src, content, opts);
}
