/**
 * @module memdir/scan
 * Finding and reading the topic files of a memory directory: every `*.md` except `MEMORY.md`,
 * including `team/`, skipping hidden entries, `logs/` (session activity logs) and whatever the
 * directory's own `.gitignore` excludes; newest first; at most 200 by default (Claude Code's scan
 * cap). {@link listMemories} is the cheap manifest recall reads.
 */
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { lazyRequire } from '../core/lazy.js';
import { localeOrder } from '../core/collate.js';

const ignore = lazyRequire<typeof import('ignore')>('ignore');
import { parseTopicFile, type TopicFields } from './topic-file.js';
import { effectivePrivacy } from './privacy-rules.js';
import { INDEX_FILE, MEMORY_LIMITS, type Memory, type MemoryEntry, type MemoryType } from './types.js';

/** A candidate topic file before parsing. */
interface TopicCandidate {
  /** Relative path with `/` separators. */
  file: string;
  path: string;
  mtimeMs: number;
  size: number;
  /** Inode number (atomic writes always change it); 0 when unknown. */
  ino: number;
}

/** Deepest directory level scanned below the memory directory. */
const MAX_DEPTH = 4;
/** Files larger than this are parsed from their first 64 KiB only. */
const FULL_READ_LIMIT = 1024 * 1024;

function loadIgnore(dir: string): ((rel: string) => boolean) | undefined {
  let text: string;
  try {
    text = readFileSync(join(dir, '.gitignore'), 'utf8');
  } catch {
    return undefined;
  }
  const ig = ignore()().add(text);
  return (rel) => ig.ignores(rel);
}

/** Every topic file under `dir` (unsorted, unlimited). Missing directory → []. */
export function scanTopicFiles(dir: string): TopicCandidate[] {
  const ignored = loadIgnore(dir);
  const out: TopicCandidate[] = [];
  const walk = (abs: string, rel: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(abs);
    } catch {
      return;
    }
    for (const name of names.sort()) {
      if (name.startsWith('.')) continue;
      const r = rel ? `${rel}/${name}` : name;
      const p = join(abs, name);
      let st;
      try {
        st = statSync(p);
      } catch {
        continue; // vanished or dangling link
      }
      if (st.isDirectory()) {
        if (depth >= MAX_DEPTH || (depth === 0 && name === 'logs')) continue;
        if (ignored?.(`${r}/`)) continue;
        walk(p, r, depth + 1);
      } else if (st.isFile() && /\.md$/i.test(name) && !(depth === 0 && name === INDEX_FILE)) {
        if (ignored?.(r)) continue;
        out.push({ file: r, path: p, mtimeMs: st.mtimeMs, size: st.size, ino: st.ino });
      }
    }
  };
  walk(dir, '', 0);
  return out;
}

