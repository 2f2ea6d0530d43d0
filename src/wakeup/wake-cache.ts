/**
 * @module wakeup/wake-cache
 * A cache of wake-up drafts so that `session-start` answers without loading the library or
 * opening SQLite (see `hooks/light-core.ts` for the start-up costs).
 *
 * An entry (`<LOCI_HOME>/cache/wake-up/<key>.json`, key = hash of home, cwd, wing and budget)
 * holds the ranked, escaped lines and the **signatures** of everything they were computed from:
 * `palace.db` and `palace.db-wal` (size + mtime: any committed write changes one of them), the
 * identity files, the memory directory's tree (names, sizes, mtimes of every file, so an in-place
 * edit counts) and whether Claude Code's memory and project folders exist (which decides the
 * memory directory). Recall's usage counts go to a journal (`usage.ts`), not the palace, so they
 * leave entries valid. It is used only when every signature still matches and it is less than 12
 * hours old; ages are rendered at use time (`wake-render.ts`). Writers (the `session-start` slow
 * path, the hook worker after archiving, `loci wake-up`) snapshot the signatures **after** closing
 * the palace, since closing may checkpoint the WAL. Version 2 (drafts with sessions and an
 * orientation); entries of another version are ignored. Node built-ins, leaf `core` modules and
 * `wake-render.ts` only (the hook fast path imports this module).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../core/fs-safe.js';
import { sha256Hex as sha256 } from '../core/light-hash.js';
import { homePaths } from '../core/env.js';
import {
  CHARS_PER_TOKEN,
  DEFAULT_WAKE_TOKENS,
  draftHasContent,
  renderWakeUp,
  type WakeUpDraft,
} from './wake-render.js';

/** Entries older than this are not used, in ms. */
const WAKE_CACHE_TTL_MS = 12 * 3_600_000;

/** A file or folder the draft depends on. */
export interface WakeDep {
  path: string;
  /** `file` (size + mtime), `tree` (every file below, depth ≤ 4), `exists` (presence only). */
  kind: 'file' | 'tree' | 'exists';
}

/** What `session-start` needs besides the draft. */
interface WakeCacheEntry {
  v: 2;
  key: string;
  createdAt: number;
  deps: { dep: WakeDep; sig: string }[];
  draft: WakeUpDraft;
}

/** The cache key of a wake-up request. */
function wakeCacheKey(home: string, cwd: string, wing: string | undefined, maxTokens: number): string {
  return sha256(JSON.stringify([resolve(home), resolve(cwd), wing ?? null, maxTokens])).slice(0, 24);
}

/** The file of an entry. */
function wakeCachePath(home: string, key: string): string {
  return join(home, 'cache', 'wake-up', `${key}.json`);
}

/** The palace and identity files every wake-up depends on. */
export function homeDeps(home: string): WakeDep[] {
  const db = homePaths(home).db;
  return [
    { path: db, kind: 'file' },
    { path: `${db}-wal`, kind: 'file' },
    { path: join(home, 'identity.md'), kind: 'file' },
    { path: join(home, 'identity.txt'), kind: 'file' },
  ];
}

function treeSig(dir: string, depth = 0, parts: string[] = []): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    parts.push(depth === 0 ? 'absent' : `!${dir}`);
    return parts;
  }
  for (const n of names) {
    const p = join(dir, n);
    try {
      const st = statSync(p);
      if (st.isDirectory()) {
        if (depth < 4) treeSig(p, depth + 1, parts);
      } else parts.push(`${p}:${st.size}:${st.mtimeMs}`);
    } catch {
      // vanished
    }
  }
  return parts;
}

/** The current signature of a dependency. */
function depSignature(dep: WakeDep): string {
  if (dep.kind === 'tree') return sha256(treeSig(dep.path).join('\n')).slice(0, 32);
  try {
    const st = statSync(dep.path);
    return dep.kind === 'exists' ? 'yes' : `${st.size}:${st.mtimeMs}`;
  } catch {
    return 'absent';
  }
}

/** Writes an entry, snapshotting the signatures of `deps` now. Never throws (returns false). */
function writeWakeCache(home: string, key: string, draft: WakeUpDraft, deps: WakeDep[]): boolean {
  const entry: WakeCacheEntry = {
    v: 2,
    key,
    createdAt: Date.now(),
    deps: deps.map((dep) => ({ dep, sig: depSignature(dep) })),
    draft,
  };
  try {
    writeFileAtomic(wakeCachePath(home, key), JSON.stringify(entry), 0o600);
    return true;
  } catch {
    return false;
  }
}

/** The cached draft when it is fresh and every dependency is unchanged; else undefined. */
function readWakeCache(home: string, key: string, now = Date.now()): WakeUpDraft | undefined {
  let e: WakeCacheEntry;
  try {
    e = JSON.parse(readFileSync(wakeCachePath(home, key), 'utf8')) as WakeCacheEntry;
  } catch {
    return undefined;
  }
  if (!e || e.v !== 2 || e.key !== key || !Array.isArray(e.deps) || !e.draft || typeof e.createdAt !== 'number')
    return undefined;
  if (now - e.createdAt > WAKE_CACHE_TTL_MS || e.createdAt > now + 60_000) return undefined;
  for (const d of e.deps) if (!d?.dep || depSignature(d.dep) !== d.sig) return undefined;
  return e.draft;
}

/**
 * Saves a computed wake-up (`planWakeUp`) as the cache entry of `cwd` that the `session-start`
 * hook reads (key: home, cwd, no forced wing, the draft's token budget). Call it after the palace
 * is closed: closing may checkpoint the WAL, which changes the signatures. Never throws.
 */
export function cacheWakeUpPlan(home: string, cwd: string, plan: { draft: WakeUpDraft; deps: WakeDep[] }): boolean {
  const tokens = Math.round(plan.draft.maxChars / CHARS_PER_TOKEN);
  return writeWakeCache(home, wakeCacheKey(home, cwd, undefined, tokens), plan.draft, plan.deps);
}

/**
 * The `session-start` wake-up text of `cwd` from the cache, rendered now (true ages): '' when the
 * cached wake-up has nothing to say, undefined when there is no fresh entry (compute it). Default
 * budget (800 tokens). Loads no library module.
 */
export function cachedWakeUpText(home: string, cwd: string, now = Date.now()): string | undefined {
  const draft = readWakeCache(home, wakeCacheKey(home, cwd, undefined, DEFAULT_WAKE_TOKENS), now);
  if (!draft) return undefined;
  return draftHasContent(draft) ? renderWakeUp(draft, now).text : '';
}
