/**
 * @module store/postgres/vector-store
 * The PostgreSQL adapter of the vector port. Vectors live in table `vectors` (the drawer's row id,
 * its wing and the float32 vector as `bytea`) and are scored in the application: exact cosine over
 * every vector of the active model, held in memory between searches and re-read only when another
 * write changed them (`vector_models.version`). Which drawers still need a vector follows a
 * high-water mark on the row id, as on SQLite. `pgvector`, when the server offers it, is detected
 * and reported by `status` (see `detectVectorMode`); the scoring stays in the application.
 */
import { createError } from '../../core/errors.js';
import type { PendingDrawer, VectorStore } from '../vector-port.js';
import { readQuery, withWriteTx, type PgPool, type PgTarget, type Queryable } from './connect.js';

interface ModelRow {
  model: string;
  dims: number;
  hwm: number;
  version: number;
}

/** How vectors are stored and searched on this server. */
interface VectorMode {
  /** Whether the `vector` extension (pgvector) is available on the server. */
  pgvector: boolean;
  /** One line for `status`. */
  describe: string;
}

/** Detects pgvector (`pg_available_extensions`) and the server version, for `status`. */
export async function detectVectorMode(c: Queryable): Promise<VectorMode & { server: string }> {
  const r = await c.query(
    "SELECT current_setting('server_version') AS server, " +
      "(SELECT default_version FROM pg_available_extensions WHERE name = 'vector') AS pgvector",
  );
  const row = r.rows[0] as { server: string; pgvector: string | null };
  const pgvector = row.pgvector !== null;
  return {
    server: row.server,
    pgvector,
    describe: pgvector
      ? `pgvector ${row.pgvector} is available; vectors are scored in the application (exact cosine)`
      : 'pgvector not installed: vectors stored as bytea and scored in the application (exact cosine)',
  };
}

const toBytes = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

function toFloats(b: Buffer): Float32Array {
  const copy = new Uint8Array(b.byteLength);
  copy.set(b);
  return new Float32Array(copy.buffer);
}

/** Wraps a pool on a migrated palace schema as a {@link VectorStore}. */
export function createPostgresVectorStore(pool: PgPool, target: PgTarget): VectorStore {
  const q = <R>(sql: string, params: unknown[] = []) => readQuery<R>(pool, target, sql, params);
  const current = async (c?: Queryable): Promise<ModelRow | undefined> => {
    const sql = 'SELECT model, dims, hwm, xmin::text::bigint AS version FROM vector_models WHERE active';
    return (c ? ((await c.query(sql)).rows as ModelRow[]) : await q<ModelRow>(sql))[0];
  };
  /** The vectors of the active model, kept between searches while nothing changed them. */
  let cache: { key: string; rows: { id: string; wing: string; v: Float32Array }[] } | undefined;
  const bump = (c: Queryable) => c.query('UPDATE vector_models SET hwm = hwm WHERE active');

  return {
    kind: 'postgres',

    async useModel(model, dims) {
      return withWriteTx(pool, target, async (c) => {
        const cur = await current(c);
        if (cur && cur.model === model && cur.dims === dims) return { rebuild: false, previous: model };
        await c.query('DELETE FROM vectors');
        await c.query('DELETE FROM vector_models');
        await c.query('INSERT INTO vector_models (model, dims, hwm, active, created_at) VALUES ($1, $2, 0, true, $3)', [
          model,
          dims,
          new Date().toISOString(),
        ]);
        cache = undefined;
        return { rebuild: cur !== undefined, previous: cur?.model ?? null };
      });
    },

    async info() {
      const cur = await current();
      if (!cur) return null;
      const [r] = await q<{ n: number }>('SELECT count(*)::int AS n FROM vectors');
      return { model: cur.model, dims: cur.dims, count: r?.n ?? 0 };
    },

    async pending(limit) {
      const cur = await current();
      if (!cur) return [];
      return q<PendingDrawer>(
        'SELECT id, text, index_extra AS "indexExtra", wing FROM drawers WHERE rid > $1 ORDER BY rid LIMIT $2',
        [cur.hwm, limit],
      );
    },

    async pendingCount() {
      const cur = await current();
      const [r] = await q<{ n: number }>('SELECT count(*)::int AS n FROM drawers WHERE rid > $1', [cur?.hwm ?? 0]);
      return r?.n ?? 0;
    },

    async upsert(items) {
      if (items.length === 0) return;
      await withWriteTx(pool, target, async (c) => {
        const cur = await current(c);
        if (!cur)
          throw createError('INVALID_ARGUMENT', {
            name: 'vector model',
            value: null,
            expected: 'useModel() before upsert()',
          });
        for (const it of items) {
          if (it.vector.length !== cur.dims)
            throw createError('INVALID_ARGUMENT', {
              name: 'vector length',
              value: it.vector.length,
              expected: `${cur.dims} (model ${cur.model})`,
            });
        }
        const r = await c.query(
          `WITH u AS (SELECT * FROM unnest($1::text[], $2::bytea[]) AS u(id, embedding)),
           ins AS (INSERT INTO vectors (rid, wing, embedding)
             SELECT d.rid, d.wing, u.embedding FROM u JOIN drawers d ON d.id = u.id
             ON CONFLICT (rid) DO UPDATE SET wing = excluded.wing, embedding = excluded.embedding RETURNING rid)
           SELECT coalesce(max(rid), 0) AS hwm FROM ins`,
          [items.map((i) => i.id), items.map((i) => toBytes(i.vector))],
        );
        const hwm = (r.rows[0] as { hwm: number }).hwm;
        await c.query('UPDATE vector_models SET hwm = greatest(hwm, $1) WHERE active', [hwm]);
      });
    },

    async remove(ids) {
      if (ids.length === 0) return;
      await withWriteTx(pool, target, async (c) => {
        await c.query('DELETE FROM vectors WHERE rid IN (SELECT rid FROM drawers WHERE id = ANY($1::text[]))', [
          [...ids],
        ]);
        await bump(c);
      });
    },

    async knn(vector, k, wings) {
      const cur = await current();
      if (!cur || k <= 0) return [];
      const key = `${cur.model}@${cur.version}`;
      if (cache?.key !== key) {
        const rows = await q<{ id: string; wing: string; embedding: Buffer }>(
          'SELECT d.id, v.wing, v.embedding FROM vectors v JOIN drawers d ON d.rid = v.rid',
        );
        cache = { key, rows: rows.map((r) => ({ id: r.id, wing: r.wing, v: toFloats(r.embedding) })) };
      }
      const allowed = wings ? new Set(wings) : undefined;
      let qn = 0;
      for (let i = 0; i < vector.length; i++) qn += vector[i]! * vector[i]!;
      qn = Math.sqrt(qn) || 1;
      const scored: { id: string; score: number }[] = [];
      for (const r of cache.rows) {
        if (allowed && !allowed.has(r.wing)) continue;
        let dot = 0;
        let n = 0;
        const v = r.v;
        for (let i = 0; i < v.length; i++) {
          dot += v[i]! * vector[i]!;
          n += v[i]! * v[i]!;
        }
        scored.push({ id: r.id, score: dot / (qn * (Math.sqrt(n) || 1)) });
      }
      return scored.sort((a, b) => b.score - a.score).slice(0, k);
    },

    async prune() {
      return withWriteTx(pool, target, async (c) => {
        const r = await c.query('DELETE FROM vectors v WHERE NOT EXISTS (SELECT 1 FROM drawers d WHERE d.rid = v.rid)');
        await bump(c);
        return r.rowCount ?? 0;
      });
    },
  };
}
