/**
 * @module team/memory-sync
 * The server side of `loci memory sync`. The server keeps every version of every shared memory
 * file of a project (the wing), so the version a member last synced is the common ancestor of a
 * three-way merge; a deletion is a version without text (a tombstone), so it reaches every member.
 *
 * Per pushed change (`base`: the version the member last synced, 0 for a new file):
 * - the server is still at `base` → the member's text (or tombstone) becomes the next version;
 * - the server moved on → `merge3(ancestor, member's, server's)` becomes the next version (a
 *   `conflict` when both changed the same lines: both versions are kept in a labelled block);
 * - deleted on one side, edited on the other → the edit wins (nothing is lost silently).
 * Each version is appended by compare-and-swap on the newest version (retried when another member
 * won), so concurrent members never overwrite each other. Then every file whose newest version the
 * member does not hold is returned (`pulled`). Only `reference` memories and `project` memories
 * marked team (`metadata.privacy: team`, or under `team/`) are accepted: `user` and `feedback`
 * memories never reach the server, whatever a client sends.
 */
import { isoAt, type Clock } from '../core/clock.js';
import { createError } from '../core/errors.js';
import { effectivePrivacy, parseTopicFile } from '../memdir/index.js';
import { redactSecrets } from '../redact/index.js';
import type { TeamMemoryVersion, TeamStore } from '../store/index.js';
import { auditor } from './guard.js';
import { requireRight, type TeamPrincipal } from './access.js';
import { merge3 } from './diff3.js';

/** One local change a member pushes. */
export interface MemoryChange {
  /** Path relative to the memory folder, `/`-separated (`reference_ci.md`, `team/x.md`). */
  file: string;
  /** The version last synced (0: the file is new to this member). */
  base: number;
  /** The whole file, or null: deleted locally. */
  text: string | null;
}

/** A sync request: the project (a wing), the pushed changes and the versions the member holds. */
export interface MemorySyncRequest {
  project: string;
  changes: MemoryChange[];
  /** Version of each file the member last synced (files absent: never synced). */
  known: Record<string, number>;
  /** Compute the outcome, store nothing. Default false. */
  dryRun?: boolean;
}

/**
 * What happened to one file: `accepted` (the member's change is the new version), `merged` (both
 * changed, merged cleanly), `conflict` (merged with conflict blocks), `kept` (the member deleted a
 * file someone else changed: it stays), `deleted` (the file is gone everywhere), `pulled` (someone
 * else's newer version), `unchanged`, `refused` (not a shareable memory).
 */
type MemoryOutcomeStatus = 'accepted' | 'merged' | 'conflict' | 'kept' | 'deleted' | 'pulled' | 'unchanged' | 'refused';

/** The outcome for one file: the member writes `text` (deletes the file when null) and records `version`. */
export interface MemoryOutcome {
  file: string;
  status: MemoryOutcomeStatus;
  version: number;
  text: string | null;
  /** Conflict blocks in `text` (status `conflict`). */
  conflicts?: number;
  /** Why (status `refused`). */
  reason?: string;
}

/** The answer to a {@link MemorySyncRequest}. */
export interface MemorySyncResponse {
  project: string;
  outcomes: MemoryOutcome[];
  dryRun: boolean;
}

/** Largest memory file accepted, in characters. */
const MAX_MEMORY_CHARS = 256 * 1024;

/** Throws INVALID_ARGUMENT unless `file` is a safe relative `.md` path (no `..`, not MEMORY.md). */
export function checkMemoryFile(file: string): string {
  const parts = file.split('/');
  const ok =
    typeof file === 'string' &&
    file.length <= 300 &&
    file.endsWith('.md') &&
    parts.length <= 4 &&
    parts.every((p) => p !== '' && p !== '.' && p !== '..' && !p.startsWith('.') && !/[\\\0:]/.test(p)) &&
    file !== 'MEMORY.md';
  if (!ok)
    throw createError('INVALID_ARGUMENT', {
      name: 'memory file',
      value: file,
      expected: 'a relative path of a topic file such as reference_ci.md or team/project_x.md',
    });
  return file;
}

