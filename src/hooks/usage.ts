/**
 * @module hooks/usage
 * Usage statistics for the wake-up's `use` factor: how often each drawer or memory file was
 * recalled. Stored in the palace database, table `usage` (schema migration 4):
 *
 * ```sql
 * CREATE TABLE usage (item TEXT PRIMARY KEY, uses INTEGER NOT NULL, last_used TEXT NOT NULL) WITHOUT ROWID
 * ```
 *
 * `item` is `drawer:<drawer id>` or `memory:<absolute path of the memory file>`. Writes are one
 * `BEGIN IMMEDIATE` transaction per call. A palace without SQLite (an in-memory store) keeps the
 * counts in memory for its lifetime. Usage is bookkeeping: it never enters the searchable space.
 * Callers: the user-prompt-submit hook (every injected memory and drawer), and any front end that
 * reads an item on purpose (the MCP server may call {@link recordUsage}).
 */
import type { Palace } from '../index.js';

/** One usage row. */
export interface UsageRecord {
  /** `drawer:<id>` or `memory:<absolute path>`. */
  item: string;
  /** Times recalled. */
  uses: number;
  /** ISO-8601 time of the last use. */
  lastUsed: string;
}

/** What was used: a drawer id, or a memory file's absolute path. */
export type UsageItem = { kind: 'drawer'; id: string } | { kind: 'memory'; path: string };

interface Stmt {
  run(...a: unknown[]): unknown;
  all(...a: unknown[]): unknown[];
}
interface Db {
  prepare(sql: string): Stmt;
  transaction(fn: () => void): { immediate(): void };
  pragma(sql: string, opts?: { simple: boolean }): unknown;
}

/** How long a usage write waits for another writer before it is skipped, in ms. */
export const USAGE_WAIT_MS = 250;

const memoryCounts = new WeakMap<object, Map<string, UsageRecord>>();

function dbOf(palace: Pick<Palace, 'store'>): Db | null {
  const db = (palace as { internals?: { db?: unknown } }).internals?.db;
  return db && typeof (db as Db).prepare === 'function' ? (db as Db) : null;
}

function counts(palace: object): Map<string, UsageRecord> {
  let m = memoryCounts.get(palace);
  if (!m) memoryCounts.set(palace, (m = new Map()));
  return m;
}

/** The usage key of an item. */
export function usageKey(item: UsageItem): string {
  return item.kind === 'drawer' ? `drawer:${item.id}` : `memory:${item.path}`;
}

/**
 * Adds one use to each item (duplicates in one call count once). Returns how many items were
 * recorded; 0 when the palace has no usage table (an older schema) or another process holds the
 * write lock for longer than `waitMs` (default 250 ms: usage is best-effort and must never make a
 * hook wait for a long write) — never throws for those.
 */
export async function recordUsage(palace: Pick<Palace, 'store'>, items: readonly UsageItem[], now = Date.now(), waitMs = USAGE_WAIT_MS): Promise<number> {
  const keys = [...new Set(items.map(usageKey))];
  if (keys.length === 0) return 0;
  const at = new Date(now).toISOString();
  const db = dbOf(palace);
  if (!db) {
    const m = counts(palace);
    for (const k of keys) m.set(k, { item: k, uses: (m.get(k)?.uses ?? 0) + 1, lastUsed: at });
    return keys.length;
  }
  const before = Number(db.pragma('busy_timeout', { simple: true })) || 0;
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(waitMs))}`);
    const up = db.prepare('INSERT INTO usage (item, uses, last_used) VALUES (?, 1, ?) ON CONFLICT(item) DO UPDATE SET uses = uses + 1, last_used = excluded.last_used');
    db.transaction(() => {
      for (const k of keys) up.run(k, at);
    }).immediate();
    return keys.length;
  } catch (e) {
    const code = String((e as { code?: unknown }).code ?? '');
    if (/no such table/i.test((e as Error).message) || code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 0;
    throw e;
  } finally {
    db.pragma(`busy_timeout = ${before}`);
  }
}

function rows(raw: unknown[]): UsageRecord[] {
  return (raw as { item: string; uses: number; last_used: string }[]).map((r) => ({ item: r.item, uses: r.uses, lastUsed: r.last_used }));
}

/** Usage of the given keys (missing keys: never used). */
export async function readUsage(palace: Pick<Palace, 'store'>, keys: readonly string[]): Promise<Map<string, UsageRecord>> {
  const out = new Map<string, UsageRecord>();
  const db = dbOf(palace);
  if (!db) {
    const m = counts(palace);
    for (const k of keys) {
      const r = m.get(k);
      if (r) out.set(k, r);
    }
    return out;
  }
  try {
    for (let i = 0; i < keys.length; i += 500) {
      const part = keys.slice(i, i + 500);
      for (const r of rows(db.prepare(`SELECT item, uses, last_used FROM usage WHERE item IN (${part.map(() => '?').join(',')})`).all(...part))) out.set(r.item, r);
    }
  } catch (e) {
    if (!/no such table/i.test((e as Error).message)) throw e;
  }
  return out;
}

/** The most used items whose key starts with `prefix` (`drawer:` or `memory:`), most used first. */
export async function topUsage(palace: Pick<Palace, 'store'>, prefix: 'drawer:' | 'memory:', limit: number): Promise<UsageRecord[]> {
  const db = dbOf(palace);
  if (!db) {
    return [...counts(palace).values()]
      .filter((r) => r.item.startsWith(prefix))
      .sort((a, b) => b.uses - a.uses || b.lastUsed.localeCompare(a.lastUsed))
      .slice(0, limit);
  }
  try {
    const hi = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
    return rows(db.prepare('SELECT item, uses, last_used FROM usage WHERE item >= ? AND item < ? ORDER BY uses DESC, last_used DESC LIMIT ?').all(prefix, hi, limit));
  } catch (e) {
    if (/no such table/i.test((e as Error).message)) return [];
    throw e;
  }
}
