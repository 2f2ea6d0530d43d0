/**
 * @module context/manager-types
 * The shapes of the context manager (`createContextManager`): its options, what `breakdown()` and
 * `prepare()` return, tool outputs and the session's bookkeeping.
 */
import type { AgentMessage, ProviderName, SystemPart, TokenUsage, ToolSpec } from '../providers/index.js';
import type { ContextCheck, TokenBudget } from './budget.js';
import type { Archiver, CompactionRecord } from './compaction.js';
import type { SystemContext, UserContext, UserContextOptions } from './session-context.js';
import type { Summariser } from './summarise.js';
import type { StaticPromptInput, SystemPrompt } from './system-prompt.js';
import type { ModelFamily, TokenCounter } from './tokens.js';
import type { ToolResultStore } from './tool-results.js';
/** Sections of the context, as `breakdown()` reports them. */
export type ContextSection =
  'system (static)' | 'system (dynamic)' | 'tools' | 'summary' | 'memories' | 'messages' | 'tool results';

/** Options of {@link createContextManager}. */
export interface ContextManagerOptions {
  /** The model name (picks the token family and the default window). Required. */
  model: string;
  /**
   * The provider protocol: `anthropic` gets system parts with cache breakpoints, others plain text.
   * Default: anthropic for a claude model, else openai.
   */
  provider?: ProviderName;
  /** Token family. Default: {@link modelFamily}(model, provider). */
  family?: ModelFamily;
  /**
   * Context window in tokens. Default per family: claude 200,000, openai 128,000, llama 8,192;
   * 1,000 … 10,000,000.
   */
  contextWindow?: number;
  /** Tokens kept free for the answer. Default min(8,192, 10 % of the window). */
  reserveOutputTokens?: number;
  /** Warning and nudge threshold, as a fraction of the usable window. Default 0.9. */
  warnFraction?: number;
  /** Automatic compaction threshold, as a fraction of the usable window. Default 0.85. */
  compactFraction?: number;
  /** Compact automatically in `prepare()` when the threshold is crossed. Default true. */
  autoCompact?: boolean;
  /** Tokens of recent messages kept verbatim by a compaction. Default 25 % of the usable window. */
  keepRecentTokens?: number;
  /** Size limit asked of a summary, in tokens. Default min(8,000, 10 % of the usable window). */
  summaryMaxTokens?: number;
  /** Per-turn output budget for continuations (see `TokenBudget`). Default none. */
  turnTokens?: number;
  /** The Loci home: large tool results go to `<home>/tool-results/`. Default: none (results stay inline). */
  home?: string;
  /**
   * Results longer than this are persisted (needs `home`). Default: 5 % of the usable window at
   * four characters a token, between 2,000 and 20,000 characters (20,000 for a 200k window, about
   * 5,900 for 32k), so that no single result takes a large share of a small window.
   */
  maxResultSizeChars?: number;
  /** Characters of a persisted result shown to the model. Default 2,000. */
  previewChars?: number;
  /** Writes the summaries. Default {@link extractiveSummariser}; use `llmSummariser(provider)` for a model. */
  summariser?: Summariser;
  /** Stores messages before they leave the context (e.g. `palaceArchiver`). Default: none. */
  archive?: Archiver;
  /**
   * The session's running notes, read at each compaction (e.g. `() => readSessionNotes(home, id)`
   * from the extract capability, or Claude Code's `session-memory/summary.md`): the summariser keeps
   * them as "where we left off". Default: none.
   */
  sessionNotes?: () => string | undefined;
  /**
   * Archive new messages in the background after each `prepare()` (while the model works), so that
   * compactions find them archived already. Background failures are retried by the next archive
   * call; a compaction still refuses to replace what is not archived. Default true.
   */
  archiveEagerly?: boolean;
  /** Session id (archive keys, summary text). Default: a random UUID, renewed by `clear()`. */
  sessionId?: string;
  /** Working directory for the git snapshot and the CLAUDE.md chain. Default: none (no environment section). */
  cwd?: string;
  /** Memory directory for the memory section. Default: none. */
  memoryDir?: string;
  /** Load the CLAUDE.md chain from `cwd`. Default true. */
  claudeMd?: boolean;
  /** Take the git snapshot. Default true. */
  git?: boolean;
  /** The static prompt's pieces. Default: Loci's identity and rules. */
  prompt?: StaticPromptInput;
  /** A system context to use instead of capturing one (tests, hosts that have their own). */
  systemContext?: SystemContext;
  /** Loads the user context instead of {@link loadUserContext} (called at start, after `compact`, after `clear`). */
  userContext?: () => UserContext;
  /** Passed to {@link loadUserContext} (home, managedPath, configDir). */
  userContextOptions?: Omit<UserContextOptions, 'cwd' | 'memoryDir' | 'claudeMd'>;
  /** Tool definitions sent with each request (counted in the breakdown). Default none. */
  tools?: ToolSpec[];
  /** Clock in ms. Default `Date.now`. */
  now?: () => number;
}

