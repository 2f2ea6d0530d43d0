/**
 * @module dream/snapshot
 * Writing a run's changes so that it can be undone.
 *
 * Before the first write, every file the run will touch (and `MEMORY.md`) is copied to
 * `runs/<runId>/before/<n>` and listed in `runs/<runId>/snapshot.json` (`existed: false` for files
 * the run creates). Files are then written atomically (`writeFileAtomic`) or unlinked; only paths
 * inside the memory directory are ever written, and never a `CLAUDE.md` / `CLAUDE.local.md`. After
 * the writes, the hash of each file's new content is recorded. `undoRun` puts every file back as it
 * was, except files that changed after the run (their hash differs): those are left alone and
 * reported, so an undo never destroys later work.
 */
import { readFileSync, statSync, unlinkSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { createError, fsError } from '../core/errors.js';
import { writeFileAtomic } from '../core/fs-safe.js';
import { sha256 } from '../core/hash.js';
import { stateDir } from './state.js';

/** One file of a snapshot. */
interface SnapshotEntry {
  /** Relative to the memory directory, `/` separators. */
  file: string;
  existed: boolean;
  /** `before/<n>` inside the run folder, when the file existed. */
  backup?: string;
  /** File mode before the run. */
  mode?: number;
  /** SHA-256 of the content after the run; null when the run deleted it. */
  after?: string | null;
}

/** snapshot.json. */
interface Snapshot {
  v: 1;
  runId: string;
  dir: string;
  createdAt: string;
  files: SnapshotEntry[];
  undoneAt?: string;
}

/** The folder of one run. */
export function runDir(home: string, dir: string, runId: string): string {
  return join(stateDir(home, dir), 'runs', runId);
}

/** The absolute path of `file` in `dir`, refusing anything outside it and any CLAUDE.md. */
export function guardedPath(dir: string, file: string): string {
  const abs = resolve(dir, ...file.split('/'));
  const rel = relative(resolve(dir), abs);
  const base = rel.split(sep).pop() ?? '';
  if (!rel || rel.startsWith('..') || resolve(rel) === rel || /^CLAUDE(\.local)?\.md$/i.test(base)) {
    throw createError('INTERNAL', { what: `consolidation tried to write outside its memory files: ${file}` });
  }
  return abs;
}

function readOrUndefined(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw fsError(e, path);
  }
}

/**
 * Snapshots `files` (relative) into the run folder, then applies `writes` (`null` deletes) and
 * records the new hashes. `afterWrites` runs between the writes and the final record (the index
 * rebuild), and returns further files it changed (already snapshotted through `files`).
 */
export function writeWithSnapshot(
  home: string,
  dir: string,
  runId: string,
  createdAt: string,
  files: readonly string[],
  writes: ReadonlyMap<string, string | null>,
  afterWrites: () => void,
): void {
  const rd = runDir(home, dir, runId);
  const entries: SnapshotEntry[] = [];
  files.forEach((file, n) => {
    const path = guardedPath(dir, file);
    const text = readOrUndefined(path);
    if (text === undefined) {
      entries.push({ file, existed: false });
      return;
    }
    const backup = `before/${n}`;
    writeFileAtomic(join(rd, backup), text, 0o600);
    entries.push({ file, existed: true, backup, mode: statSync(path).mode & 0o777 });
  });
  const snap: Snapshot = { v: 1, runId, dir: resolve(dir), createdAt, files: entries };
  writeFileAtomic(join(rd, 'snapshot.json'), JSON.stringify(snap, null, 2) + '\n', 0o600);
  for (const [file, text] of writes) {
    const path = guardedPath(dir, file);
    if (text === null) {
      try {
        unlinkSync(path);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw fsError(e, path, 'delete');
      }
    } else {
      const mode = entries.find((e) => e.file === file)?.mode ?? 0o644;
      writeFileAtomic(path, text, mode);
    }
  }
  afterWrites();
  for (const e of entries) {
    const now = readOrUndefined(guardedPath(dir, e.file));
    e.after = now === undefined ? null : sha256(now);
  }
  writeFileAtomic(join(rd, 'snapshot.json'), JSON.stringify(snap, null, 2) + '\n', 0o600);
}

/** Reads a run's snapshot, or undefined when it has none. */
function readSnapshot(home: string, dir: string, runId: string): Snapshot | undefined {
  const text = readOrUndefined(join(runDir(home, dir, runId), 'snapshot.json'));
  if (text === undefined) return undefined;
  try {
    const s = JSON.parse(text) as Snapshot;
    return s && s.v === 1 && Array.isArray(s.files) ? s : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Puts the files of run `runId` back as they were before it. Throws DREAM_NOTHING_TO_UNDO when the
 * run has no snapshot or was undone already.
 */
export function undoRun(
  home: string,
  dir: string,
  runId: string,
  nowIso: string,
): { restored: string[]; skipped: { file: string; reason: string }[] } {
  const snap = readSnapshot(home, dir, runId);
  if (!snap || snap.undoneAt) {
    throw createError('DREAM_NOTHING_TO_UNDO', {
      dir,
      reason: snap ? `the last run (${runId}) was undone already` : `the last run (${runId}) changed no file`,
    });
  }
  const rd = runDir(home, dir, runId);
  const restored: string[] = [];
  const skipped: { file: string; reason: string }[] = [];
  for (const e of snap.files) {
    const path = guardedPath(dir, e.file);
    const now = readOrUndefined(path);
    const nowHash = now === undefined ? null : sha256(now);
    if (e.after !== undefined && nowHash !== e.after) {
      skipped.push({ file: e.file, reason: 'changed after the run; left as it is' });
      continue;
    }
    if (e.existed) {
      const before = readFileSync(join(rd, e.backup!), 'utf8');
      if (before === now) continue;
      writeFileAtomic(path, before, e.mode ?? 0o644);
    } else if (now !== undefined) {
      unlinkSync(path);
    } else continue;
    restored.push(e.file);
  }
  snap.undoneAt = nowIso;
  writeFileAtomic(join(rd, 'snapshot.json'), JSON.stringify(snap, null, 2) + '\n', 0o600);
  return { restored, skipped };
}
