/**
 * @module recall/types
 * Vocabulary of recall: the budgets, the selection result, the recalled memory as reported to
 * callers (`loci recall --json`, hooks) and the options shared by the recall entry points.
 */
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { MemoryType } from '../memdir/index.js';
import type { LlmProvider } from '../providers/index.js';

/** Budgets and defaults of recall. Byte counts are UTF-8 bytes of the injected text. */
export const RECALL_LIMITS = {
  /** Most bytes one memory's block (header, content, truncation note) may take. */
  fileBytes: 4 * 1024,
  /** Most bytes of one injection (the whole `<system-reminder>` text). */
  turnBytes: 20 * 1024,
  /** Most bytes injected over one session (sum of every recorded injection). */
  sessionBytes: 60 * 1024,
  /** Most memory files selected per turn (Claude Code's selector returns up to five). */
  maxFiles: 5,
  /** Time allowed to the LLM selector before falling back to search, in ms. */
  timeoutMs: 8_000,
  /** A block is not started when fewer bytes than this remain (it would be a header and a note). */
  minBlockBytes: 384,
  /** Memories older than this many days get a freshness warning (Claude Code: older than one day). */
  freshDays: 1,
  /** Session state files untouched for this many days are pruned (and ignored when read). */
  sessionTtlDays: 7,
  /** Hook output limit (`additionalContext`), in characters. */
  hookChars: 10_000,
  /**
   * Most characters of one palace drawer in a prompt context: longer drawers give a verbatim excerpt around the
   * prompt's words.
   */
  drawerChars: 800,
  /** Palace drawers searched per prompt. */
  drawerHits: 5,
} as const;

/** The byte budgets, overridable per call (tests, hosts with other limits). */
export interface RecallBudgets {
  /** Per memory block. Default 4,096; 256 … 1,048,576. */
  fileBytes: number;
  /** Per injection. Default 20,480; 256 … 10,485,760. */
  turnBytes: number;
  /** Per session. Default 61,440; 0 … 104,857,600. */
  sessionBytes: number;
}

/** Who chose the memories: the LLM side query, or Loci's hybrid search over the memory files. */
export type RecallSelector = 'llm' | 'search';

/** What {@link selectRelevantMemories} returns. Never thrown: failures become a `reason`. */
export interface Selection {
  /** Selected files, relative to the memory directory (`feedback_testing.md`, `team/x.md`), best first. */
  files: string[];
  /** Who selected them. */
  selector: RecallSelector;
  /**
   * Why the result is what it is when it is not a plain success: the LLM failed and search took
   * over (`"llm failed: … — used search"`), nothing matched, no memory files, aborted, …
   */
  reason?: string;
}

/** Options of {@link selectRelevantMemories}. */
export interface SelectMemoriesOptions {
  /** The memory directory (`MEMORY.md` plus topic files). */
  dir: string;
  /**
   * The side model. Default: none, so hybrid search selects. With one, a side query chooses; on
   * failure, timeout or an unreadable answer search takes over.
   */
  provider?: LlmProvider | undefined;
  /** Files already injected in this session (relative paths); never selected again. Default none. */
  alreadySurfaced?: ReadonlySet<string> | undefined;
  /** Cancels selection (the LLM call included); an aborted selection returns no files. */
  signal?: AbortSignal | undefined;
  /** Time allowed to the LLM, in ms. Default 8,000; 1 … 600,000. */
  timeoutMs?: number | undefined;
  /** Most files returned. Default 5; 1 … 20. */
  max?: number | undefined;
  /** Diagnostics (LLM failures, fallbacks). Default silent. */
  logger?: Logger | undefined;
}

/** One memory as injected. Field names follow `loci recall --json`. */
export interface RecalledMemory {
  /** Path relative to the memory directory. */
  file: string;
  /** Absolute path (the truncation note points here). */
  path: string;
  /** The memory type, or null for an untyped file. */
  type: MemoryType | null;
  /** `name` from frontmatter, else the file stem. */
  name: string;
  /** One-line description ('' when absent). */
  description: string;
  /** ISO-8601 modification time (frontmatter `modified`, else mtime). */
  modified: string;
  /** Whole days since `modified` (0 for today or a future date). */
  age_days: number;
  /** UTF-8 bytes this memory's block adds to the injection. */
  bytes: number;
  /** The body was cut to fit a budget (a note in the text points at the file). */
  truncated: boolean;
}

/** What {@link buildRecall} returns. */
export interface RecallResult {
  /** Memories injected, in order. */
  memories: RecalledMemory[];
  /** The exact text to inject: one `<system-reminder>` block, or '' when nothing is injected. */
  text: string;
  /** Who selected the memories. */
  selector: RecallSelector;
  /** UTF-8 bytes of `text` (what counts against the turn and session budgets). */
  bytes: number;
  /** Selected files left out because a budget ran out. */
  omitted: string[];
  /** Why fewer memories than selected were injected, or why selection fell back (see {@link Selection.reason}). */
  reason?: string;
}

/** Options shared by {@link buildRecall} and the prompt context. */
export interface RecallOptions extends Omit<SelectMemoriesOptions, 'alreadySurfaced'> {
  /**
   * The session's state (see `loadRecallSession`): its surfaced files are skipped and its byte
   * total counts against `budgets.sessionBytes`. Default: a fresh, unrecorded session.
   */
  session?: RecallSessionState | undefined;
  /** Byte budgets. Default {@link RECALL_LIMITS}. */
  budgets?: Partial<RecallBudgets> | undefined;
  /** Time source for ages. Default the system clock. */
  clock?: Clock | undefined;
}

/** Per-session recall state, persisted in `<LOCI_HOME>/sessions/<id>.json`. */
export interface RecallSessionState {
  /** The session id as given (Claude Code's `session_id`). */
  id: string;
  /** Memory files already injected (relative paths). */
  surfaced: Set<string>;
  /** Palace drawer ids already injected. */
  drawers: Set<string>;
  /** UTF-8 bytes injected so far. */
  bytes: number;
  /** Injections recorded so far. */
  turns: number;
  /** ISO-8601 creation time. */
  createdAt: string;
  /** ISO-8601 time of the last record. */
  updatedAt: string;
}