/** One row of {@link ContextManager.breakdown}. */
export interface SectionTokens {
  section: ContextSection;
  /** Corrected estimate, in tokens. */
  tokens: number;
}

/** The context by section. */
export interface ContextBreakdown {
  sections: SectionTokens[];
  /** Sum of the sections. */
  total: number;
  /** The usable window. */
  window: number;
  /** `total ÷ window`. */
  fraction: number;
  /** The correction ratio in use (1 before the first reported usage). */
  ratio: number;
  /** Each verbatim message in context: sequence number, role and corrected tokens, oldest first. */
  messages: { seq: number; role: 'user' | 'assistant'; tokens: number }[];
}

/** The fields of a `StreamRequest` that the manager fills. */
export interface PreparedRequest {
  system: string | SystemPart[];
  messages: AgentMessage[];
  tools?: ToolSpec[];
}

/** One tool's output, as the agent loop has it. */
export interface ToolOutput {
  toolUseId: string;
  content: string;
  isError?: boolean;
  toolName?: string;
}

/** Sequence-number accounting, for checks that nothing was lost. */
export interface Bookkeeping {
  /** Messages appended so far (sequence numbers 0 … appended − 1). */
  appended: number;
  /** Sequence numbers of the verbatim messages in context, ascending. */
  live: number[];
  /** Sequence numbers handed to the archive, ascending. */
  archived: number[];
  /** Sequence numbers replaced by summaries (or cleared), ascending. */
  replaced: number[];
}

/** The context of one agent session. */
export interface ContextManager {
  /** The current session id. */
  readonly sessionId: string;
  /** The token estimator (with its correction ratio). */
  readonly counter: TokenCounter;
  /** The session's budget. */
  readonly budget: TokenBudget;
  /** The tool-result store and ledger. */
  readonly toolResults: ToolResultStore;
  /** The live messages, summary first when there is one. */
  messages(): AgentMessage[];
  /**
   * Appends a person's prompt and starts a turn of the budget (`budget.continuation()` then decides
   * whether to go on). `memories` (already wrapped, e.g. in a system reminder) goes first, counted apart.
   */
  appendUser(text: string, options?: { memories?: string }): AgentMessage;
  /** Appends the model's answer (the `message` of a stream's `done` event). */
  appendAssistant(message: AgentMessage): void;
  /** Appends one user turn with tool results, persisting the large ones. Returns the message. */
  appendToolResults(results: readonly ToolOutput[]): AgentMessage;
  /** The system prompt of the session (built on first use; rebuilt after `compact` and `clear`). */
  system(): SystemPrompt;
  /** The request for the next model call (no compaction). Tracks the peak context. */
  request(): PreparedRequest;
  /**
   * Compacts automatically when the threshold is crossed (and `autoCompact`), then returns the
   * request, the context check (with a nudge from 90 %) and the compaction, if one ran. When even
   * the compacted context is over the window (one exchange larger than it), `check.level` is
   * `over` and the caller decides (e.g. clear, or refuse the turn).
   */
  prepare(options?: { signal?: AbortSignal }): Promise<{
    request: PreparedRequest;
    check: ContextCheck;
    compaction?: CompactionRecord;
  }>;
  /** Learns from the provider's usage for the last request (correction ratio, budget totals). */
  recordUsage(usage: TokenUsage): void;
  /** Corrected estimate of the next request's prompt, in tokens. */
  contextTokens(): number;
  /** The context by section (for `/context`). */
  breakdown(): ContextBreakdown;
  /**
   * Compacts now (`/compact [instructions]`): archives, then summarises only what was added since
   * the last compaction into the running summary, keeping recent turns verbatim. Undefined when
   * there is nothing to compact. Throws `CONTEXT_ARCHIVE_FAILED` or `CONTEXT_SUMMARY_FAILED`, in
   * which case nothing changed.
   */
  compact(options?: { instructions?: string; signal?: AbortSignal }): Promise<CompactionRecord | undefined>;
  /** `/clear`: archives what is not archived yet, then starts a new session (new id, new snapshot, new prompt). */
  clear(): Promise<void>;
  /** Archives the live messages not archived yet (e.g. at exit). Returns how many. */
  flushArchive(): Promise<number>;
  /** The compactions of this session. */
  compactions(): readonly CompactionRecord[];
  /** The running summary, if any. */
  summary(): string | undefined;
  /** Sequence-number accounting. */
  bookkeeping(): Bookkeeping;
  /** How many times each part of the system prompt was (re)built: cache invalidations plus one. */
  promptBuilds(): { static: number; dynamic: number };
}
