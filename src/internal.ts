/**
 * @module internal
 * The internal entry: what the front ends (`cli`, `mcp`, `hooks`), the benches and the tests use of
 * the library besides the capability doors. **Unstable**: not published (not in package.json
 * `exports`), it changes with any release. Library users import the root entry (`src/index.ts`,
 * package `loci`). Exports are listed by name (no `export *`); each capability has a marked block.
 */

// ── core ──────────────────────────────────────────────────────────────────────
export {
  LociError,
  createError,
  isLociError,
  fsError,
  ERRORS,
  oneLine,
  shortValue,
  displayDetails,
  ECHO_MAX_CHARS,
  type ErrorCode,
  type ErrorCategory,
  type ErrorDetails,
} from './core/errors.js';
export { isStrictDate, STRICT_DATE_EXPECTED } from './core/dates.js';
export { resolveHome, homePaths, readSettings, processEnv, type Env, type LociSettings } from './core/env.js';
export { writeFileAtomic } from './core/fs-safe.js';
export { readJsonObjectFile, isJsonObject } from './core/json-file.js';
export { lociLaunch, lociBin, type LociLaunch } from './core/launcher.js';
export { sha256, stableId } from './core/hash.js';
export { systemClock, fixedClock, isoAt, type Clock } from './core/clock.js';
export { silentLogger, stderrLogger, fileLogger, type Logger, type LogLevel } from './core/logger.js';

// ── text ──────────────────────────────────────────────────────────────────────
export { tokenize, searchColumn, queryTokens } from './text/index.js';

// ── store ─────────────────────────────────────────────────────────────────────
export type {
  MemoryStore,
  Drawer,
  DrawerInput,
  DrawerPatch,
  DrawerFilter,
  ListOptions,
  LexicalHit,
  SourceState,
  StoreStats,
  StoreCapabilities,
  UsageRecord,
} from './store/ports.js';

// ── palace (open, mine, search) ───────────────────────────────────────────────
export { DIARY_WING, checkName, type DiaryEntryInput } from './palace/index.js';
export { openPalace, type OpenPalaceOptions, type Palace, type PalaceStatus } from './palace/index.js';
export {
  createPalace,
  PALACE_CONFIG_DEFAULTS,
  type PalaceConfig,
  type PalaceDeps,
  type LazyPort,
} from './palace/index.js';
export { defaultWing, wingName } from './core/project-identity.js';
export { findGitRoot } from './core/git.js';
export type { MineProjectOptions, MineProgress, MineSummary, SkipReason, SkippedFile } from './ingest/index.js';
export {
  matchSpans,
  highlight,
  snippetLines,
  excerptChars,
  checkDuplicate,
  type DuplicateCheck,
  type DuplicateOptions,
  type SearchOptions,
  type SearchHit,
  type SearchResult,
  type SignalTrace,
  type HitExplanation,
} from './search/index.js';
// The SQLite adapter is opened by `openPalace`; its driver handle is not part of the public API.
export {
  createMemoryStore,
  createMemoryGraphTables,
  createMemoryTunnelStore,
  createMemoryVectorStore,
  dropPostgresPalace,
  type GraphTables,
  type VectorStore,
} from './store/index.js';
export { searchHybrid, parseTimeCues, type HybridParams, type VectorSearcher } from './search/index.js';
export { METRIC_KEYS, scoreRanking, meanMetrics, type Metrics } from './bench/metrics.js';
export type { LocomoBenchOptions, LocomoReport, LongMemEvalOptions, LongMemEvalReport } from './bench/index.js';
export type {
  TranscriptsBenchOptions,
  TranscriptsReport,
  TranscriptsGroup,
  TranscriptQuestion,
  HitScores,
} from './bench/index.js';

// ── conversations (issue 4) ───────────────────────────────────────────────────
export { mineProject, mineAuto, runLocomoBench, runLongMemEvalBench, runTranscriptsBench } from './lazy.js';
export { claudeConfigDir } from './ingest/convos-miner/claude-dirs.js';
export { wingForCwd } from './core/project-identity.js';
export { CONVO_MINER_VERSION, SLOT_STRIDE } from './ingest/convos-miner/types.js';
export type {
  MineConvosOptions,
  MineConvosSummary,
  MineClaudeOptions,
  MineAutoOptions,
  ConvoFormat,
  Conversation,
  ConvoMessage,
  ExchangeChunk,
} from './ingest/index.js';
export type { MineOptions } from './palace/index.js';

