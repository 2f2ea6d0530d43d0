/**
 * @module memdir/memories
 * The operations on a memory directory: add, find, edit, forget. Every write goes to one topic
 * file (exclusive create for new files, atomic replace for edits) and then rebuilds MEMORY.md.
 */
import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { createError, fsError } from '../core/errors.js';
import { writeFileAtomic } from '../core/fs-safe.js';
import { isoAt, systemClock, type Clock } from '../core/clock.js';
import { rebuildIndex, type IndexStats } from './index-file.js';
import { checkPrivacy, defaultPrivacy } from './privacy-rules.js';
import { loadMemories, readMemoryFile } from './scan.js';
import { redactMemoryFields } from './redact.js';
import { slugify } from './slug.js';
import { applyTopicPatch, renderNewTopicFile, type TopicPatch } from './topic-file.js';
import { isMemoryType, type Memory, type MemoryType } from './types.js';

/** Options shared by the write operations. */
export interface WriteOptions {
  /** Time source for `modified`. Default the system clock. */
  clock?: Clock;
}

/** Input of {@link addMemory}. */
export interface AddMemoryInput {
  /** user, feedback, project or reference (validated: MEMORY_INVALID_TYPE). */
  type: string;
  /** Human name, slugged for the file and the `name` key. */
  name: string;
  /** One-line description used by recall to judge relevance. */
  description: string;
  /** The fact. Default: the description. */
  body?: string;
  /** Feedback and project: the reason (`**Why:**`). Default `(not recorded)`. */
  why?: string;
  /** Feedback and project: when and how to apply it (`**How to apply:**`). Default `(not recorded)`. */
  how?: string;
  /** Default by type (see privacy rules); user memories are always private. */
  privacy?: string;
  /** `metadata.pinned: true`. Default false. */
  pinned?: boolean;
  /** Write under `team/` (implies team privacy; not allowed for user memories). Default false. */
  team?: boolean;
}

/** Result of a write. */
export interface WriteResult {
  memory: Memory;
  /** False when an edit changed nothing (the file was left byte-identical). */
  changed: boolean;
  index: IndexStats;
}

/** Validates a memory type, throwing MEMORY_INVALID_TYPE. */
export function parseMemoryType(type: string): MemoryType {
  if (!isMemoryType(type)) throw createError('MEMORY_INVALID_TYPE', { type });
  return type;
}

function checkName(name: string): void {
  if (name.trim() === '') throw createError('MEMORY_INVALID_NAME', { name, reason: 'it is empty' });
  if (/[\r\n]/.test(name)) throw createError('MEMORY_INVALID_NAME', { name, reason: 'it spans several lines' });
  if (name.length > 200) throw createError('MEMORY_INVALID_NAME', { name, reason: 'it is longer than 200 characters' });
}

/**
 * Creates `path` with `data` only if it does not exist, atomically: temp file + fsync + hard link
 * (fails with EEXIST if another writer got there first). Returns false when the file exists.
 */
