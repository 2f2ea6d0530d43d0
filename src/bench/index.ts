/**
 * @module bench
 * Retrieval benchmarks run through the product path (`loci bench …`).
 */
export { runLocomoBench, type LocomoBenchOptions, type LocomoReport, type LocomoScores } from './locomo.js';
export { loadLocomo, parseLocomoDate, renderSession, type LocomoConversation } from './locomo-data.js';
export { scoreRanking, meanMetrics, completeRanking, METRIC_KEYS, type Metrics, type MetricKey } from './metrics.js';
export { runLongMemEvalBench, type LongMemEvalOptions, type LongMemEvalReport } from './longmemeval.js';
export {
  runTranscriptsBench,
  loadTranscriptQuestions,
  foldText,
  type TranscriptsBenchOptions,
  type TranscriptsReport,
  type TranscriptsGroup,
  type TranscriptQuestion,
  type TranscriptsQuestionResult,
  type HitScores,
} from './transcripts.js';
