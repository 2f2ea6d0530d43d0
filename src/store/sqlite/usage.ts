/**
 * @module store/sqlite/usage
 * Usage counts of the SQLite drawer store: table `usage` (schema migration 4), one `BEGIN
 * IMMEDIATE` transaction per write. A write waits at most `waitMs` for another writer (the busy
 * timeout is lowered for that write only and restored) and is skipped, not thrown, when it cannot
 * get the lock: usage is best-effort and must never make a hook wait for a long write.
 */
import type Database from 'better-sqlite3';
import type { MemoryStore, UsageRecord } from '../ports.js';

const UPSERT =
  'INSERT INTO usage (item, uses, last_used) VALUES (?, 1, ?) ON CONFLICT(item) DO UPDATE SET uses = uses + 1, ' +
  'last_used = excluded.last_used';

function rows(raw: unknown[]): UsageRecord[] {
  return (raw as { item: string; uses: number; last_used: string }[]).map((r) => ({
    item: r.item,
    uses: r.uses,
    lastUsed: r.last_used,
  }));
}

const noTable = (e: unknown): boolean => /no such table/i.test((e as Error).message);

/** The usage methods of {@link MemoryStore} over an open palace database. */
export function sqliteUsage(db: Database.Database): Pick<MemoryStore, 'recordUsage' | 'readUsage' | 'topUsage'> {
  return {
    async recordUsage(items, at, opts = {}) {
      const keys = [...new Set(items)];
      if (keys.length === 0) return 0;
      const before = Number(db.pragma('busy_timeout', { simple: true })) || 0;
      try {
        if (opts.waitMs !== undefined) db.pragma(`busy_timeout = ${Math.max(0, Math.floor(opts.waitMs))}`);
        const up = db.prepare(UPSERT);
        db.transaction(() => {
          for (const k of keys) up.run(k, at);
        }).immediate();
        return keys.length;
      } catch (e) {
        const code = String((e as { code?: unknown }).code ?? '');
        if (noTable(e) || code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 0;
        throw e;
      } finally {
        if (opts.waitMs !== undefined) db.pragma(`busy_timeout = ${before}`);
      }
    },
    async readUsage(list) {
      const items = [...new Set(list)];
      const out: UsageRecord[] = [];
      try {
        for (let i = 0; i < items.length; i += 500) {
          const part = items.slice(i, i + 500);
          out.push(
            ...rows(
              db
                .prepare(`SELECT item, uses, last_used FROM usage WHERE item IN (${part.map(() => '?').join(',')})`)
                .all(...part),
            ),
          );
        }
      } catch (e) {
        if (!noTable(e)) throw e;
      }
      return out;
    },
    async topUsage(prefix, limit) {
      try {
        // A key range (uses the primary key): [prefix, prefix with its last character + 1).
        if (prefix === '')
          return rows(
            db.prepare('SELECT item, uses, last_used FROM usage ORDER BY uses DESC, last_used DESC LIMIT ?').all(limit),
          );
        const hi = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
        const sql =
          'SELECT item, uses, last_used FROM usage WHERE item >= ? AND item < ? ORDER BY uses DESC, last_used DESC ' +
          'LIMIT ?';
        return rows(db.prepare(sql).all(prefix, hi, limit));
      } catch (e) {
        if (noTable(e)) return [];
        throw e;
      }
    },
  };
}
