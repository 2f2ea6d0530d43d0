/**
 * @module recall
 * Recall: bringing the right memory files (and palace drawers) to an agent at the right moment,
 * with or without an LLM, within budgets, escaped inside one `<system-reminder>`. The only door of
 * `src/recall/`; see ARCHITECTURE.md beside it.
 */
export {
  RECALL_LIMITS,
  type RecallBudgets,
  type RecallSelector,
  type Selection,
  type SelectMemoriesOptions,
  type RecalledMemory,
  type RecallResult,
  type RecallOptions,
  type RecallSessionState,
} from './types.js';
export { selectRelevantMemories } from './select.js';
export { parseSelectionAnswer, resolveNames } from './select-llm.js';
export { searchMemoryFiles, RELATIVE_THRESHOLD } from './select-search.js';
export { buildRecall, resolveBudgets } from './build.js';
export {
  buildPromptContext,
  recallWings,
  type PromptContextOptions,
  type PromptContext,
  type RecalledDrawer,
  type PalaceSearcher,
  type TunnelSource,
} from './prompt-context.js';
export { startRecallPrefetch, prefetchGate } from './prefetch.js';
export { loadRecallSession, recordSurfaced, pruneRecallSessions, sessionPath, sessionBytesLeft } from './session.js';
export {
  escapeReminderContent,
  escapeAttr,
  wrapSystemReminder,
  normalizeControls,
  hasTagStart,
  REMINDER_OPEN,
  REMINDER_CLOSE,
  SAFE_LT,
} from './escape.js';
export { freshnessWarning, ageDays, cutAtLine } from './render.js';
