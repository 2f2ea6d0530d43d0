/**
 * @module memdir/open
 * What happens when a memory directory is opened (`selectMemoryDir` does it for every front end):
 *
 * - **Merge**: memories written to Loci's own directory before Claude Code's directory existed are
 *   moved into Claude Code's, so they are never left behind where nothing reads them.
 * - **Temp files**: `.new.<pid>.<hex>.tmp` (new memories) and `.<name>.<hex>.tmp` (atomic
 *   replaces) left by a killed writer are removed once stale.
 * - **Index repair**: `MEMORY.md` is rebuilt when it disagrees with the topic files (a memory it
 *   should list is missing, or a line points at a file that is gone), as after a killed `add`.
 *
 * Nothing here throws: problems are returned as one-line strings.
 */
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fsError } from '../core/errors.js';
import { pidAlive } from '../core/process.js';
import { buildIndex, pointerTarget, rebuildIndex } from './index-file.js';
import { createFileExclusive } from './memories.js';
import { listMemories, scanTopicFiles } from './scan.js';
import { INDEX_FILE, MEMORY_LIMITS } from './types.js';

/** A temp file older than this is stale whoever wrote it (a write takes milliseconds). */
export const STALE_TEMP_MS = 60_000;
/**
 * Index repair leaves alone a topic file younger than this (its writer may still be about to
 * update `MEMORY.md`, e.g. Claude Code's model between two tool calls), and a dangling line while
 * `MEMORY.md` itself is younger than this.
 */
export const INDEX_REPAIR_GRACE_MS = 60_000;

const NEW_TMP = /^\.new\.(?:(\d+)\.)?[0-9a-f]{12}\.tmp$/;
const ATOMIC_TMP = /^\..+\.md\.[0-9a-f]{12}\.tmp$/;

/**
 * Removes stale temp files in `dir` and `dir/team`: older than {@link STALE_TEMP_MS}, or named
 * after a process that no longer runs. A temp file of a live writer is never touched. Returns the
 * removed names (relative).
 */
function removeStaleTemps(dir: string, now: number = Date.now()): string[] {
  const removed: string[] = [];
  for (const sub of ['', 'team']) {
    let names: string[];
    try {
      names = readdirSync(join(dir, sub));
    } catch {
      continue;
    }
    for (const name of names) {
      const m = NEW_TMP.exec(name);
      if (!m && !ATOMIC_TMP.test(name)) continue;
      const path = join(dir, sub, name);
      try {
        const st = statSync(path);
        if (!st.isFile()) continue;
        const dead = m?.[1] !== undefined && !pidAlive(Number(m[1]));
        if (!dead && now - st.mtimeMs < STALE_TEMP_MS) continue;
        rmSync(path, { force: true });
        removed.push(sub ? `${sub}/${name}` : name);
      } catch {
        // vanished meanwhile, or not ours to remove
      }
    }
  }
  return removed;
}