export function createFileExclusive(path: string, data: string, mode = 0o600): boolean {
  const dir = dirname(path);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw fsError(e, dir, 'create');
  }
  // The writer's pid in the name lets the next open tell a killed writer's leftover from a live one.
  const tmp = join(dir, `.new.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(tmp, 'wx', mode);
  try {
    const buf = Buffer.from(data, 'utf8');
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, path);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV') throw fsError(e, path, 'write');
    // File systems without hard links: exclusive open, then write in place.
    try {
      const f = openSync(path, 'wx', mode);
      try {
        writeSync(f, data);
        fsyncSync(f);
      } finally {
        closeSync(f);
      }
      return true;
    } catch (e2) {
      if ((e2 as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw fsError(e2, path, 'write');
    }
  } finally {
    rmSync(tmp, { force: true });
  }
}

function sameName(m: Memory, slug: string): boolean {
  return (
    slugify(m.name) === slug ||
    slugify(
      m.file
        .split('/')
        .pop()!
        .replace(/\.md$/i, '')
        .replace(/^(user|feedback|project|reference)_/, ''),
    ) === slug
  );
}

/** A new topic file as {@link addMemory} would write it: its path in the folder and its text. */
interface PlannedFile {
  /** Path relative to the memory directory (`team/x.md` under team/). */
  file: string;
  /** The text written (secrets redacted). */
  text: string;
}

/**
 * The topic file {@link addMemory} would create for `input`, without writing anything (dry runs).
 * Throws what `addMemory` throws for invalid input or an existing memory of the same name.
 */
export function planAdd(dir: string, input: AddMemoryInput, options: WriteOptions = {}): PlannedFile {
  input = redactMemoryFields(input);
  const type = parseMemoryType(input.type);
  checkName(input.name);
  if (input.team && type === 'user') {
    throw createError('MEMORY_PRIVACY_INVALID', {
      type,
      privacy: 'team',
      reason: 'user memories describe one person and never go under team/',
    });
  }
  const privacy =
    input.privacy !== undefined ? checkPrivacy(type, input.privacy) : input.team ? 'team' : defaultPrivacy(type);
  const now = isoAt((options.clock ?? systemClock).now());
  const rendered = renderNewTopicFile({
    type,
    name: input.name,
    description: input.description,
    body: input.body?.trim() ? input.body : input.description,
    ...(input.why !== undefined ? { why: input.why } : {}),
    ...(input.how !== undefined ? { how: input.how } : {}),
    privacy,
    pinned: input.pinned ?? false,
    modified: now,
  });
  const existing = loadMemories(dir, { limit: Infinity, includeInvalid: true }).find((m) => sameName(m, rendered.slug));
  if (existing) throw createError('MEMORY_EXISTS', { name: input.name, file: existing.file });
  return { file: input.team ? `team/${rendered.fileName}` : rendered.fileName, text: rendered.text };
}

/**
 * Adds a memory (secrets in its text redacted). Throws MEMORY_EXISTS when one with the same slug
 * (any type) or file exists.
 */
export function addMemory(dir: string, input: AddMemoryInput, options: WriteOptions = {}): WriteResult {
  const { file, text } = planAdd(dir, input, options);
  if (!createFileExclusive(join(dir, ...file.split('/')), text)) {
    throw createError('MEMORY_EXISTS', { name: input.name, file });
  }
  const index = rebuildIndex(dir, { touched: [file] });
  return { memory: readMemoryFile(dir, file)!, changed: true, index };
}

function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length]!;
}

/**
 * Up to three suggestions close to `query` (edit distance or substring), for MEMORY_NOT_FOUND.
 * Each candidate is `[suggestion, ...aliases]`: it matches through any alias and is suggested once.
 */
function suggestNames(query: string, candidates: readonly (readonly string[])[]): string[] {
  const q = slugify(query);
  return candidates
    .map((aliases) => {
      const d = Math.min(
        ...aliases.map((a) => {
          const s = slugify(a);
          return s.includes(q) || q.includes(s) ? 0.5 : distance(q, s);
        }),
      );
      return { n: aliases[0]!, d };
    })
    .filter((x) => x.d <= Math.max(2, Math.floor(q.length / 3)))
    .sort((a, b) => a.d - b.d || a.n.localeCompare(b.n))
    .slice(0, 3)
    .map((x) => x.n);
}

/**
 * Finds one memory by file (`feedback_x.md`, `team/x.md`, with or without `.md`), by exact `name`,
 * or by slug. Throws MEMORY_NOT_FOUND (with suggestions) or MEMORY_AMBIGUOUS.
 */
export function findMemory(dir: string, query: string): Memory {
  const all = loadMemories(dir, { limit: Infinity, includeInvalid: true });
  const q = query.trim().replace(/\\/g, '/');
  const slug = slugify(q);
  const tiers: ((m: Memory) => boolean)[] = [
    (m) => m.file === q || m.file === `${q}.md`,
    (m) => m.name === q,
    (m) => slugify(m.name) === slug,
    (m) => sameName(m, slug),
  ];
  for (const t of tiers) {
    const hits = all.filter(t);
    if (hits.length === 1) return hits[0]!;
    if (hits.length > 1) throw createError('MEMORY_AMBIGUOUS', { name: query, files: hits.map((m) => m.file) });
  }
  const candidates = all.map((m) => [m.name, m.file.split('/').pop()!.replace(/\.md$/i, '')]);
  throw createError('MEMORY_NOT_FOUND', { name: query, dir, suggestions: [...new Set(suggestNames(q, candidates))] });
}

/** Like {@link findMemory} but returns undefined when nothing matches. */
export function getMemory(dir: string, query: string): Memory | undefined {
  try {
    return findMemory(dir, query);
  } catch (e) {
    if ((e as { code?: string }).code === 'MEMORY_NOT_FOUND') return undefined;
    throw e;
  }
}

/** Changes of {@link editMemory}; absent fields stay as they are. */
export interface EditMemoryInput extends Omit<TopicPatch, 'type' | 'privacy'> {
  /** New type (validated); a `{type}_` file prefix is renamed to match. */
  type?: string;
  /** New privacy (validated against the type). */
  privacy?: string;
}

function editPlan(
  dir: string,
  query: string,
  input: EditMemoryInput,
): { m: Memory; type?: MemoryType; patch: TopicPatch } {
  input = redactMemoryFields(input);
  const m = findMemory(dir, query);
  const type = input.type !== undefined ? parseMemoryType(input.type) : undefined;
  const privacy = input.privacy !== undefined ? checkPrivacy(type ?? m.type ?? 'project', input.privacy) : undefined;
  if (m.team && privacy === 'private') {
    throw createError('MEMORY_PRIVACY_INVALID', {
      type: m.type ?? 'untyped',
      privacy: 'private',
      reason: 'files under team/ are shared; move the file out of team/ first',
    });
  }
  const patch: TopicPatch = {
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.body !== undefined ? { body: input.body } : {}),
    ...(input.why !== undefined ? { why: input.why } : {}),
    ...(input.how !== undefined ? { how: input.how } : {}),
    ...(input.pinned !== undefined ? { pinned: input.pinned } : {}),
    ...(type !== undefined ? { type } : {}),
    ...(privacy !== undefined ? { privacy } : {}),
  };
  return { m, ...(type !== undefined ? { type } : {}), patch };
}

/**
 * The text {@link editMemory} would give the memory found by `query`, without writing anything
 * (dry runs): `before` is the file as it is, `after` as it would be (equal when nothing changes).
 * A type change that renames the file is not shown. Throws what `editMemory` throws.
 */
export function planEdit(
  dir: string,
  query: string,
  input: EditMemoryInput,
  options: WriteOptions = {},
): { file: string; before: string; after: string } {
  const { m, patch } = editPlan(dir, query, input);
  const after = applyTopicPatch(m.text, m.file, patch, isoAt((options.clock ?? systemClock).now()));
  return { file: m.file, before: m.text, after };
}

/**
 * Edits a memory in place. Frontmatter keys, order, quoting and unknown keys are kept; `modified`
 * is stamped when something changed; a file without frontmatter only has its body edited. If the
 * file changes under us between read and write, the edit is re-applied (up to 5 times). Secrets in
 * the new text are redacted.
 */
export function editMemory(
  dir: string,
  query: string,
  input: EditMemoryInput,
  options: WriteOptions = {},
): WriteResult {
  const { m, type, patch } = editPlan(dir, query, input);
  const now = isoAt((options.clock ?? systemClock).now());
  let file = m.file;
  let changed = false;
  for (let attempt = 0; ; attempt++) {
    const path = join(dir, ...file.split('/'));
    const before = readFileSync(path, 'utf8');
    const after = applyTopicPatch(before, file, patch, now);
    if (after === before) break;
    let current: string;
    try {
      current = readFileSync(path, 'utf8');
    } catch (e) {
      throw fsError(e, path);
    }
    if (current !== before && attempt < 5) continue;
    writeFileAtomic(path, after, statSync(path).mode & 0o777);
    changed = true;
    break;
  }
  if (type !== undefined && m.type !== null && type !== m.type) {
    const parts = file.split('/');
    const base = parts.pop()!;
    if (base.startsWith(`${m.type}_`)) {
      const renamed = [...parts, `${type}_${base.slice(m.type.length + 1)}`].join('/');
      const from = join(dir, ...file.split('/'));
      if (!createFileExclusive(join(dir, ...renamed.split('/')), readFileSync(from, 'utf8'))) {
        throw createError('MEMORY_EXISTS', { name: query, file: renamed });
      }
      unlinkSync(from);
      file = renamed;
      changed = true;
    }
  }
  const index = rebuildIndex(dir, changed ? { touched: [file] } : {});
  return { memory: readMemoryFile(dir, file)!, changed, index };
}

/** Deletes a memory's file and rebuilds the index. Returns what was deleted. */
export function forgetMemory(dir: string, query: string): { memory: Memory; index: IndexStats } {
  const m = findMemory(dir, query);
  try {
    unlinkSync(m.path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw fsError(e, m.path, 'delete');
  }
  return { memory: m, index: rebuildIndex(dir) };
}
