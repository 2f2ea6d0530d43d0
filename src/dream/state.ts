/**
 * @module dream/state
 * Where consolidation keeps its own bookkeeping, per memory directory, under the Loci home:
 *
 * ```
 * <home>/dream/<key>/state.json      {dir, lastRunAt, lastScanAt, lastRunId}
 * <home>/dream/<key>/lock            {pid, startedAt} (O_EXCL; one consolidating process)
 * <home>/dream/<key>/runs/<runId>/   report.md, snapshot.json, before/<n> (the files as they were)
 * ```
 *
 * `<key>` is the memory directory's base name plus 12 hex of the SHA-256 of its absolute path.
 * The lock is taken with an exclusive create; a lock whose pid is not a running process is stale
 * and taken over (removed only while it still holds what was read, then created again).
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fsError } from '../core/errors.js';
import { writeFileAtomic } from '../core/fs-safe.js';
import { sha256 } from '../core/hash.js';
import { pidAlive } from '../core/process.js';

/** The bookkeeping of one memory directory. */
interface DreamState {
  dir: string;
  /** ms since the epoch of the last consolidation that ran (not dry). */
  lastRunAt?: number;
  /** ms since the epoch of the last scan of the sessions. */
  lastScanAt?: number;
  /** The last run's id (what `--undo` restores). */
  lastRunId?: string;
}

/** The folder of a memory directory's bookkeeping. */
export function stateDir(home: string, dir: string): string {
  const abs = resolve(dir);
  const stem = (basename(dirname(abs)) + '-' + basename(abs)).replace(/[^A-Za-z0-9_.-]+/g, '-').slice(0, 60);
  return join(home, 'dream', `${stem}-${sha256(abs).slice(0, 12)}`);
}

/** Reads the state ({dir} when none or unreadable). */
export function readState(home: string, dir: string): DreamState {
  try {
    const j = JSON.parse(readFileSync(join(stateDir(home, dir), 'state.json'), 'utf8')) as Partial<DreamState>;
    const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
    const s: DreamState = { dir: resolve(dir) };
    const run = num(j.lastRunAt);
    const scan = num(j.lastScanAt);
    if (run !== undefined) s.lastRunAt = run;
    if (scan !== undefined) s.lastScanAt = scan;
    if (typeof j.lastRunId === 'string') s.lastRunId = j.lastRunId;
    return s;
  } catch {
    return { dir: resolve(dir) };
  }
}

/** Writes the state atomically. */
export function writeState(home: string, state: DreamState): void {
  writeFileAtomic(join(stateDir(home, state.dir), 'state.json'), `${JSON.stringify(state, null, 2)}\n`, 0o600);
}

/** The lock holder, or undefined when there is no lock. */
export function readDreamLock(home: string, dir: string): { pid: number; startedAt: number; raw: string } | undefined {
  let raw: string;
  try {
    raw = readFileSync(join(stateDir(home, dir), 'lock'), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const j = JSON.parse(raw) as { pid?: unknown; startedAt?: unknown };
    return { pid: Number(j.pid) || 0, startedAt: Number(j.startedAt) || 0, raw };
  } catch {
    return { pid: 0, startedAt: 0, raw };
  }
}

/** What {@link acquireDreamLock} found. */
type LockOutcome = { ok: true; tookOver?: number } | { ok: false; holder: number };

/**
 * Takes the consolidation lock of `dir` for process `pid` (default this one). Returns the live
 * holder when another process has it. A lock of a dead process is taken over (`tookOver`).
 */
export function acquireDreamLock(home: string, dir: string, now: number, pid = process.pid): LockOutcome {
  const path = join(stateDir(home, dir), 'lock');
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (e) {
    throw fsError(e, dirname(path), 'create');
  }
  let tookOver: number | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      try {
        writeSync(fd, JSON.stringify({ pid, startedAt: now }));
      } finally {
        closeSync(fd);
      }
      return tookOver === undefined ? { ok: true } : { ok: true, tookOver };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw fsError(e, path, 'create');
    }
    const held = readDreamLock(home, dir);
    if (!held) continue; // released meanwhile
    if (pidAlive(held.pid)) return { ok: false, holder: held.pid };
    // Stale: remove it only if it still holds what we read (another process may have taken it over).
    const again = readDreamLock(home, dir);
    if (again && again.raw !== held.raw) return { ok: false, holder: again.pid };
    rmSync(path, { force: true });
    tookOver = held.pid;
  }
  const held = readDreamLock(home, dir);
  return { ok: false, holder: held?.pid ?? 0 };
}

/** Releases the lock when `pid` (default this process) holds it. */
export function releaseDreamLock(home: string, dir: string, pid = process.pid): void {
  const held = readDreamLock(home, dir);
  if (held && held.pid === pid) rmSync(join(stateDir(home, dir), 'lock'), { force: true });
}
