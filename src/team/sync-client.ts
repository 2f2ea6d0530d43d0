/**
 * @module team/sync-client
 * The member's side of `loci memory sync`: finds what changed in the memory folder since the last
 * sync (a state file per server and project in the Loci home records the version and hash of each
 * file as last synced), pushes it, writes what the server answers (merged, pulled, deleted) and
 * rebuilds MEMORY.md. Only `reference` memories and `project` memories marked team are read and
 * sent (`exportMemories` with the team audience, then the type rule); `user` and `feedback`
 * memories never leave the machine, secrets in the others are redacted before they are sent (and
 * the file here is rewritten redacted), and a pulled file never replaces a local file that is not
 * shareable.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createError } from '../core/errors.js';
import { writeFileAtomic } from '../core/fs-safe.js';
import { sha256 } from '../core/hash.js';
import { readJsonObjectFile } from '../core/json-file.js';
import { exportMemories, rebuildIndex } from '../memdir/index.js';
import { redactSecrets } from '../redact/index.js';
import {
  checkMemoryFile,
  unshareable,
  type MemoryChange,
  type MemoryOutcome,
  type MemorySyncRequest,
  type MemorySyncResponse,
} from './memory-sync.js';

/** Options of {@link syncMemoryDir}. */
interface SyncMemoryDirOptions {
  /** The memory folder (Claude Code's, or Loci's; see `selectMemoryDir`). */
  dir: string;
  /** The project on the server: its wing. */
  project: string;
  /** Sends the request to the server (the HTTP client's `memorySync`). */
  send: (req: MemorySyncRequest) => Promise<MemorySyncResponse>;
  /** The state file of this server and project. */
  statePath: string;
  /** Show what would happen; write nothing, here or on the server. Default false. */
  dryRun?: boolean;
}

/** What one sync did. */
interface MemorySyncReport {
  project: string;
  dryRun: boolean;
  /** Files sent (new, changed or deleted locally). */
  pushed: string[];
  /** Files written or deleted here from the server's answer. */
  written: string[];
  /** Files merged with conflict blocks left to resolve by hand (`<<<<<<<` … `>>>>>>>`). */
  conflicts: string[];
  /** Files not written here because the local file is private (not shareable). */
  skipped: string[];
  outcomes: MemoryOutcome[];
}

interface SyncState {
  files: Record<string, { version: number; hash: string }>;
}

function readState(path: string): SyncState {
  const raw = readJsonObjectFile(path, (reason) => createError('CONFIG_INVALID', { path, reason })).doc;
  const files = (raw['files'] ?? {}) as SyncState['files'];
  return { files: typeof files === 'object' && files !== null ? { ...files } : {} };
}

/** The state file of `server` and `project` under the Loci home. */
export function syncStatePath(home: string, server: string, project: string): string {
  return join(home, 'team-sync', `${sha256(`${server}\0${project}`).slice(0, 16)}.json`);
}

/** Pushes local changes of shareable memories, applies the server's answer (see the module comment). */
export async function syncMemoryDir(o: SyncMemoryDirOptions): Promise<MemorySyncReport> {
  const state = readState(o.statePath);
  const local = new Map<string, string>();
  if (existsSync(o.dir))
    for (const m of exportMemories(o.dir, { audience: 'team' }))
      if (!unshareable(m.text, m.file)) local.set(m.file, m.text);
  const changes: MemoryChange[] = [];
  for (const [file, raw] of local) {
    // Secrets never leave the machine: the pushed text is redacted (and written back redacted).
    const text = redactSecrets(raw).text;
    const st = state.files[file];
    if (!st) changes.push({ file, base: 0, text });
    else if (sha256(raw) !== st.hash) changes.push({ file, base: st.version, text });
  }
  for (const [file, st] of Object.entries(state.files)) {
    if (local.has(file)) continue;
    // Gone: a deletion. Still there but no longer shareable: it simply stops syncing.
    if (!existsSync(join(o.dir, file))) changes.push({ file, base: st.version, text: null });
    else delete state.files[file];
  }
  const known = Object.fromEntries(Object.entries(state.files).map(([f, s]) => [f, s.version]));
  const dryRun = o.dryRun ?? false;
  const res = await o.send({ project: o.project, changes, known, ...(dryRun ? { dryRun } : {}) });
  const report: MemorySyncReport = {
    project: o.project,
    dryRun,
    pushed: changes.map((c) => c.file),
    written: [],
    conflicts: [],
    skipped: [],
    outcomes: res.outcomes,
  };
  for (const out of res.outcomes) {
    if (out.status === 'conflict') report.conflicts.push(out.file);
    if (out.status === 'refused') continue;
    const file = checkMemoryFile(out.file);
    const path = join(o.dir, file);
    const here = local.get(file) ?? (existsSync(path) ? readFileSync(path, 'utf8') : undefined);
    if (here !== undefined && !local.has(file) && !state.files[file] && out.text !== null) {
      report.skipped.push(file); // a private file of the same name: never replaced
      continue;
    }
    if (out.text === null) {
      // A tombstone removes only a file this folder synced before.
      if (here !== undefined && state.files[file]) {
        report.written.push(file);
        if (!dryRun) rmSync(path, { force: true });
      }
      delete state.files[file];
      continue;
    }
    if (here !== out.text) {
      report.written.push(file);
      if (!dryRun) {
        mkdirSync(join(path, '..'), { recursive: true });
        writeFileAtomic(path, out.text);
      }
    }
    state.files[file] = { version: out.version, hash: sha256(out.text) };
  }
  if (!dryRun) {
    if (report.written.length) rebuildIndex(o.dir);
    writeFileAtomic(o.statePath, JSON.stringify({ project: o.project, files: state.files }, null, 2) + '\n');
  }
  return report;
}
