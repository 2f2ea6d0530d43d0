/**
 * @module hooks/queue
 * The archive queue between hooks and the detached worker.
 *
 * - **Jobs**: one small JSON file per request in `<LOCI_HOME>/queue/` (`<ms>-<pid>-<rand>.json`,
 *   written with `writeFileAtomic`, so a reader never sees half a job). Once the file exists the
 *   request survives a crash of the hook, of the worker or of the machine.
 * - **Lock**: `<LOCI_HOME>/locks/hook-worker.lock`, created with `O_EXCL` (`wx`), holding
 *   `{pid, startedAt, beat}`. It is stale when the pid is dead or the last heartbeat (`beat`,
 *   refreshed by the worker between jobs) is older than 10 minutes; a stale lock is removed (only if
 *   it still holds what was read) and taken over. At most one worker drains the queue; the rare
 *   takeover race can start a second one, which is harmless (mining is idempotent and a job file
 *   deleted by the other worker is skipped).
 * - **Spawn**: `spawnWorker` starts `node <hooks/main.js> hook-worker` detached (`detached: true,
 *   stdio: 'ignore'`, `unref()`) unless a live worker holds the lock; the hook returns at once.
 *
 * Node built-ins and `light-core` only (fast path).
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  fsError,
  homePaths,
  pidAlive,
  processEnv,
  randomHex,
  writeFileAtomic,
  type Env,
  type Logger,
} from './light-core.js';
import type { HookEvent } from './protocol.js';

/** An archive request. */
interface ArchiveJob {
  v: 1;
  /** The hook that queued it. */
  event: HookEvent;
  /** The transcript to archive (null for a summary-only job). */
  transcript: string | null;
  sessionId: string | null;
  /** The session's working directory (names the project's wing). */
  cwd: string | null;
  /** Archive the open tail too (session end: nothing more will be appended). */
  flush: boolean;
  /** Also extract memories from the transcript's new part (`LOCI_EXTRACT_ON_END=1` with an LLM configured). */
  extract?: boolean;
  /** Also bring the session's running notes up to date (`LOCI_SESSION_NOTES`, on by default). */
  notes?: boolean;
  /** A compaction summary to store as a drawer (post-compact). */
  summary?: { text: string; trigger: string | null };
  /** ISO-8601 time the job was queued. */
  createdAt: string;
  /** Failed attempts so far. */
  attempts: number;
  /** ISO-8601: do not retry before (set after a failure). */
  notBefore?: string;
  /** Last failure, for the log and `queue/failed/`. */
  lastError?: string;
}

/** A job read from the queue, with its file. */
export interface QueuedJob {
  file: string;
  job: ArchiveJob;
}

/** A lock holder. */
interface LockInfo {
  pid: number;
  /** ms since the epoch. */
  startedAt: number;
  /** Last heartbeat, ms since the epoch. */
  beat: number;
}

/** A lock whose last heartbeat is older than this is stale, in ms. */
export const LOCK_STALE_MS = 10 * 60_000;

/** The worker lock of a home. */
export function lockPath(home: string): string {
  return join(homePaths(home).locks, 'hook-worker.lock');
}

/** Writes a job; returns its file. */
export function enqueue(home: string, job: Omit<ArchiveJob, 'v' | 'createdAt' | 'attempts'>): string {
  const full: ArchiveJob = { v: 1, ...job, createdAt: new Date().toISOString(), attempts: 0 };
  const file = join(
    homePaths(home).queue,
    `${String(Date.now()).padStart(14, '0')}-${process.pid}-${randomHex(8)}.json`,
  );
  writeFileAtomic(file, `${JSON.stringify(full)}\n`, 0o600);
  return file;
}

/** Names of the queued job files, oldest first (temp files and folders excluded). */
export function queuedFiles(home: string): string[] {
  try {
    return readdirSync(homePaths(home).queue)
      .filter((n) => n.endsWith('.json') && !n.startsWith('.'))
      .sort()
      .map((n) => join(homePaths(home).queue, n));
  } catch {
    return [];
  }
}

/** Reads one job; undefined when it vanished or is not a job (a corrupt file is moved aside). */
export function readJob(file: string, log?: Logger): ArchiveJob | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const j = JSON.parse(text) as ArchiveJob;
    if (j && j.v === 1 && (typeof j.transcript === 'string' || j.transcript === null))
      return { ...j, attempts: Number(j.attempts) || 0, flush: j.flush === true };
  } catch {
    // fall through
  }
  log?.log('error', 'hook worker: corrupt job moved to queue/failed', { file });
  moveToFailed(file, text);
  return undefined;
}

/**
 * Moves a job file to `queue/failed/` (with its text, in case it changed meanwhile). When the copy
 * cannot be written the job stays where it is (and is retried) rather than being lost.
 */
