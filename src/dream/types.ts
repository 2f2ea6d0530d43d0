/**
 * @module dream/types
 * Options, results and ports of memory consolidation ("dream").
 */
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { LlmProvider } from '../providers/index.js';

/** The gates of an unforced run. */
interface DreamGates {
  /** Hours since the last consolidation before another may run. Default 24; 0 … 8760. */
  minHours: number;
  /** New sessions since the last consolidation needed to run. Default 5; 0 … 10000. */
  minSessions: number;
  /** Minutes between two scans of the sessions. Default 10; 0 … 1440. */
  scanEveryMinutes: number;
}

/** Defaults of {@link DreamGates}: Claude Code's reported autoDream gates. */
export const DREAM_GATES: Readonly<DreamGates> = { minHours: 24, minSessions: 5, scanEveryMinutes: 10 };

/** One hit of an archive search (a drawer of the palace, or any other archive). */
export interface ArchiveHit {
  /** The verbatim text (it is cut to a few hundred characters before it reaches a model). */
  text: string;
  /** ISO-8601 date of the text, when known. */
  date?: string;
  /** Where it came from (a file, a session), for the report. */
  source?: string;
}

/**
 * The archive port of the gather phase: narrow searches of what was said before. The CLI passes
 * one backed by the palace's hybrid search scoped to the project's wing; without one the archive
 * step is skipped (and the report says so).
 */
export interface ArchiveSearch {
  search(query: string, limit: number): Promise<ArchiveHit[]>;
}

/** One CLAUDE.md file the memories are reconciled with (never written). */
export interface ClaudeMdText {
  path: string;
  content: string;
  /** Last modification, ms since the epoch (decides whether a memory post-dates it). */
  mtimeMs: number;
}

/** Options of {@link runDream}. */
export interface DreamOptions {
  /** The memory directory (Claude Code's auto-memory folder, Loci's own, or any `--dir`). */
  dir: string;
  /** The Loci home: state, lock and per-run reports and snapshots live under `<home>/dream/`. */
  home: string;
  /**
   * The project's root (drift checks: named files and functions still in the repository; CLAUDE.md
   * chain). Default: none (no drift check; CLAUDE.md only when `claudeMd` is given).
   */
  projectRoot?: string;
  /** The CLAUDE.md chain. Default: loaded for `projectRoot` with `env` (none without a root). */
  claudeMd?: ClaudeMdText[];
  /**
   * Folders whose `*.jsonl` files are the project's sessions (Claude Code transcripts). Default: the
   * memory directory's parent (Claude Code keeps `<project>/memory/` beside `<project>/<id>.jsonl`).
   */
  transcriptDirs?: string[];
  /** The model. Default none: only the deterministic steps run (duplicates, dates, index). */
  llm?: LlmProvider;
  /** Why there is no model (for the report), when `llm` is absent. */
  llmMissingReason?: string;
  /** Narrow archive searches in the gather phase. Default none (skipped). */
  archive?: ArchiveSearch;
  /** Time source (gates, `modified` stamps, run ids). Default the system clock. */
  clock?: Clock;
  /** Show what would change; write nothing (no memory file, no state, no report file). Default false. */
  dryRun?: boolean;
  /** Skip the time and session gates (never the lock). Default false. */
  force?: boolean;
  /** Override the gates. Default {@link DREAM_GATES}. */
  gates?: Partial<DreamGates>;
  /** Environment (CLAUDE.md chain). Default: the process's (`core/env.ts`). */
  env?: NodeJS.ProcessEnv;
  /** Timeout of one model call, ms. Default 60000; 1 … 600000. */
  timeoutMs?: number;
  /** Most characters of memories per model call; larger folders are sent in batches. Default 40000. */
  batchChars?: number;
  /** Logger. Default silent. */
  logger?: Logger;
}

/** What a change did to one file. */
type DreamAction = 'merge' | 'delete' | 'update' | 'rewrite-dates' | 'index';

/** One change of a run. */
export interface DreamChange {
  action: DreamAction;
  /** Path relative to the memory directory. */
  file: string;
  /** Why (kept in the run log and the report). */
  reason: string;
  /** For `merge`: the files folded into `file` (and deleted). */
  from?: string[];
  /** Which step decided it. */
  by: 'rules' | 'model';
}

/** A memory that disagrees with CLAUDE.md, and who won. */
export interface ClaudeMdConflict {
  file: string;
  claudeMd: string;
  /** `memory-loses` (deleted), or `memory-kept` when it clearly post-dates and corrects CLAUDE.md. */
  outcome: 'memory-loses' | 'memory-kept';
  reason: string;
}

/** The result of {@link runDream}. */
export interface DreamResult {
  /** True when the consolidation ran (the gates were open and the lock taken). */
  ran: boolean;
  /** Why it ran or did not, one sentence. */
  reason: string;
  changes: DreamChange[];
  /** The report file (under the Loci home), or null for a dry run or a run that did not happen. */
  report: string | null;
  /** The report's text (also for dry runs). */
  reportText: string;
  /** The run's id (its folder under `<home>/dream/<key>/runs/`), when it ran. */
  runId?: string;
  /** Whether the model took part: `used`, `none` (not configured) or `failed` (see `notes`). */
  model: 'used' | 'none' | 'failed';
  /** Conflicts with CLAUDE.md, reported whatever the outcome. */
  conflicts: ClaudeMdConflict[];
  /** Model actions refused by the rules (team memories, unknown files, …), with the reason. */
  refused: { file: string; reason: string }[];
  /** What ran and why, in order (also in the report). */
  notes: string[];
  /** Tokens sent to the model (provider usage when reported, else estimated at 4 chars/token). */
  tokensSent: number;
  /** Dry run: nothing was written. */
  dryRun: boolean;
}

/** The result of {@link undoDream}. */
export interface UndoResult {
  /** The run undone. */
  runId: string;
  /** Files put back as they were before the run. */
  restored: string[];
  /** Files left alone because they changed after the run (their current text is kept). */
  skipped: { file: string; reason: string }[];
}
