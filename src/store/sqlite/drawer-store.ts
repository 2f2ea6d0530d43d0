/**
 * @module store/sqlite/drawer-store
 * The SQLite adapter of the drawer store: one table of verbatim drawers, a contentless FTS5 index
 * over the pre-tokenised search column, and the source manifest, all in the palace file.
 */
import type Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import type {
  DrawerFilter,
  DrawerInput,
  DrawerPatch,
  ListOptions,
  MemoryStore,
  ReplaceResult,
  RoomSize,
  SourceState,
  StoreStats,
} from '../ports.js';
import { materializeRow, sqlFilter, type DrawerRowInput } from '../shared.js';
import { compareRow, patchedDrawer, toDrawer, toSource, type DrawerRow, type SourceRow } from '../sql-rows.js';
import { createLexicalSearcher } from './lexical.js';
import { mapSqliteError } from './driver.js';
import { TEXT_BYTES } from './migrations.js';
import { sqliteFeed } from './feed.js';
import { sqliteUsage } from './usage.js';
import { lazyStatements } from './statements.js';
import { listStamps, SOURCE_COLUMNS, sourceOfTuple, type SourceTuple } from './source-rows.js';
import { DRAWER_STATEMENTS, PLUCKED_STATEMENTS } from './drawer-statements.js';

/** The columns of a drawer that re-mining a source compares (see `bySource`). */
type ComparedRow = Omit<DrawerRow, 'source' | 'filed_at' | 'added_by' | 'content_hash' | 'index_extra' | 'text'>;

const ORDER_SQL: Record<NonNullable<ListOptions['order']>, string> = {
  filed: 'd.rid DESC',
  date: 'd.content_date DESC NULLS LAST, d.rid DESC',
  source: 'd.source, d.chunk_index, d.rid',
};

/** Options of {@link createSqliteStore}. */
interface SqliteStoreOptions {
  /** Path of the database file (for messages and size). */
  path: string;
  /** Clock for `filedAt`. Default Date.now. */
  now?: () => number;
  /** The busy timeout the database was opened with (for DB_LOCKED messages). */
  busyTimeoutMs?: number;
}

/**
 * Wraps an open palace database (see `openDatabase`) as a {@link MemoryStore}.
 * All writes run in `BEGIN IMMEDIATE` transactions; failures map to catalogue errors.
 */