export function moveToFailed(file: string, text?: string): boolean {
  try {
    writeFileAtomic(join(dirname(file), 'failed', basename(file)), text ?? readFileSync(file, 'utf8'), 0o600);
  } catch {
    return false;
  }
  rmSync(file, { force: true });
  return true;
}

/** The current lock holder, or undefined (no lock, unreadable). */
export function readLock(home: string): (LockInfo & { raw: string }) | undefined {
  let raw: string;
  try {
    raw = readFileSync(lockPath(home), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const j = JSON.parse(raw) as Partial<LockInfo>;
    const startedAt = Number(j.startedAt) || 0;
    return { pid: Number(j.pid) || 0, startedAt, beat: Number(j.beat) || startedAt, raw };
  } catch {
    return { pid: 0, startedAt: 0, beat: 0, raw };
  }
}

/** True when `info` names a live process whose last heartbeat is recent. */
export function lockIsLive(info: LockInfo | undefined, now = Date.now()): boolean {
  return !!info && pidAlive(info.pid) && now - Math.max(info.startedAt, info.beat) < LOCK_STALE_MS;
}

/**
 * Takes the worker lock for this process. Returns false when a live worker holds it. A stale lock
 * is removed (only when it still holds what was read) and the creation retried once.
 */
export function acquireLock(home: string): boolean {
  const path = lockPath(home);
  mkdirSync(dirname(path), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      const now = Date.now();
      writeSync(fd, JSON.stringify({ pid: process.pid, startedAt: now, beat: now }));
      closeSync(fd);
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw fsError(e, path, 'create');
    }
    const held = readLock(home);
    if (held && lockIsLive(held)) return false;
    const again = readLock(home);
    if (again && held && again.raw !== held.raw) return false; // someone else just took it over
    rmSync(path, { force: true });
  }
  return false;
}

/** Refreshes this process's heartbeat in the lock (no-op when another process holds it). */
export function heartbeat(home: string): void {
  const held = readLock(home);
  if (!held || held.pid !== process.pid) return;
  writeFileAtomic(
    lockPath(home),
    JSON.stringify({ pid: process.pid, startedAt: held.startedAt, beat: Date.now() }),
    0o600,
  );
}

/** Releases the lock when this process holds it. */
export function releaseLock(home: string): void {
  const held = readLock(home);
  if (held && held.pid === process.pid) rmSync(lockPath(home), { force: true });
}

/**
 * The command that runs `main.js <sub>` (`hook-worker`, `hook-server`) of this folder; from sources
 * (`main.ts`), with the TypeScript loader this process was started with (`--import`), else tsx.
 */
function mainCommand(sub: string, home: string): { file: string; args: string[] } {
  const here = fileURLToPath(import.meta.url);
  const ts = here.endsWith('.ts');
  const main = join(dirname(here), ts ? 'main.ts' : 'main.js');
  return { file: process.execPath, args: [...(ts ? typeScriptLoader() : []), main, sub, '--home', home] };
}

/** The `--import` options of this process's command line, or tsx's when it has none. */
function typeScriptLoader(): string[] {
  const args = process.execArgv;
  const found: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--import' && i + 1 < args.length) found.push(arg, args[++i]!);
    else if (arg.startsWith('--import=')) found.push(arg);
  }
  return found.length ? found : ['--import', 'tsx'];
}

/**
 * Starts `main.js <sub>` detached from this process (`detached: true`, `stdio: 'ignore'`,
 * `unref()`), so the hook can exit at once. Never throws: returns false when the spawn failed.
 */
export function spawnDetached(sub: string, home: string, log: Logger, env: NodeJS.ProcessEnv): boolean {
  try {
    const cmd = mainCommand(sub, home);
    // The child runs in the home: on a fresh machine it does not exist yet, and spawn would fail
    // with a misleading `spawn node ENOENT`.
    mkdirSync(home, { recursive: true });
    const child = spawn(cmd.file, cmd.args, {
      detached: true,
      stdio: 'ignore',
      cwd: home,
      env: { ...env, LOCI_HOME: home },
      windowsHide: true,
    });
    child.on('error', (e) => log.log('error', `${sub} failed to start`, { error: e.message }));
    child.unref();
    log.log('debug', `${sub} spawned`, { child: child.pid });
    return true;
  } catch (e) {
    log.log('error', `${sub} failed to start`, { error: (e as Error).message });
    return false;
  }
}

/**
 * Starts a detached worker unless a live one holds the lock. Returns what happened; never throws
 * (a failed spawn leaves the jobs queued for the next hook).
 */
export function spawnWorker(home: string, log: Logger, env: Env = processEnv()): 'spawned' | 'running' | 'failed' {
  if (lockIsLive(readLock(home))) return 'running';
  try {
    mkdirSync(home, { recursive: true });
  } catch {
    return 'failed';
  }
  return spawnDetached('hook-worker', home, log, env) ? 'spawned' : 'failed';
}
