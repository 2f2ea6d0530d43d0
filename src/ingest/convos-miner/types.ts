/**
 * @module ingest/convos-miner/types
 * Options, per-run context, jobs and persisted cursor states of the conversation miner.
 * Everything here is plain data (structured-cloneable), so jobs run inline or on worker threads.
 */
import type { ClaudeCodeThreadState, ConvoFormat, ExchangeCursor } from '../convos/index.js';
import type { Logger } from '../../core/logger.js';
import type { DrawerInput, SourceState } from '../../store/ports.js';
import type { MineProgress, MineSummary } from '../mine-project.js';

/** Bump when parsing, chunking or the drawer layout of conversations changes: every file is re-mined once. */
export const CONVO_MINER_VERSION = 3;

/**
 * Options of `mineConversations`. There is no `prune`: the archive outlives its transcripts
 * (Claude Code deletes them after 30 days), so drawers of a deleted transcript are kept.
 */
export interface MineConvosOptions {
  /** Wing for every drawer. Default: per conversation, the project it was held in (see convos-miner/identity). */
  wing?: string;
  /** One room for every drawer. Default: per conversation, `roomForConversation`. */
  room?: string;
  /** Redact secrets before storing. Default true (`--no-redact` turns it off). */
  redact?: boolean;
  /** Characters of a tool result kept in its tool line. Default 300; range 0–100000. */
  toolResultChars?: number;
  /** Characters of a tool call's rendered input. Default 200; range 20–100000. */
  toolInputChars?: number;
  /** Longest drawer in characters before an exchange is split. Default 1600; range 200–1000000. */
  maxChars?: number;
  /** Also archive abandoned branches (rewinds, edits) as `~branch-N` conversations. Default true. */
  includeBranches?: boolean;
  /**
   * Accepted for compatibility; no effect. The open last exchange of a transcript is always
   * stored at once and replaced when it grows. Range 0–100000 when given.
   */
  idleMinutes?: number;
  /** Accepted for compatibility; no effect (see `idleMinutes`). */
  flush?: boolean;
  /** Mine exactly these files (absolute paths) instead of walking `path`; `path` stays the root. Default: walk. */
  files?: readonly string[];
  /** Respect `.gitignore` files while walking a folder. Default true. */
  respectGitignore?: boolean;
  /** Extra gitignore-style patterns skipped while walking a folder. Default none. */
  ignore?: readonly string[];
  /** Stored as `addedBy`. Default `loci-mine`. */
  addedBy?: string;
  /**
   * Worker threads that read, parse, chunk and redact while the main thread writes. Default: one
   * per idle core (at most 3) when more than 8 MB must be read, else 0 (inline); see `defaultWorkers`.
   */
  workers?: number;
  /** Time source (stored as `minedAt`), ms since the epoch. Default `Date.now`. */
  now?: () => number;
  /** Called after every file. */
  onProgress?: (p: MineProgress) => void;
  /** Cancels between files (what was committed stays). */
  signal?: AbortSignal;
  logger?: Logger;
}

/**
 * What a conversation mining run did: the project miner's summary plus conversation counts.
 * `wing` is the forced wing, else the wings of the conversations mined this run joined by `, `
 * (the mined folder's wing when nothing was mined).
 */
export interface MineConvosSummary extends MineSummary {
  /** Secrets replaced by `[REDACTED:<kind>]` in what was stored this run. */
  redactions: number;
  /** Conversations that received new drawers this run. */
  conversations: number;
}

/** Settings shared by every job of one run (plain data: sent to worker threads). */
export interface ConvoContext {
  /** The mined root (stored as the source's `root`). */
  root: string;
  /** Forced wing, if any. */
  wing: string | null;
  /** Wing of a source whose conversations gave none (the summary's wing when nothing was mined). */
  fallbackWing: string;
  /** Wing of the git repository holding the mined folder, if any (see identity rule 4). */
  rootProject: string | null;
  /** Forced room, if any. */
  room: string | null;
  redact: boolean;
  toolResultChars: number;
  toolInputChars: number;
  maxChars: number;
  includeBranches: boolean;
  addedBy: string;
  /** Settings fingerprint (see `convoConfig`). */
  config: string;
  /** Run start, ms since the epoch (stored as `minedAt`). */
  now: number;
}