export function createSqliteStore(db: Database.Database, opts: SqliteStoreOptions): MemoryStore {
  const now = opts.now ?? Date.now;
  const path = opts.path;
  const s = lazyStatements(db, DRAWER_STATEMENTS, PLUCKED_STATEMENTS);

  const lexical = createLexicalSearcher(db);
  /** `SELECT … WHERE id IN (?, …)` statements by arity, prepared once (getMany runs per search). */
  const byIds = new Map<number, Database.Statement>();
  const byIdsStatement = (n: number): Database.Statement => {
    let q = byIds.get(n);
    if (!q) {
      q = db.prepare(`SELECT * FROM drawers WHERE id IN (${Array.from({ length: n }, () => '?').join(',')})`);
      if (byIds.size < 64) byIds.set(n, q);
    }
    return q;
  };
  /** Positional binding: measurably cheaper than named parameters on the hot path of mining. */
  const insertRow = (m: DrawerRowInput, indexExtra: string | undefined) =>
    s.insert.run(
      m.id,
      m.wing,
      m.room,
      m.hall,
      m.source,
      m.sourceHash,
      m.sourceMtime,
      m.chunkIndex,
      m.lineStart,
      m.lineEnd,
      m.contentDate,
      m.filedAt,
      m.addedBy,
      m.contentHash,
      m.metadataJson,
      indexExtra ?? null,
      m.text,
    );
  const wrap = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (e) {
      throw mapSqliteError(e, path, opts.busyTimeoutMs ?? 0);
    }
  };
  const tx = <T>(fn: () => T): T => wrap(() => db.transaction(fn).immediate());
  /**
   * Drawers per (wing, room), with their text's UTF-8 bytes when `bytes` (the palace's encoding is SQLite's
   * default, UTF-8; length(text) would count characters). The expression is the one of the covering index
   * `drawers_room_bytes` (migration 5), and so is its condition, so the GROUP BY reads that index, never the
   * texts (a filter on other columns than wing and room looks the rows up).
   */
  const roomRows = (filter: DrawerFilter | undefined, bytes: boolean): unknown[] => {
    const { sql, params } = sqlFilter(filter);
    return db
      .prepare(
        `SELECT wing, room, count(*) AS count${bytes ? `, sum(${TEXT_BYTES}) AS bytes` : ''}` +
          ` FROM drawers d WHERE ${bytes ? `${TEXT_BYTES} >= 0 AND ` : ''}${sql} GROUP BY wing, room` +
          ' ORDER BY wing, count DESC, room',
      )
      .all(params);
  };

  function insertOne(input: DrawerInput, filedAt: string): { id: string; added: boolean } {
    const m = materializeRow(input, filedAt);
    const info = insertRow(m, input.indexExtra);
    if (info.changes === 0) return { id: m.id, added: false };
    s.ftsInsert.run(info.lastInsertRowid, m.search);
    return { id: m.id, added: true };
  }

  function deleteByRid(rid: number): void {
    s.ftsDelete.run(rid);
    s.deleteRid.run(rid);
  }

  function writeSource(st: SourceState): void {
    s.putSource.run({ ...st, state: JSON.stringify(st.state) });
  }

  /**
   * Inserts a drawer of `source`, or refreshes the row `old(id)` of the same source (visible fields
   * changed → `updated`; bookkeeping-only changes are written silently).
   */
  function upsertOne(
    input: DrawerInput,
    source: string,
    old: (id: string) => ComparedRow | undefined,
    filedAt: string,
  ): { id: string; added: boolean; updated: boolean } {
    const m = materializeRow(input, filedAt, source);
    const o = old(m.id);
    if (!o) {
      const info = insertRow(m, input.indexExtra);
      if (info.changes > 0) s.ftsInsert.run(info.lastInsertRowid, m.search);
      return { id: m.id, added: info.changes > 0, updated: false };
    }
    const { visible, dirty } = compareRow(o, m);
    if (dirty) s.refresh.run({ ...m, metadata: m.metadataJson, rid: o.rid });
    return { id: m.id, added: false, updated: visible };
  }

  function replaceOne(
    state: SourceState,
    drawers: readonly DrawerInput[],
    skipIfHash: string | undefined,
    filedAt: string,
  ): ReplaceResult | null {
    if (skipIfHash !== undefined) {
      const cur = s.getSource.get(state.source) as SourceRow | undefined;
      if (cur && cur.hash === skipIfHash && cur.config === state.config) return null;
    }
    const existing = new Map<string, ComparedRow>();
    for (const r of s.bySource.all(state.source) as ComparedRow[]) existing.set(r.id, r);
    const old = (id: string) => (existing.size === 0 ? undefined : existing.get(id));
    let added = 0;
    let updated = 0;
    const ids: string[] = [];
    const keep = new Set<string>();
    for (const input of drawers) {
      const r = upsertOne(input, state.source, old, filedAt);
      ids.push(r.id);
      keep.add(r.id);
      if (r.added) added++;
      if (r.updated) updated++;
    }
    let removed = 0;
    for (const [id, r] of existing) {
      if (!keep.has(id)) {
        deleteByRid(r.rid);
        removed++;
      }
    }
    writeSource(state);
    return { added, updated, removed, ids } satisfies ReplaceResult;
  }

  const store: MemoryStore = {
    kind: 'sqlite',
    supports: { vectors: false, multiProcess: true, persistent: true },

    async init() {
      // Schema is created by openDatabase's migrations.
    },

    async put(drawers) {
      const filedAt = new Date(now()).toISOString();
      return tx(() => {
        const added: string[] = [];
        const existing: string[] = [];
        for (const d of drawers) {
          const r = insertOne(d, filedAt);
          (r.added ? added : existing).push(r.id);
        }
        return { added, existing };
      });
    },

    async get(id) {
      const r = wrap(() => s.byId.get(id) as DrawerRow | undefined);
      return r ? toDrawer(r) : undefined;
    },

    async getMany(ids) {
      if (ids.length === 0) return [];
      const rows = wrap(() => {
        const out = new Map<string, DrawerRow>();
        for (let i = 0; i < ids.length; i += 500) {
          const chunk = ids.slice(i, i + 500);
          for (const r of byIdsStatement(chunk.length).all(...chunk) as DrawerRow[]) out.set(r.id, r);
        }
        return out;
      });
      return ids.flatMap((id) => {
        const r = rows.get(id);
        return r ? [toDrawer(r)] : [];
      });
    },

    async update(id, patch: DrawerPatch) {
      return tx(() => {
        const row = s.byId.get(id) as DrawerRow | undefined;
        if (!row) return undefined;
        const { cur, input } = patchedDrawer(row, patch);
        const { metadataJson, ...m } = materializeRow(input, cur.filedAt);
        s.updateRow.run({ ...m, metadata: metadataJson, indexExtra: input.indexExtra ?? null, rid: row.rid });
        s.ftsDelete.run(row.rid);
        s.ftsInsert.run(row.rid, m.search);
        return toDrawer(s.byId.get(id) as DrawerRow);
      });
    },

    async delete(ids) {
      return tx(() => {
        let n = 0;
        for (const id of ids) {
          const rid = s.ridById.get(id) as number | undefined;
          if (rid === undefined) continue;
          deleteByRid(rid);
          n++;
        }
        return n;
      });
    },

    async list(filter, opts = {}) {
      const { sql, params } = sqlFilter(filter);
      const limit = opts.limit ?? 20;
      const offset = opts.offset ?? 0;
      return wrap(() => {
        const total = (db.prepare(`SELECT count(*) FROM drawers d WHERE ${sql}`).pluck().get(params) as number) ?? 0;
        const rows = db
          .prepare(
            `SELECT d.* FROM drawers d WHERE ${sql} ORDER BY ${ORDER_SQL[opts.order ?? 'filed']} LIMIT @limit ` +
              'OFFSET @offset',
          )
          .all({ ...params, limit, offset }) as DrawerRow[];
        return { drawers: rows.map(toDrawer), total };
      });
    },

    async count(filter) {
      const { sql, params } = sqlFilter(filter);
      return wrap(() => db.prepare(`SELECT count(*) FROM drawers d WHERE ${sql}`).pluck().get(params) as number);
    },

    async countBy(field, filter) {
      const { sql, params } = sqlFilter(filter);
      const rows = wrap(
        () =>
          db
            .prepare(
              `SELECT d.${field} AS k, count(*) AS n FROM drawers d WHERE ${sql} GROUP BY d.${field} ORDER BY n ` +
                'DESC, k',
            )
            .all(params) as { k: string | null; n: number }[],
      );
      const out: Record<string, number> = {};
      for (const r of rows) out[r.k ?? ''] = r.n;
      return out;
    },

    async countRooms(filter) {
      return wrap(() => roomRows(filter, false) as { wing: string; room: string; count: number }[]);
    },

    async roomSizes(filter) {
      return wrap(() => roomRows(filter, true) as RoomSize[]);
    },

    async findByContentHash(hash) {
      return wrap(() => (s.byHash.all(hash) as DrawerRow[]).map(toDrawer));
    },

    async neighbours(id, n) {
      return wrap(() => {
        const row = s.byId.get(id) as DrawerRow | undefined;
        if (!row) return [];
        if (row.source === null) return [toDrawer(row)];
        const rows = db
          .prepare('SELECT * FROM drawers WHERE source = ? AND chunk_index BETWEEN ? AND ? ORDER BY chunk_index, rid')
          .all(row.source, row.chunk_index - n, row.chunk_index + n) as DrawerRow[];
        return rows.map(toDrawer);
      });
    },

    async searchLexical(tokens, filter, limit) {
      if (tokens.length === 0 || limit <= 0) return [];
      return wrap(() => lexical(tokens, filter, limit));
    },

    async replaceSource(state, drawers, opts) {
      const filedAt = new Date(now()).toISOString();
      return tx(() => replaceOne(state, drawers, opts?.skipIfHash, filedAt));
    },

    async replaceSources(items) {
      const filedAt = new Date(now()).toISOString();
      return tx(() => items.map((it) => replaceOne(it.state, it.drawers, it.skipIfHash, filedAt)));
    },

    async appendSource(state, drawers, fromOffset, opts) {
      const filedAt = new Date(now()).toISOString();
      return tx(() => {
        const cur = s.getSource.get(state.source) as SourceRow | undefined;
        if ((cur?.offset ?? 0) !== fromOffset) return null;
        const own = (id: string): DrawerRow | undefined => {
          const r = s.byId.get(id) as DrawerRow | undefined;
          return r && r.source === state.source ? r : undefined;
        };
        let added = 0;
        let updated = 0;
        let removed = 0;
        const ids: string[] = [];
        const written = new Set<string>();
        for (const d of drawers) {
          const r = upsertOne(d, state.source, own, filedAt);
          ids.push(r.id);
          written.add(r.id);
          if (r.added) added++;
          if (r.updated) updated++;
        }
        for (const id of opts?.remove ?? []) {
          const r = written.has(id) ? undefined : own(id);
          if (r) {
            deleteByRid(r.rid);
            removed++;
          }
        }
        writeSource(state);
        return { added, updated, removed, ids };
      });
    },

    async getSource(source) {
      const r = wrap(() => s.getSource.get(source) as SourceRow | undefined);
      return r ? toSource(r) : undefined;
    },

    async listSources(o = {}) {
      const where: string[] = [];
      const params: Record<string, unknown> = {};
      if (o.root !== undefined) {
        where.push('root = @root');
        params['root'] = o.root;
      }
      if (o.kind !== undefined) {
        where.push('kind = @kind');
        params['kind'] = o.kind;
      }
      // Rows as arrays (`raw`), turned into states here: re-mining lists every source of the tree
      // (10K rows for 10K files), and better-sqlite3's row objects cost twice as much to build.
      const rows = wrap(
        () =>
          db
            .prepare(
              `SELECT ${SOURCE_COLUMNS} FROM sources ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ` +
                'ORDER BY source',
            )
            .raw()
            .all(params) as SourceTuple[],
      );
      return rows.map(sourceOfTuple);
    },

    async listSourceStamps(under) {
      return wrap(() =>
        listStamps(
          { get: (k, p) => s[k].raw().get(...p) as unknown[], all: (k, p) => s[k].raw().all(...p) as unknown[][] },
          under,
        ),
      );
    },

    async touchSource(state) {
      tx(() => writeSource(state));
    },

    async removeSource(source) {
      return tx(() => {
        const rids = s.ridsBySource.all(source) as number[];
        for (const rid of rids) deleteByRid(rid);
        s.deleteSource.run(source);
        return rids.length;
      });
    },

    ...sqliteFeed(db, wrap, tx),
    ...sqliteUsage(db),

    async stats(): Promise<StoreStats> {
      return wrap(() => {
        const drawers = db.prepare('SELECT count(*) FROM drawers').pluck().get() as number;
        const sources = db.prepare('SELECT count(*) FROM sources').pluck().get() as number;
        const indexed = db.prepare('SELECT count(*) FROM drawers_fts_docsize').pluck().get() as number;
        let bytes = 0;
        for (const suffix of ['', '-wal']) {
          try {
            bytes += statSync(path + suffix).size;
          } catch {
            /* absent */
          }
        }
        return {
          drawers,
          sources,
          bytes,
          schemaVersion: db.pragma('user_version', { simple: true }) as number,
          lexicalIndex:
            indexed === drawers ? 'ok' : `out of sync: ${drawers} drawers, ${indexed} indexed — run \`loci reindex\``,
          location: path,
        };
      });
    },

    async close() {
      if (db.open) {
        try {
          db.pragma('optimize');
        } catch {
          /* read-only or busy: skip */
        }
        db.close();
      }
    },

    async dangerouslyClearAll() {
      tx(() => {
        db.exec(
          'DELETE FROM drawers; DELETE FROM sources; DELETE FROM meta; DELETE FROM usage; INSERT INTO drawers_fts ' +
            "(drawers_fts) VALUES ('delete-all');",
        );
      });
    },
  };
  return store;
}