/** Why `text` may not be shared, or undefined when it may (reference, or project marked team). */
export function unshareable(text: string, file: string): string | undefined {
  const t = parseTopicFile(text, file);
  if (t.type !== 'reference' && t.type !== 'project')
    return `only reference and project memories are shared (this one is ${t.type ?? 'untyped'})`;
  if (effectivePrivacy(t.type, t.declaredPrivacy, t.team) !== 'team')
    return 'a project memory is shared only when marked team (metadata.privacy: team, or under team/)';
  if (text.length > MAX_MEMORY_CHARS) return `it is over ${MAX_MEMORY_CHARS} characters`;
  return undefined;
}

/** Decides one change against the server's newest version: the version to append (if any) and the outcome. */
async function decide(
  store: TeamStore,
  p: TeamPrincipal,
  project: string,
  c: MemoryChange,
  cur: TeamMemoryVersion | undefined,
): Promise<{ write?: string | null; status: MemoryOutcomeStatus; text: string | null; conflicts?: number }> {
  const curV = cur?.version ?? 0;
  const theirs = cur ? cur.text : null;
  if (c.base === curV) {
    if (c.text === theirs) return { status: c.text === null ? 'deleted' : 'unchanged', text: theirs };
    return { write: c.text, status: c.text === null ? 'deleted' : 'accepted', text: c.text };
  }
  const ancestor = c.base > 0 ? ((await store.memoryVersion(project, c.file, c.base))?.text ?? '') : '';
  if (c.text === null) {
    if (theirs === null) return { status: 'deleted', text: null };
    return theirs === ancestor ? { write: null, status: 'deleted', text: null } : { status: 'kept', text: theirs };
  }
  if (theirs === null)
    return c.text === ancestor
      ? { status: 'deleted', text: null }
      : { write: c.text, status: 'accepted', text: c.text };
  const m = merge3(ancestor, c.text, theirs, { ours: p.user, theirs: `${cur!.author} (team v${curV})` });
  if (m.text === theirs) return { status: 'pulled', text: theirs };
  return { write: m.text, status: m.conflicts ? 'conflict' : 'merged', text: m.text, conflicts: m.conflicts };
}

/** Applies a member's sync request (see the module comment). Needs `write` on the project to push, `read` to pull. */
export async function applyMemorySync(
  store: TeamStore,
  p: TeamPrincipal,
  req: MemorySyncRequest,
  clock: Clock,
): Promise<MemorySyncResponse> {
  const project = req.project;
  requireRight(p, project, req.changes.length ? 'write' : 'read');
  const audit = auditor(store, p, clock);
  const outcomes: MemoryOutcome[] = [];
  const touched = new Set<string>();
  for (const given of req.changes) {
    checkMemoryFile(given.file);
    // Defence in depth: whatever a client sends, no credential is stored.
    const c = given.text === null ? given : { ...given, text: redactSecrets(given.text).text };
    touched.add(c.file);
    const reason = c.text === null ? undefined : unshareable(c.text, c.file);
    if (reason) {
      const cur = await store.latestMemory(project, c.file);
      outcomes.push({ file: c.file, status: 'refused', version: cur?.version ?? 0, text: cur?.text ?? null, reason });
      continue;
    }
    for (let attempt = 0; ; attempt++) {
      const cur = await store.latestMemory(project, c.file);
      const d = await decide(store, p, project, c, cur);
      const curV = cur?.version ?? 0;
      const out = { file: c.file, status: d.status, text: d.text, ...(d.conflicts ? { conflicts: d.conflicts } : {}) };
      if (d.write === undefined || req.dryRun) {
        outcomes.push({ ...out, version: d.write === undefined ? curV : curV + 1 });
        break;
      }
      const entry = { project, file: c.file, text: d.write, author: p.user, at: isoAt(clock.now()) };
      if (await store.commitMemory(entry, curV)) {
        await audit('memory.sync', project, c.file, { version: curV + 1, status: d.status });
        outcomes.push({ ...out, version: curV + 1 });
        break;
      }
      if (attempt >= 20) throw createError('INTERNAL', { what: `memory ${c.file} kept changing during sync` });
    }
  }
  for (const doc of await store.listMemories(project)) {
    if (touched.has(doc.file) || req.known[doc.file] === doc.version) continue;
    if (doc.text === null && req.known[doc.file] === undefined) continue;
    outcomes.push({
      file: doc.file,
      status: doc.text === null ? 'deleted' : 'pulled',
      version: doc.version,
      text: doc.text,
    });
  }
  return { project, outcomes, dryRun: req.dryRun ?? false };
}
