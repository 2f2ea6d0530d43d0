/**
 * @module store/sqlite/feed
 * The drawer feed and the bookkeeping values of the SQLite drawer store: drawers in `rid` order
 * (AUTOINCREMENT, so a position is never reused) and the `meta` table with a compare-and-swap in
 * one `BEGIN IMMEDIATE` transaction.
 */
import type Database from 'better-sqlite3';
import type { FedDrawer, MemoryStore } from '../ports.js';

/** The feed and meta methods of {@link MemoryStore} over an open palace database. */
export function sqliteFeed(
  db: Database.Database,
  wrap: <T>(fn: () => T) => T,
  tx: <T>(fn: () => T) => T,
): Pick<MemoryStore, 'feedAfter' | 'feedRange' | 'getMeta' | 'casMeta'> {
  let s:
    | { after: Database.Statement; range: Database.Statement; get: Database.Statement; put: Database.Statement }
    | undefined;
  const st = () =>
    (s ??= {
      after: db.prepare('SELECT rid AS seq, id FROM drawers WHERE rid > ? ORDER BY rid LIMIT ?'),
      range: db.prepare(
        'SELECT id, wing, room, source, content_date AS contentDate, metadata, text FROM drawers WHERE rid > ? AND ' +
          'rid <= ? ORDER BY rid',
      ),
      get: db.prepare('SELECT value FROM meta WHERE key = ?').pluck(),
      put: db.prepare(
        'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ),
    });
  return {
    async feedAfter(after, limit) {
      return wrap(() => st().after.all(after, limit ?? -1) as { seq: number; id: string }[]);
    },
    async feedRange(after, upTo) {
      return wrap(() => {
        const rows = st().range.all(after, upTo) as (Omit<FedDrawer, 'metadata'> & { metadata: string })[];
        return rows.map((r) => ({ ...r, metadata: JSON.parse(r.metadata) as Record<string, unknown> }));
      });
    },
    async getMeta(key) {
      return wrap(() => st().get.get(key) as string | undefined);
    },
    async casMeta(key, expected, value) {
      return tx(() => {
        if ((st().get.get(key) as string | undefined) !== expected) return false;
        st().put.run(key, value);
        return true;
      });
    },
  };
}