function readHead(path: string, size: number): string {
  if (size <= FULL_READ_LIMIT) return readFileSync(path, 'utf8');
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(64 * 1024);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** A topic file left out of listings because its frontmatter cannot be read. */
export interface InvalidMemoryFile {
  /** Path relative to the memory directory. */
  file: string;
  /** Absolute path. */
  path: string;
  /** The first YAML problem, one line (e.g. `Unresolved alias … : x`). */
  reason: string;
}

interface Parsed {
  memory: Memory;
  /** Set when the frontmatter has errors (the memory then holds filename fallbacks). */
  problem?: string;
}

function parseCandidate(c: TopicCandidate, text: string): Parsed {
  const t = parseTopicFile(text, c.file);
  const memory = toMemory(c, t, text);
  return t.errors.length ? { memory, problem: t.errors[0]! } : { memory };
}

function toMemory(c: TopicCandidate, t: TopicFields, text: string): Memory {
  return {
    name: t.name,
    title: t.title,
    type: t.type,
    description: t.description,
    file: c.file,
    path: c.path,
    modified: t.modified ?? new Date(c.mtimeMs).toISOString(),
    privacy: effectivePrivacy(t.type, t.declaredPrivacy, t.team),
    pinned: t.pinned,
    bytes: c.size,
    team: t.team,
    hasFrontmatter: t.hasFrontmatter,
    links: t.links,
    body: t.body,
    text,
  };
}

/** Options of {@link listMemories}. */
export interface ListMemoriesOptions {
  /** Most files returned, newest first. Default 200 (Claude Code's cap); `Infinity` for all. */
  limit?: number;
  /** Only this type. Default: all. */
  type?: MemoryType;
  /**
   * Also return files whose frontmatter cannot be read (bad YAML, unresolved alias), with the
   * fields derived from the file name. Default false: such files are skipped (and reported to
   * `onSkip`), so one broken file never breaks a listing, the index or recall.
   */
  includeInvalid?: boolean;
  /** Called once per skipped file. Default none. */
  onSkip?: (file: InvalidMemoryFile) => void;
}

/** Newest first: by `modified` (frontmatter, else mtime), then by file name for stability. */
function byNewest(a: { modified: string; file: string }, b: { modified: string; file: string }): number {
  return localeOrder(b.modified, a.modified) || a.file.localeCompare(b.file);
}

/**
 * Parsed files by path, valid while inode, size and mtime are unchanged (every Loci write is a
 * rename, which changes the inode). Keeps repeated scans of one directory cheap.
 */
const cache = new Map<string, { key: string; parsed: Parsed }>();
const CACHE_MAX = 4096;

function cached(c: TopicCandidate): Parsed | undefined {
  const key = `${c.ino}:${c.size}:${c.mtimeMs}:${c.file}`;
  const hit = cache.get(c.path);
  if (hit && hit.key === key) return hit.parsed;
  let text: string;
  try {
    text = readHead(c.path, c.size);
  } catch {
    return undefined;
  }
  const parsed = parseCandidate(c, text);
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(c.path, { key, parsed });
  return parsed;
}

/**
 * Reads and parses every candidate; files that vanish or cannot be read are skipped, and so are
 * files whose frontmatter cannot be read unless `includeInvalid` is set.
 */
export function loadMemories(dir: string, options: ListMemoriesOptions = {}): Memory[] {
  const limit = options.limit ?? MEMORY_LIMITS.scanFiles;
  const all: Memory[] = [];
  for (const c of scanTopicFiles(dir)) {
    const p = cached(c);
    if (!p) continue;
    if (p.problem !== undefined && !options.includeInvalid) {
      options.onSkip?.({ file: c.file, path: c.path, reason: p.problem });
      continue;
    }
    if (options.type === undefined || p.memory.type === options.type) all.push(p.memory);
  }
  return all.sort(byNewest).slice(0, limit);
}

/** The topic files of `dir` that listings skip because their frontmatter cannot be read. */
export function invalidMemoryFiles(dir: string): InvalidMemoryFile[] {
  const out: InvalidMemoryFile[] = [];
  loadMemories(dir, { limit: 0, onSkip: (f) => out.push(f) });
  return out;
}

/**
 * The manifest: name, type, description, file, modified, privacy, pinned and bytes of each topic
 * file, newest first, at most `limit` (default 200). Bodies are not returned.
 */
export function listMemories(dir: string, options: ListMemoriesOptions = {}): MemoryEntry[] {
  return loadMemories(dir, options).map(({ body: _b, text: _t, ...entry }) => entry);
}

/** Reads one topic file by its relative path; undefined when it does not exist or escapes `dir`. */
export function readMemoryFile(dir: string, file: string): Memory | undefined {
  const parts = file.split(/[\\/]/);
  if (isAbsolute(file) || parts.some((p) => p === '..' || p === '')) return undefined;
  const path = join(dir, ...file.split('/'));
  try {
    const st = statSync(path);
    if (!st.isFile()) return undefined;
    return parseCandidate({ file, path, mtimeMs: st.mtimeMs, size: st.size, ino: st.ino }, readFileSync(path, 'utf8'))
      .memory;
  } catch {
    return undefined;
  }
}
