/**
 * @module store/sqlite/vector-store
 * SQLite adapter of the vector port: vectors in a sqlite-vec `vec0` table in the palace file
 * (cosine distance, the drawer's wing as partition key), keyed by the drawer's integer `rid`.
 * The table is per model; switching models drops it. Which drawers still need a vector is tracked
 * with a high-water mark on `rid` (drawers only get new, larger rids), plus explicit removal when a
 * drawer's text changes.
 */
import type Database from 'better-sqlite3';
import { createRequire } from 'node:module';
import { createError } from '../../core/errors.js';
import { sha256 } from '../../core/hash.js';
import type { PendingDrawer, VectorStore } from '../vector-port.js';
import { mapSqliteError } from './driver.js';

const require = createRequire(import.meta.url);

/** Loads sqlite-vec into `db`. Throws MODULE_MISSING when the extension cannot be loaded. */
export function loadSqliteVec(db: Database.Database): void {
  try {
    (require('sqlite-vec') as { load: (db: unknown) => void }).load(db);
  } catch (e) {
    throw createError('MODULE_MISSING', { module: 'sqlite-vec', feature: 'vector search' }, e);
  }
}

interface ModelRow {
  model: string;
  dims: number;
  tbl: string;
  hwm: number;
}

/** Wraps an open palace database (with sqlite-vec loaded) as a {@link VectorStore}. */
export function createSqliteVectorStore(db: Database.Database, path: string): VectorStore {
  const wrap = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (e) {
      throw mapSqliteError(e, path);
    }
  };
  const current = () =>
    db.prepare('SELECT model, dims, tbl, hwm FROM vector_models WHERE active = 1').get() as ModelRow | undefined;

  return {
    kind: 'sqlite-vec',

    async useModel(model, dims) {
      return wrap(() =>
        db
          .transaction(() => {
            const cur = current();
            if (cur && cur.model === model && cur.dims === dims) return { rebuild: false, previous: model };
            if (cur) {
              db.exec(`DROP TABLE IF EXISTS "${cur.tbl}"`);
              db.prepare('DELETE FROM vector_models WHERE model = ?').run(cur.model);
            }
            const tbl = `vec_${sha256(`${model}@${dims}`).slice(0, 12)}`;
            db.exec(`DROP TABLE IF EXISTS "${tbl}"`);
            db.exec(
              `CREATE VIRTUAL TABLE "${tbl}" USING vec0(embedding float[${dims}] distance_metric=cosine, wing text ` +
                'partition key)',
            );
            db.prepare(
              'INSERT INTO vector_models (model, dims, tbl, hwm, active, created_at) VALUES (?, ?, ?, 0, 1, ?)',
            ).run(model, dims, tbl, new Date().toISOString());
            return { rebuild: cur !== undefined, previous: cur?.model ?? null };
          })
          .immediate(),
      );
    },

    async info() {
      return wrap(() => {
        const cur = current();
        if (!cur) return null;
        const count = db.prepare(`SELECT count(*) FROM "${cur.tbl}"`).pluck().get() as number;
        return { model: cur.model, dims: cur.dims, count };
      });
    },

    async pending(limit) {
      return wrap(() => {
        const cur = current();
        if (!cur) return [];
        return db
          .prepare('SELECT id, text, index_extra AS indexExtra, wing FROM drawers WHERE rid > ? ORDER BY rid LIMIT ?')
          .all(cur.hwm, limit) as PendingDrawer[];
      });
    },

    async pendingCount() {
      return wrap(() => {
        const cur = current();
        if (!cur) return db.prepare('SELECT count(*) FROM drawers').pluck().get() as number;
        return db.prepare('SELECT count(*) FROM drawers WHERE rid > ?').pluck().get(cur.hwm) as number;
      });
    },

    async upsert(items) {
      if (items.length === 0) return;
      wrap(() =>
        db
          .transaction(() => {
            const cur = current();
            if (!cur)
              throw createError('INVALID_ARGUMENT', {
                name: 'vector model',
                value: null,
                expected: 'useModel() before upsert()',
              });
            const find = db.prepare('SELECT rid, wing FROM drawers WHERE id = ?');
            const del = db.prepare(`DELETE FROM "${cur.tbl}" WHERE rowid = ?`);
            const ins = db.prepare(`INSERT INTO "${cur.tbl}" (rowid, embedding, wing) VALUES (?, ?, ?)`);
            let hwm = cur.hwm;
            for (const it of items) {
              if (it.vector.length !== cur.dims) {
                throw createError('INVALID_ARGUMENT', {
                  name: 'vector length',
                  value: it.vector.length,
                  expected: `${cur.dims} (model ${cur.model})`,
                });
              }
              const row = find.get(it.id) as { rid: number; wing: string } | undefined;
              if (!row) continue;
              del.run(BigInt(row.rid));
              ins.run(
                BigInt(row.rid),
                Buffer.from(it.vector.buffer, it.vector.byteOffset, it.vector.byteLength),
                row.wing,
              );
              if (row.rid > hwm) hwm = row.rid;
            }
            db.prepare('UPDATE vector_models SET hwm = max(hwm, ?) WHERE model = ?').run(hwm, cur.model);
          })
          .immediate(),
      );
    },

    async remove(ids) {
      wrap(() =>
        db
          .transaction(() => {
            const cur = current();
            if (!cur) return;
            const find = db.prepare('SELECT rid FROM drawers WHERE id = ?').pluck();
            const del = db.prepare(`DELETE FROM "${cur.tbl}" WHERE rowid = ?`);
            for (const id of ids) {
              const rid = find.get(id) as number | undefined;
              if (rid !== undefined) del.run(BigInt(rid));
            }
          })
          .immediate(),
      );
    },

    async knn(vector, k, wings) {
      return wrap(() => {
        const cur = current();
        if (!cur || k <= 0) return [];
        const q = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
        const run = (wing?: string) =>
          db
            .prepare(
              `SELECT d.id AS id, 1 - v.distance AS score FROM (
                 SELECT rowid, distance FROM "${cur.tbl}"
                 WHERE embedding MATCH ? AND k = ?${wing !== undefined ? ' AND wing = ?' : ''}
               ) v JOIN drawers d ON d.rid = v.rowid ORDER BY v.distance`,
            )
            .all(...(wing !== undefined ? [q, k, wing] : [q, k])) as { id: string; score: number }[];
        if (!wings) return run();
        return wings
          .flatMap((w) => run(w))
          .sort((a, b) => b.score - a.score)
          .slice(0, k);
      });
    },

    async prune() {
      return wrap(() => {
        const cur = current();
        if (!cur) return 0;
        return db.prepare(`DELETE FROM "${cur.tbl}" WHERE rowid NOT IN (SELECT rid FROM drawers)`).run().changes;
      });
    },
  };
}
