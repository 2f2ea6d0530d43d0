/**
 * @module context
 * Context management for agent builders (`loci/context`): token estimates per model family
 * corrected by reported usage, budgets, compaction (manual, automatic, incremental) with an
 * archive port, large tool results kept on disk, the session's system and user context, and a
 * system prompt split at a cache boundary. Independent of any front end; the message model is the
 * providers' (`AgentMessage`, `ContentBlock`, `TokenUsage`, `SystemPart`). The only door of
 * `src/context/`.
 */
export { createContextManager } from './manager.js';
export type {
  ContextManager,
  ContextManagerOptions,
  ContextBreakdown,
  ContextSection,
  SectionTokens,
  PreparedRequest,
  ToolOutput,
  Bookkeeping,
} from './manager-types.js';
export {
  createTokenCounter,
  estimateTextTokens,
  estimateMessageTokens,
  modelFamily,
  DEFAULT_CONTEXT_WINDOW,
  type ModelFamily,
  type TokenCounter,
  type TokenCounterOptions,
  type PromptUsage,
} from './tokens.js';
export {
  createTokenBudget,
  type TokenBudget,
  type TokenBudgetOptions,
  type ContextCheck,
  type ContinuationDecision,
  type CompletionRecord,
  type StopReason,
} from './budget.js';
export type { Archiver, ArchiveBatch, ArchivedMessage, CompactionRecord } from './compaction.js';
export {
  llmSummariser,
  extractiveSummariser,
  COMPACTION_PROMPT,
  type Summariser,
  type SummaryRequest,
  type SummaryResult,
  type LlmSummariserOptions,
} from './summarise.js';
export {
  createToolResultStore,
  DEFAULT_MAX_RESULT_SIZE_CHARS,
  type ToolResultStore,
  type ToolResultStoreOptions,
  type LedgerEntry,
  type LedgerTotals,
} from './tool-results.js';
export {
  captureSystemContext,
  loadUserContext,
  MEMORY_DRIFT_RULES,
  type SystemContext,
  type SystemContextOptions,
  type UserContext,
  type UserContextOptions,
} from './session-context.js';
export {
  buildStaticPrompt,
  buildDynamicPrompt,
  systemPrompt,
  SYSTEM_PROMPT_DYNAMIC_BOUNDARY,
  type SystemPrompt,
  type StaticPromptInput,
  type DynamicPromptInput,
} from './system-prompt.js';
export { palaceArchiver, type PalaceArchiverOptions } from './palace-archive.js';
// The message model is the providers' (one model for context, agent loop and providers), re-exported for builders.
export type {
  AgentMessage,
  ContentBlock,
  TextBlock,
  ToolUseBlock,
  ToolResultBlock,
  ToolSpec,
  TokenUsage,
  SystemPart,
} from '../providers/index.js';
