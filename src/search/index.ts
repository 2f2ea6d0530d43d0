/**
 * @module search
 * The search path: BM25 over the whole corpus, fused with other signals when available.
 */
export { filterOf, toHit, attachContext } from './search.js';
export { searchHybrid, HYBRID_DEFAULTS, type HybridParams, type VectorSearcher } from './hybrid.js';
export { parseTimeCues, stripTimeCues, timeProximity, type TimeCue } from './time-cues.js';
export { matchSpans, highlight, snippetLines, excerptChars, type MatchSpan, type Excerpt } from './highlight.js';
export type { SearchOptions, SearchHit, SearchResult, SignalTrace, HitExplanation } from './types.js';
