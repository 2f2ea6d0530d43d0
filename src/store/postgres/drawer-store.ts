/**
 * @module store/postgres/drawer-store
 * The PostgreSQL adapter of the drawer store ({@link MemoryStore}): drawers with their full-text
 * index (`lexical.ts`), the source manifest, the feed, meta values and usage counts, in one schema
 * of a PostgreSQL database. Every multi-row write is one transaction holding the palace's write
 * lock (`withWriteTx`), so several processes can write one palace and the feed's positions commit
 * in order; puts are idempotent (ids are content-addressed as on SQLite).
 */
import type {
  DrawerFilter,
  DrawerPatch,
  ListOptions,
  MemoryStore,
  RoomSize,
  SourceStamp,
  StoreStats,
  UsageRecord,
} from '../ports.js';
import { materializeRow } from '../shared.js';
import { isConnectionError, mapPgError, readQuery, withWriteTx, type PgPool, type PgTarget } from './connect.js';
import { searchBm25 } from './lexical.js';
import {
  patchedDrawer,
  toDrawer,
  toSource,
  type ComparedRow,
  type DrawerRow as PgDrawerRow,
  type SourceRow as PgSourceRow,
} from '../sql-rows.js';
import { addTermStats, deleteRids, DRAWER_COLS, indexText, pgFilter } from './rows.js';
import {
  applyPlan,
  COMPARED_COLS,
  insertRows,
  newRow,
  planUpserts,
  replaceDistinct,
  writeSources,
  type ReplaceItem,
} from './writes.js';

const ORDER_SQL: Record<NonNullable<ListOptions['order']>, string> = {
  filed: 'd.rid DESC',
  date: 'd.content_date DESC NULLS LAST, d.rid DESC',
  source: 'd.source NULLS FIRST, d.chunk_index, d.rid',
};

/** Options of {@link createPostgresStore}. */
interface PostgresStoreOptions {
  /** Clock for `filedAt`. Default Date.now. */
  now?: () => number;
  /** Text for `status` about the server and the vector mode. */
  engine?: string;
  /** Ends the pool in `close()`. Default true. */
  ownsPool?: boolean;
}

/** Splits replace requests into runs whose sources are pairwise distinct (each run is one bulk write). */
function distinctRuns(items: readonly ReplaceItem[]): ReplaceItem[][] {
  const runs: ReplaceItem[][] = [];
  let cur: ReplaceItem[] = [];
  let seen = new Set<string>();
  for (const it of items) {
    if (seen.has(it.state.source)) {
      runs.push(cur);
      cur = [];
      seen = new Set();
    }
    cur.push(it);
    seen.add(it.state.source);
  }
  if (cur.length) runs.push(cur);
  return runs;
}

const usageRows = (rows: { item: string; uses: number; last_used: string }[]): UsageRecord[] =>
  rows.map((r) => ({ item: r.item, uses: r.uses, lastUsed: r.last_used }));