/** How a unit is read. */
export type UnitKind =
  /** Claude Code session or subagent file: thread cursor + exchange cursor, append-only. */
  | 'claude'
  /** Codex / Gemini JSONL and `history.jsonl`: append-only lines, one exchange cursor per conversation. */
  | 'jsonl'
  /** ChatGPT, Claude.ai, Gemini JSON, chat text: read whole, replaced whole. */
  | 'whole'
  /** A Slack channel folder (all its day files), read whole, replaced whole. */
  | 'slack';

/** One thing to mine: a file, or a Slack channel folder. */
export interface ConvoUnit {
  kind: UnitKind;
  format: ConvoFormat;
  /** The source: a file path, or the channel folder. */
  path: string;
  size: number;
  mtimeMs: number;
  /** Slack: the day files (absolute paths), sorted. */
  files?: string[];
}

/** One job for `prepareUnit`: the unit and the state stored for it (if any). */
export interface ConvoJob {
  unit: ConvoUnit;
  prev: SourceState | null;
}

/** Counters reported by a prepared job. */
interface JobCounts {
  bytesRead: number;
  redactions: number;
  conversations: number;
  warnings: string[];
  /** Claude Code: the session the file belongs to, and whether it is the session's main file (not a subagent's). */
  session?: { id: string; main: boolean };
}

/** What `prepareUnit` answers. */
export type PreparedUnit = JobCounts &
  (
    | { kind: 'unchanged'; path: string }
    | { kind: 'skipped'; path: string }
    | { kind: 'append'; path: string; state: SourceState; drawers: DrawerInput[]; remove: string[]; fromOffset: number }
    | { kind: 'replace'; path: string; state: SourceState; drawers: DrawerInput[]; skipIfHash: string }
    | { kind: 'touch'; path: string; state: SourceState }
  );

/** The header facts of a conversation that drawers carry (kept in its cursor; already redacted). */
export interface ConvHead {
  format: ConvoFormat;
  title: string | null;
  cwd: string | null;
  gitBranch: string | null;
  /**
   * The `Conversation.meta` entries drawers carry: sessionId, branchOf, forkedFrom, agentId, slackChannel, threadTs.
   */
  meta: Record<string, unknown>;
}

/** Per-conversation cursor kept in a source's state. */
export interface ConvCursor {
  /** Conversation id. */
  id: string;
  head: ConvHead;
  /** Chunk-index slot: drawers of slot k get chunk indices k·{@link SLOT_STRIDE} + n. */
  slot: number;
  /** Next n. */
  next: number;
  room: string | null;
  wing: string | null;
  ex: ExchangeCursor;
  /** Ids of the drawers stored for the open exchange (replaced when it grows). Default none. */
  openIds?: string[];
}

/**
 * Chunk indices of the conversations of one source are spaced this far apart, so that
 * `neighbours()` (same source, chunk index ± n, n ≤ 10) never crosses from one conversation of a
 * file (a branch, another ChatGPT conversation, another history session) into the next.
 */
export const SLOT_STRIDE = 1_000_000;

/** Cursor state of a Claude Code transcript source. */
export interface ClaudeSourceState {
  v: 1;
  kind: 'claude';
  format: 'claude-code';
  thread: ClaudeCodeThreadState | null;
  main: ConvCursor | null;
  /** Next free slot for conversations other than the primary (slot 0). */
  slots: number;
}

/** Cursor state of an append-only JSONL source (Codex, Gemini JSONL, `history.jsonl`). */
export interface JsonlSourceState {
  v: 1;
  kind: 'jsonl';
  format: ConvoFormat;
  /** 1-based number of the next line. */
  nextLine: number;
  /** Single-conversation formats (Codex, Gemini): the conversation's id once known. */
  primary: string | null;
  /** Codex: the file holds `event_msg` records (said text comes from them; see parse-codex). */
  events: boolean;
  convs: Record<string, ConvCursor>;
  slots: number;
}

/** State of a whole-file source. */
export interface WholeSourceState {
  v: 1;
  kind: 'whole' | 'slack';
  format: ConvoFormat;
}

/** Any convo source state. */
export type ConvoSourceState = ClaudeSourceState | JsonlSourceState | WholeSourceState;
