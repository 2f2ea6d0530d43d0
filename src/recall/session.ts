/**
 * @module recall/session
 * Per-session recall state shared by separate hook processes: which memory files and drawers were
 * already injected and how many bytes, in `<LOCI_HOME>/sessions/<session-id>.json`. Written with
 * `writeFileAtomic` (mode 0600) after re-reading the file, so concurrent hooks of one session lose
 * at most a sub-millisecond race; read tolerantly (missing, corrupt or expired → fresh state,
 * logged); files untouched for 7 days are pruned.
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock, isoAt, type Clock } from '../core/clock.js';
import { writeFileAtomic } from '../core/fs-safe.js';
import { sha256 } from '../core/hash.js';
import { silentLogger, type Logger } from '../core/logger.js';
import { RECALL_LIMITS, type RecallBudgets, type RecallSessionState } from './types.js';

const DAY_MS = 86_400_000;
const VERSION = 1;
/** Most files and drawer ids remembered per session (older ones are forgotten first). */
const MAX_IDS = 2_000;

/** Options of the session functions. */
interface SessionOptions {
  /** Where corrupt files and failed writes are reported. Default silent. */
  logger?: Logger | undefined;
  /** Time source. Default the system clock. */
  clock?: Clock | undefined;
  /** Sessions untouched for longer are ignored and pruned, in days. Default 7; 0 … 3,650. */
  ttlDays?: number | undefined;
}

/** What one injection adds to a session. */
interface SurfacedRecord {
  /** Memory files injected (relative to the memory directory). */
  files?: Iterable<string> | undefined;
  /** Palace drawer ids injected. */
  drawers?: Iterable<string> | undefined;
  /** UTF-8 bytes injected (the whole text). Default 0. */
  bytes?: number | undefined;
}

/** The sessions folder of a Loci home. */
function sessionsDir(home: string): string {
  return join(home, 'sessions');
}

/**
 * The state file of a session. Ids made of `[A-Za-z0-9_.-]` (Claude Code's UUIDs) are used as
 * they are; any other id is replaced by a hash, so an id can never escape the folder.
 */
export function sessionPath(home: string, sessionId: string): string {
  const safe = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$/.test(sessionId)
    ? sessionId
    : `s-${sha256(sessionId).slice(0, 32)}`;
  return join(sessionsDir(home), `${safe}.json`);
}

/** A new, empty state. */
function freshSession(sessionId: string, now: number): RecallSessionState {
  const t = isoAt(now);
  return { id: sessionId, surfaced: new Set(), drawers: new Set(), bytes: 0, turns: 0, createdAt: t, updatedAt: t };
}

function strings(v: unknown): string[] | undefined {
  return Array.isArray(v) && v.every((s) => typeof s === 'string') ? (v as string[]) : undefined;
}

function parse(text: string, sessionId: string): RecallSessionState | string {
  let j: unknown;
  try {
    j = JSON.parse(text);
  } catch (e) {
    return `not JSON (${(e as Error).message})`;
  }
  if (!j || typeof j !== 'object') return 'not an object';
  const o = j as Record<string, unknown>;
  const surfaced = strings(o['surfaced']);
  const drawers = strings(o['drawers'] ?? []);
  const bytes = o['bytes'];
  const turns = o['turns'] ?? 0;
  if (o['version'] !== VERSION) return `unknown version ${JSON.stringify(o['version'])}`;
  if (!surfaced || !drawers) return 'surfaced/drawers are not lists of strings';
  if (typeof bytes !== 'number' || !Number.isFinite(bytes) || bytes < 0) return 'bytes is not a non-negative number';
  if (typeof turns !== 'number' || !Number.isFinite(turns) || turns < 0) return 'turns is not a non-negative number';
  const createdAt = typeof o['createdAt'] === 'string' ? o['createdAt'] : '';
  const updatedAt = typeof o['updatedAt'] === 'string' ? o['updatedAt'] : createdAt;
  if (!Number.isFinite(Date.parse(updatedAt))) return 'updatedAt is not a date';
  return {
    id: sessionId,
    surfaced: new Set(surfaced),
    drawers: new Set(drawers),
    bytes,
    turns,
    createdAt: createdAt || updatedAt,
    updatedAt,
  };
}