/** Wraps a pool on a migrated palace schema (see `openPostgresPalace`) as a {@link MemoryStore}. */
export function createPostgresStore(pool: PgPool, target: PgTarget, opts: PostgresStoreOptions = {}): MemoryStore {
  const now = opts.now ?? Date.now;
  const q = <R>(sql: string, params: unknown[] = []) => readQuery<R>(pool, target, sql, params);
  /**
   * Drawers per (wing, room), with their text's bytes when `bytes`: octet_length() is the UTF-8
   * size from the value's header (a TOASTed text is not fetched nor decompressed to measure it).
   */
  const roomRows = <R>(filter: DrawerFilter | undefined, bytes: boolean) => {
    const params: unknown[] = [];
    const where = pgFilter(filter, params);
    return q<R>(
      `SELECT d.wing AS wing, d.room AS room, count(*)::int AS count` +
        `${bytes ? ', coalesce(sum(octet_length(d.text)), 0)::float8 AS bytes' : ''} FROM drawers d ` +
        `WHERE ${where} GROUP BY d.wing, d.room ORDER BY d.wing, count DESC, d.room`,
      params,
    );
  };
  const tx = <T>(fn: Parameters<typeof withWriteTx<T>>[2]) => withWriteTx(pool, target, fn);
  const stamp = () => new Date(now()).toISOString();
  let closed = false;

  const store: MemoryStore = {
    kind: 'postgres',
    supports: { vectors: false, multiProcess: true, persistent: true },

    async init() {
      // The schema is migrated by openPostgresPalace.
    },

    async put(drawers) {
      const filedAt = stamp();
      const rows = drawers.map((d) => newRow(d, filedAt));
      const inserted = await tx((c) => insertRows(c, rows));
      const added: string[] = [];
      const existing: string[] = [];
      for (const r of rows) (inserted.has(r) ? added : existing).push(r.m.id);
      return { added, existing };
    },

    async get(id) {
      const [r] = await q<PgDrawerRow>(`SELECT ${DRAWER_COLS} FROM drawers WHERE id = $1`, [id]);
      return r ? toDrawer(r) : undefined;
    },

    async getMany(ids) {
      if (ids.length === 0) return [];
      const rows = await q<PgDrawerRow>(`SELECT ${DRAWER_COLS} FROM drawers WHERE id = ANY($1::text[])`, [
        [...new Set(ids)],
      ]);
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.flatMap((id) => {
        const r = byId.get(id);
        return r ? [toDrawer(r)] : [];
      });
    },

    async update(id, patch: DrawerPatch) {
      return tx(async (c) => {
        const [row] = (await c.query(`SELECT ${DRAWER_COLS} FROM drawers WHERE id = $1 FOR UPDATE`, [id]))
          .rows as PgDrawerRow[];
        if (!row) return undefined;
        const { cur, input } = patchedDrawer(row, patch);
        const m = materializeRow(input, cur.filedAt);
        const ix = indexText(m.search);
        const old = (
          await c.query('SELECT tsvector_to_array(search) AS terms, dl FROM drawers WHERE rid = $1', [row.rid])
        ).rows[0] as { terms: string[]; dl: number };
        await c.query('UPDATE lexical_terms SET df = df - 1 WHERE term = ANY($1::text[])', [old.terms]);
        await c.query('UPDATE lexical_totals SET docs = docs - 1, tokens = tokens - $1', [old.dl]);
        const res = await c.query(
          `UPDATE drawers SET wing = $2, room = $3, hall = $4, text = $5, content_hash = $6, metadata = $7,
             content_date = $8, index_extra = $9, search = $10::tsvector, dl = $11 WHERE rid = $1
           RETURNING ${DRAWER_COLS}`,
          [
            row.rid,
            m.wing,
            m.room,
            m.hall,
            m.text,
            m.contentHash,
            m.metadataJson,
            m.contentDate,
            input.indexExtra ?? null,
            ix.vector,
            ix.dl,
          ],
        );
        await addTermStats(c, [ix]);
        return toDrawer(res.rows[0] as PgDrawerRow);
      });
    },

    async delete(ids) {
      if (ids.length === 0) return 0;
      return tx(async (c) => {
        const rids = (await c.query('SELECT rid FROM drawers WHERE id = ANY($1::text[])', [[...new Set(ids)]]))
          .rows as { rid: number }[];
        return deleteRids(
          c,
          rids.map((r) => r.rid),
        );
      });
    },

    async list(filter, opts = {}) {
      const params: unknown[] = [];
      const where = pgFilter(filter, params);
      const n = params.length;
      const [count] = await q<{ n: number }>(`SELECT count(*)::int AS n FROM drawers d WHERE ${where}`, params);
      const rows = await q<PgDrawerRow>(
        `SELECT ${DRAWER_COLS.replace(/(^|, )/g, '$1d.')} FROM drawers d WHERE ${where} ` +
          `ORDER BY ${ORDER_SQL[opts.order ?? 'filed']} LIMIT $${n + 1} OFFSET $${n + 2}`,
        [...params, opts.limit ?? 20, opts.offset ?? 0],
      );
      return { drawers: rows.map(toDrawer), total: count?.n ?? 0 };
    },

    async count(filter) {
      const params: unknown[] = [];
      const where = pgFilter(filter, params);
      const [r] = await q<{ n: number }>(`SELECT count(*)::int AS n FROM drawers d WHERE ${where}`, params);
      return r?.n ?? 0;
    },

    async countBy(field, filter) {
      const params: unknown[] = [];
      const where = pgFilter(filter, params);
      const rows = await q<{ k: string | null; n: number }>(
        `SELECT d.${field} AS k, count(*)::int AS n FROM drawers d WHERE ${where} GROUP BY d.${field} ` +
          'ORDER BY n DESC, k NULLS FIRST',
        params,
      );
      const out: Record<string, number> = {};
      for (const r of rows) out[r.k ?? ''] = r.n;
      return out;
    },

    async countRooms(filter) {
      return roomRows<{ wing: string; room: string; count: number }>(filter, false);
    },

    async roomSizes(filter) {
      return roomRows<RoomSize>(filter, true);
    },

    async findByContentHash(hash) {
      const rows = await q<PgDrawerRow>(`SELECT ${DRAWER_COLS} FROM drawers WHERE content_hash = $1 ORDER BY rid`, [
        hash,
      ]);
      return rows.map(toDrawer);
    },

    async neighbours(id, n) {
      const [row] = await q<PgDrawerRow>(`SELECT ${DRAWER_COLS} FROM drawers WHERE id = $1`, [id]);
      if (!row) return [];
      if (row.source === null) return [toDrawer(row)];
      const rows = await q<PgDrawerRow>(
        `SELECT ${DRAWER_COLS} FROM drawers WHERE source = $1 AND chunk_index BETWEEN $2 AND $3 ` +
          'ORDER BY chunk_index, rid',
        [row.source, row.chunk_index - n, row.chunk_index + n],
      );
      return rows.map(toDrawer);
    },

    async searchLexical(tokens, filter, limit) {
      if (tokens.length === 0 || limit <= 0) return [];
      try {
        return await searchBm25(pool, tokens, filter, limit);
      } catch (e) {
        if (!isConnectionError(e)) throw mapPgError(e, target);
        return searchBm25(pool, tokens, filter, limit).catch((e2: unknown) => {
          throw mapPgError(e2, target);
        });
      }
    },

    async replaceSource(state, drawers, opts) {
      const filedAt = stamp();
      const [r] = await tx((c) => replaceDistinct(c, [{ state, drawers, skipIfHash: opts?.skipIfHash }], filedAt));
      return r ?? null;
    },

    async replaceSources(items) {
      if (items.length === 0) return [];
      const filedAt = stamp();
      return tx(async (c) => {
        const out: (Awaited<ReturnType<MemoryStore['replaceSource']>> | null)[] = [];
        for (const run of distinctRuns(items)) out.push(...(await replaceDistinct(c, run, filedAt)));
        return out;
      });
    },

    async appendSource(state, drawers, fromOffset, opts) {
      const filedAt = stamp();
      return tx(async (c) => {
        const [cur] = (await c.query('SELECT "offset" FROM sources WHERE source = $1', [state.source])).rows as {
          offset: number;
        }[];
        if ((cur?.offset ?? 0) !== fromOffset) return null;
        const ids = drawers.map((d) => materializeRow(d, filedAt, state.source).id);
        const asked = [...new Set([...ids, ...(opts?.remove ?? [])])];
        const own = new Map<string, ComparedRow>();
        for (const r of (
          await c.query(`SELECT ${COMPARED_COLS} FROM drawers WHERE id = ANY($1::text[]) AND source = $2`, [
            asked,
            state.source,
          ])
        ).rows as ComparedRow[])
          own.set(r.id, r);
        const plan = planUpserts(drawers, state.source, (id) => own.get(id), filedAt);
        const added = await applyPlan(c, plan);
        const written = new Set(plan.ids);
        const gone = (opts?.remove ?? []).filter((id) => !written.has(id) && own.has(id)).map((id) => own.get(id)!.rid);
        const removed = await deleteRids(c, [...new Set(gone)]);
        await writeSources(c, [state]);
        return { added: added.size, updated: plan.updated, removed, ids: plan.ids };
      });
    },

    async getSource(source) {
      const [r] = await q<PgSourceRow>('SELECT * FROM sources WHERE source = $1', [source]);
      return r ? toSource(r) : undefined;
    },

    async listSources(o = {}) {
      const where: string[] = [];
      const params: unknown[] = [];
      if (o.root !== undefined) where.push(`root = $${params.push(o.root)}`);
      if (o.kind !== undefined) where.push(`kind = $${params.push(o.kind)}`);
      const rows = await q<PgSourceRow>(
        `SELECT * FROM sources ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY source`,
        params,
      );
      return rows.map(toSource);
    },

    async listSourceStamps(under) {
      const base = under.replace(/[\\/]+$/, '');
      return q<SourceStamp>(
        'SELECT source, wing, kind, size, mtime_ms AS "mtimeMs", config FROM sources ' +
          'WHERE source = $1 OR left(source, length($2)) = $2 OR left(source, length($3)) = $3',
        [base, `${base}/`, `${base}\\`],
      );
    },

    async touchSource(state) {
      await tx((c) => writeSources(c, [state]));
    },

    async removeSource(source) {
      return tx(async (c) => {
        const rids = (await c.query('SELECT rid FROM drawers WHERE source = $1', [source])).rows as { rid: number }[];
        const n = await deleteRids(
          c,
          rids.map((r) => r.rid),
        );
        await c.query('DELETE FROM sources WHERE source = $1', [source]);
        return n;
      });
    },

    async feedAfter(after, limit) {
      return q<{ seq: number; id: string }>('SELECT rid AS seq, id FROM drawers WHERE rid > $1 ORDER BY rid LIMIT $2', [
        after,
        limit ?? null,
      ]);
    },

    async feedRange(after, upTo) {
      const rows = await q<{
        id: string;
        wing: string;
        room: string;
        source: string | null;
        contentDate: string | null;
        metadata: string;
        text: string;
      }>(
        'SELECT id, wing, room, source, content_date AS "contentDate", metadata, text FROM drawers ' +
          'WHERE rid > $1 AND rid <= $2 ORDER BY rid',
        [after, upTo],
      );
      return rows.map((r) => ({ ...r, metadata: JSON.parse(r.metadata) as Record<string, unknown> }));
    },

    async getMeta(key) {
      const [r] = await q<{ value: string }>('SELECT value FROM meta WHERE key = $1', [key]);
      return r?.value;
    },

    async casMeta(key, expected, value) {
      // One statement each: an UPDATE re-checks its condition on the row it waited for, an INSERT
      // … ON CONFLICT DO NOTHING loses to a concurrent one; either way only one writer wins.
      const res = await pool
        .query(
          expected === undefined
            ? 'INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING'
            : 'UPDATE meta SET value = $2 WHERE key = $1 AND value = $3',
          expected === undefined ? [key, value] : [key, value, expected],
        )
        .catch((e: unknown) => {
          throw mapPgError(e, target);
        });
      return (res.rowCount ?? 0) > 0;
    },

    async recordUsage(items, at, opts = {}) {
      const keys = [...new Set(items)].sort();
      if (keys.length === 0) return 0;
      let client;
      try {
        client = await pool.connect();
      } catch {
        return 0;
      }
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        if (opts.waitMs !== undefined)
          await client.query(`SET LOCAL lock_timeout = ${Math.max(1, Math.floor(opts.waitMs))}`);
        await client.query(
          'INSERT INTO usage (item, uses, last_used) SELECT unnest($1::text[]), 1, $2 ' +
            'ON CONFLICT (item) DO UPDATE SET uses = usage.uses + 1, last_used = excluded.last_used',
          [keys, at],
        );
        await client.query('COMMIT');
        return keys.length;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => {});
        if (isConnectionError(e)) broken = e as Error;
        const code = String((e as { code?: unknown }).code ?? '');
        if (broken || code === '55P03' || code === '40P01' || code === '42P01') return 0;
        throw mapPgError(e, target);
      } finally {
        client.release(broken);
      }
    },

    async readUsage(list) {
      const items = [...new Set(list)];
      if (items.length === 0) return [];
      return usageRows(await q('SELECT item, uses, last_used FROM usage WHERE item = ANY($1::text[])', [items]));
    },

    async topUsage(prefix, limit) {
      return usageRows(
        await q(
          'SELECT item, uses, last_used FROM usage WHERE starts_with(item, $1) ORDER BY uses DESC, last_used DESC ' +
            'LIMIT $2',
          [prefix, limit],
        ),
      );
    },

    async stats(): Promise<StoreStats> {
      const [r] = await q<{ drawers: number; sources: number; indexed: number; bytes: number; version: number }>(
        `SELECT (SELECT count(*) FROM drawers)::int AS drawers, (SELECT count(*) FROM sources)::int AS sources,
           (SELECT docs FROM lexical_totals)::int AS indexed,
           (SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c
              JOIN pg_namespace n ON n.oid = c.relnamespace
              WHERE n.nspname = current_schema() AND c.relkind = 'r')::float8 AS bytes,
           (SELECT max(version) FROM loci_schema)::int AS version`,
      );
      const s = r!;
      return {
        drawers: s.drawers,
        sources: s.sources,
        bytes: s.bytes,
        schemaVersion: s.version,
        lexicalIndex:
          s.indexed === s.drawers ? 'ok' : `out of sync: ${s.drawers} drawers, ${s.indexed} in the term statistics`,
        location: target.display,
        ...(opts.engine ? { engine: opts.engine } : {}),
      };
    },

    async close() {
      if (closed || opts.ownsPool === false) return;
      closed = true;
      await pool.end();
    },

    async dangerouslyClearAll() {
      await tx(async (c) => {
        await c.query(
          'TRUNCATE drawers, sources, meta, usage, lexical_terms; UPDATE lexical_totals SET docs = 0, tokens = 0',
        );
      });
    },
  };
  return store;
}