// ── memory files and recall (issue 5) ─────────────────────────────────────────
export {
  MEMORY_TYPES,
  MEMORY_LIMITS,
  INDEX_FILE,
  isMemoryType,
  isPrivacy,
  type MemoryType,
  type Privacy,
  type MemoryEntry,
  type Memory,
  slugify,
  topicFileName,
  parseTopicFile,
  renderNewTopicFile,
  applyTopicPatch,
  type TopicPatch,
  resolveClaudeMemoryDir,
  sanitizeProjectPath,
  lociProjectId,
  selectMemoryDir,
  normalizeRemoteUrl,
  type ResolveOptions,
  type SelectOptions,
  type ClaudeMemoryLocation,
  type MemoryDirChoice,
  listMemories,
  loadMemories,
  readMemoryFile,
  invalidMemoryFiles,
  type ListMemoriesOptions,
  type InvalidMemoryFile,
  rebuildIndex,
  loadMemoryIndex,
  truncateIndex,
  renderIndexLine,
  type IndexStats,
  type IndexLimits,
  defaultPrivacy,
  checkPrivacy,
  effectivePrivacy,
  exportMemories,
  addMemory,
  editMemory,
  forgetMemory,
  findMemory,
  getMemory,
  parseMemoryType,
  type AddMemoryInput,
  type EditMemoryInput,
  type WriteOptions as MemoryWriteOptions,
  type WriteResult as MemoryWriteResult,
  memorySystemPrompt,
  loadClaudeMdChain,
  managedClaudeMdPath,
} from './memdir/index.js';
export {
  RECALL_LIMITS,
  selectRelevantMemories,
  buildRecall,
  buildPromptContext,
  recallWings,
  startRecallPrefetch,
  prefetchGate,
  loadRecallSession,
  recordSurfaced,
  pruneRecallSessions,
  sessionPath,
  sessionBytesLeft,
  escapeReminderContent,
  wrapSystemReminder,
  freshnessWarning,
  parseSelectionAnswer,
  REMINDER_OPEN,
  REMINDER_CLOSE,
  type RecallBudgets,
  type RecallSelector,
  type Selection as RecallSelection,
  type SelectMemoriesOptions,
  type RecalledMemory,
  type RecallResult,
  type RecallOptions,
  type RecallSessionState,
  type PromptContextOptions,
  type PromptContext,
  type RecalledDrawer,
  type PalaceSearcher,
  type TunnelSource,
} from './recall/index.js';

// ── memory extraction and session notes ──────────────────────────────────────
export {
  extractForProject,
  updateSessionNotes,
  archiveSessionNotes,
  readSessionNotes,
  claudeSessionSummary,
  explicitCandidates,
  derivableReason,
  sessionFiles,
  readSession,
  findSessionTranscript,
  latestSessionTranscript,
  type ExtractResult,
  type Proposal,
  type Skipped,
  type SessionNotesResult,
} from './extract/index.js';

// ── providers and embedders ───────────────────────────────────────────────────
export {
  createLlmProvider,
  providerFromEnv,
  type LlmProvider,
  type ProviderConfig,
  type ChatMessage,
  type CompleteRequest,
  type CompleteResult,
} from './providers/index.js';
export {
  createEmbedder,
  parseEmbedderSpec,
  embedderConfigFromEnv,
  type Embedder,
  type EmbedderConfig,
  type EmbedOptions,
} from './embed/index.js';

// ── knowledge graph (issue 6) ─────────────────────────────────────────────────
export type { PalaceGraph } from './palace/index.js';
// Graph storage and extraction live on the `loci/kg` subpath; here only the types (no load cost).
export type {
  GraphStore,
  Fact,
  FactInput,
  Entity,
  EntityInput,
  GraphBatch,
  GraphStats,
  Page,
  ExtractionInput,
  Tunnel,
  TunnelInput,
  TunnelStore,
  TraversalStep,
  RoomRef,
  ImplicitLink,
  LlmExtractor,
} from './kg/index.js';

// ── wake-up, importance and usage (issue 7; capability since issue 12) ──────────
export {
  wakeUp,
  planWakeUp,
  wakeUpResult,
  cacheWakeUpPlan,
  storeCompactSummary,
  recordUsage,
  readUsage,
  topUsage,
  usageKey,
  foldUsageJournal,
  importance,
  recencyFactor,
  useFactor,
  estimateTokens,
  ageLabel,
  type WakeUpOptions,
  type WakeUpResult,
  type WakeUpItem,
  type WakeUpPlan,
  type CompactSummary,
  type Importance,
  type UsageItem,
} from './wakeup/index.js';