function ttlMs(o: SessionOptions): number {
  const d = o.ttlDays ?? RECALL_LIMITS.sessionTtlDays;
  return Math.min(3_650, Math.max(0, Number.isFinite(d) ? d : RECALL_LIMITS.sessionTtlDays)) * DAY_MS;
}

/**
 * The recall state of a session. Never throws: a missing file gives a fresh state; a corrupt one
 * (bad JSON or shape) a fresh state and a warning; one last updated more than `ttlDays` ago
 * (default 7) a fresh state.
 */
export function loadRecallSession(home: string, sessionId: string, o: SessionOptions = {}): RecallSessionState {
  const now = (o.clock ?? systemClock).now();
  const path = sessionPath(home, sessionId);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
      (o.logger ?? silentLogger).log('warn', 'recall: cannot read session state; starting fresh', {
        path,
        error: (e as Error).message,
      });
    return freshSession(sessionId, now);
  }
  const s = parse(text, sessionId);
  if (typeof s === 'string') {
    (o.logger ?? silentLogger).log('warn', 'recall: corrupt session state ignored; starting fresh', {
      path,
      reason: s,
    });
    return freshSession(sessionId, now);
  }
  if (now - Date.parse(s.updatedAt) > ttlMs(o)) return freshSession(sessionId, now);
  return s;
}

function serialise(s: RecallSessionState): string {
  const last = (set: Set<string>) => [...set].slice(-MAX_IDS);
  const doc = {
    version: VERSION,
    id: s.id,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    bytes: s.bytes,
    turns: s.turns,
    surfaced: last(s.surfaced),
    drawers: last(s.drawers),
  };
  return `${JSON.stringify(doc, null, 1)}\n`;
}

/**
 * Adds one injection to a session and persists it: re-reads the file, merges (set union, bytes
 * added, one more turn), writes atomically, and prunes expired sessions when the file is new.
 * Returns the merged state. Never throws: a failed write is logged and the merged state returned.
 */
export function recordSurfaced(
  home: string,
  sessionId: string,
  rec: SurfacedRecord,
  o: SessionOptions = {},
): RecallSessionState {
  const now = (o.clock ?? systemClock).now();
  const path = sessionPath(home, sessionId);
  const s = loadRecallSession(home, sessionId, o);
  const isNew = s.turns === 0 && s.bytes === 0 && s.surfaced.size === 0;
  for (const f of rec.files ?? []) s.surfaced.add(f);
  for (const d of rec.drawers ?? []) s.drawers.add(d);
  const bytes = rec.bytes ?? 0;
  s.bytes += Number.isFinite(bytes) && bytes > 0 ? bytes : 0;
  s.turns += 1;
  s.updatedAt = isoAt(now);
  try {
    writeFileAtomic(path, serialise(s), 0o600);
  } catch (e) {
    (o.logger ?? silentLogger).log('error', 'recall: cannot write session state', {
      path,
      error: (e as Error).message,
    });
  }
  if (isNew) pruneRecallSessions(home, o);
  return s;
}

/**
 * Deletes session files (and stray temp files) not modified for `ttlDays` (default 7). Returns
 * how many were removed. Never throws.
 */
export function pruneRecallSessions(home: string, o: SessionOptions = {}): number {
  const now = (o.clock ?? systemClock).now();
  const dir = sessionsDir(home);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.endsWith('.json') && !name.endsWith('.tmp')) continue;
    const p = join(dir, name);
    try {
      if (now - statSync(p).mtimeMs > ttlMs(o)) {
        rmSync(p, { force: true });
        removed++;
      }
    } catch {
      // vanished meanwhile
    }
  }
  return removed;
}

/** Bytes a session may still inject under `budgets.sessionBytes` (default 60 KB); never negative. */
export function sessionBytesLeft(s: RecallSessionState | undefined, budgets: Partial<RecallBudgets> = {}): number {
  return Math.max(0, (budgets.sessionBytes ?? RECALL_LIMITS.sessionBytes) - (s?.bytes ?? 0));
}