function mtime(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/**
 * True when `MEMORY.md` disagrees with the topic files: a memory the rebuilt index would list (and
 * older than the grace period) has no line, or a line points at a file that no longer exists
 * (while `MEMORY.md` is older than the grace period). An absent index disagrees as soon as there
 * is a memory older than the grace period.
 */
function indexDisagrees(dir: string, now: number = Date.now()): boolean {
  const all = listMemories(dir, { limit: Infinity });
  let existing: string | undefined;
  try {
    existing = readFileSync(join(dir, INDEX_FILE), 'utf8');
  } catch {
    existing = undefined;
  }
  const targets = new Set<string>();
  for (const line of (existing ?? '').replace(/\r\n/g, '\n').split('\n')) {
    const t = pointerTarget(line);
    if (t !== undefined) targets.add(t);
  }
  const indexAge = now - (mtime(join(dir, INDEX_FILE)) ?? 0);
  if (indexAge >= INDEX_REPAIR_GRACE_MS) {
    for (const t of targets) if (!t.split('/').includes('..') && !existsSync(join(dir, t))) return true;
  }
  const pinned = all.filter((m) => m.pinned);
  const memories = [
    ...pinned,
    ...all.filter((m) => !m.pinned).slice(0, Math.max(0, MEMORY_LIMITS.scanFiles - pinned.length)),
  ];
  const old = memories.filter((m) => !targets.has(m.file) && now - (mtime(m.path) ?? now) >= INDEX_REPAIR_GRACE_MS);
  if (old.length === 0) return false;
  // Only what a rebuild would actually admit within the limits counts as missing.
  const admitted = new Set(
    buildIndex(memories, existing, () => true)
      .text.split('\n')
      .map((l) => pointerTarget(l)),
  );
  return old.some((m) => admitted.has(m.file));
}

/** What {@link mergeMemoryDir} did. */
export interface MergeReport {
  /** The directory memories were moved out of. */
  from: string;
  /** Relative files now in the target directory (moved, or already there with the same content). */
  moved: string[];
  /** Files whose name was taken by a different memory: `[original, new name]`. */
  renamed: [string, string][];
  /** One line per file that could not be moved (it stays where it was). */
  errors: string[];
}

function sameContent(a: string, b: string): boolean {
  try {
    return readFileSync(a).equals(readFileSync(b));
  } catch {
    return false;
  }
}

/** Puts `src` at `dst` if `dst` does not exist (hard link, else an exclusive copy). False when taken. */
function placeExclusive(src: string, dst: string): boolean {
  mkdirSync(dirname(dst), { recursive: true });
  try {
    linkSync(src, dst);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP') throw fsError(e, dst, 'link');
    // Another file system, or no hard links: an exclusive, fsynced copy.
    return createFileExclusive(dst, readFileSync(src, 'utf8'), statSync(src).mode & 0o777);
  }
}

/**
 * Moves every topic file of `from` (including `team/` and files with broken frontmatter) into
 * `to`, then rebuilds both indexes. Each file is first made to exist at its new place (hard link
 * or exclusive copy: a file that is there is complete), then removed from `from`, so a crash at
 * any point loses nothing and a second run finishes the job. A file already in `to` with the same
 * bytes is just removed from `from` (no duplicates); a different memory with the same name is
 * moved as `<stem>-from-loci.md`. Safe to run from several processes at once.
 */
export function mergeMemoryDir(from: string, to: string): MergeReport {
  const report: MergeReport = { from, moved: [], renamed: [], errors: [] };
  const files = scanTopicFiles(from);
  if (files.length === 0) return report;
  for (const f of files) {
    const dst = join(to, ...f.file.split('/'));
    try {
      let target = f.file;
      if (!existsSync(dst) || !sameContent(f.path, dst)) {
        if (!placeExclusive(f.path, dst) && !sameContent(f.path, dst)) {
          const alt = f.file.replace(/(\.md)$/i, '-from-loci$1');
          const altPath = join(to, ...alt.split('/'));
          if (!placeExclusive(f.path, altPath) && !sameContent(f.path, altPath)) {
            report.errors.push(`${f.path}: both ${f.file} and ${alt} are taken in ${to}; left where it is`);
            continue;
          }
          target = alt;
          report.renamed.push([f.file, alt]);
        }
      }
      try {
        unlinkSync(f.path);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw fsError(e, f.path, 'remove');
      }
      report.moved.push(target);
    } catch (e) {
      report.errors.push(`${f.path}: could not be moved to ${to} (${(e as Error).message.replace(/\s+/g, ' ')})`);
    }
  }
  if (report.moved.length) {
    rebuildIndex(to, { touched: report.moved });
    if (scanTopicFiles(from).length === 0) rmSync(join(from, INDEX_FILE), { force: true });
    else rebuildIndex(from);
  }
  return report;
}

/** What {@link tidyMemoryDir} did. */
export interface TidyReport {
  /** Stale temp files removed (relative names). */
  removedTemps: string[];
  /** MEMORY.md was rebuilt because it disagreed with the topic files. */
  indexRepaired: boolean;
  /** Problems met (one line each); the directory is still usable. */
  errors: string[];
}

/** Removes stale temp files and repairs `MEMORY.md` when it disagrees with the files. Never throws. */
export function tidyMemoryDir(dir: string, now: number = Date.now()): TidyReport {
  const report: TidyReport = { removedTemps: [], indexRepaired: false, errors: [] };
  if (!existsSync(dir)) return report;
  try {
    report.removedTemps = removeStaleTemps(dir, now);
    if (indexDisagrees(dir, now)) report.indexRepaired = rebuildIndex(dir).written;
  } catch (e) {
    report.errors.push(`${dir}: ${(e as Error).message.replace(/\s+/g, ' ')}`);
  }
  return report;
}
