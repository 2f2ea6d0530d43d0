/**
 * @module bench
 * Retrieval benchmarks run through the product path (`loci bench …`).
 */
export { runLocomoBench, type LocomoBenchOptions, type LocomoReport } from './locomo.js';
export { loadLocomo, parseLocomoDate, renderSession, type LocomoConversation } from './locomo-data.js';
export { scoreRanking, meanMetrics, completeRanking, METRIC_KEYS, type Metrics } from './metrics.js';
export { runLongMemEvalBench, type LongMemEvalOptions, type LongMemEvalReport } from './longmemeval.js';
export {
  runTranscriptsBench,
  loadTranscriptQuestions,
  foldText,
  type TranscriptsBenchOptions,
  type TranscriptsReport,
  type TranscriptsGroup,
  type TranscriptQuestion,
  type HitScores,
} from './transcripts.js';
