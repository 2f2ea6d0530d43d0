/**
 * @module kg/sqlite-graph-store
 * The SQLite adapter of {@link GraphStore}, living in the palace database next to the drawers
 * (tables from migration 2, `sqlite-schema.ts`). It takes a better-sqlite3 database that is already
 * open (`openDatabase` from `store/sqlite/driver.ts`). Every write runs in one `BEGIN IMMEDIATE`
 * transaction, so several processes can write one palace at once.
 */
import type Database from 'better-sqlite3';
import { isLociError } from '../core/errors.js';
import { isoAt, systemClock, type Clock } from '../core/clock.js';
import { mapSqliteError } from '../store/index.js';
import { applyBatch, resolveKey, type EngineContext } from './engine.js';
import { functionalSet, sortLinks, type GraphStoreOptions } from './store-common.js';
import { decodeCursor, encodeCursor, entityKey, normalizeDate, pageLimit, predicateKey } from './normalize.js';
import { FACT_COLUMNS, FACT_FROM, SqliteRows, toFact, type SqlFact } from './sqlite-rows.js';
import { KG_SCHEMA_V2 } from './sqlite-schema.js';
import type {
  AddFactOptions,
  ApplyOptions,
  ApplyResult,
  DrawerLink,
  Entity,
  EntityInput,
  EntityListOptions,
  Fact,
  FactInput,
  GraphBatch,
  GraphStats,
  GraphStore,
  Page,
  PageOptions,
  QueryOptions,
  WriteOptions,
} from './types.js';

/** Options of {@link createSqliteGraphStore}. */
export interface SqliteGraphStoreOptions extends GraphStoreOptions {
  /** Close the database in `close()`. Default false (the palace owns it). */
  ownsDatabase?: boolean;
}

const AS_OF_OUT = `SELECT ${FACT_COLUMNS} FROM ${FACT_FROM}
  WHERE f.subject = @id AND (f.valid_from IS NULL OR f.valid_from <= @at) AND (f.valid_to IS NULL OR f.valid_to > @at)`;
const AS_OF_IN = `SELECT ${FACT_COLUMNS} FROM ${FACT_FROM}
  WHERE f.object = @id AND f.object_is_literal = 0 AND (f.valid_from IS NULL OR f.valid_from <= @at) AND (f.valid_to IS NULL OR f.valid_to > @at)`;

class SqliteGraphStore implements GraphStore {
  readonly kind = 'sqlite';
  readonly supports = { persistent: true, multiProcess: true };
  readonly functionalPredicates: ReadonlySet<string>;
  private readonly clock: Clock;
  private rowsCache: SqliteRows | undefined;
  private readonly stmts = new Map<string, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    private readonly opts: SqliteGraphStoreOptions,
  ) {
    this.clock = opts.clock ?? systemClock;
    this.functionalPredicates = functionalSet(opts.functionalPredicates);
  }

  private get rows(): SqliteRows {
    return (this.rowsCache ??= new SqliteRows(this.db));
  }
  private stmt(sql: string): Database.Statement {
    let s = this.stmts.get(sql);
    if (!s) this.stmts.set(sql, (s = this.db.prepare(sql)));
    return s;
  }
  private run<T>(fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      throw mapSqliteError(e, this.db.name);
    }
  }
  private now(clock?: Clock): string {
    return isoAt((clock ?? this.clock).now());
  }

  async init(): Promise<void> {
    this.run(() => {
      const has = this.db.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'kg_facts'").pluck().get() as number;
      if (!has) this.db.transaction(() => this.db.exec(KG_SCHEMA_V2)).immediate();
    });
  }

  async apply(batch: GraphBatch, opts: ApplyOptions = {}): Promise<ApplyResult> {
    const ctx: EngineContext = { functional: this.functionalPredicates, now: this.now(opts.clock), dates: opts.dates ?? 'keep', lenient: opts.lenient ?? false };
    const rows = this.rows;
    rows.begin();
    try {
      return this.run(() => this.db.transaction(() => applyBatch(rows, batch, ctx, (fn) => rows.savepoint(fn))).immediate());
    } catch (e) {
      rows.forget();
      throw e;
    }
  }
  async applyMany(batches: readonly GraphBatch[], opts: ApplyOptions = {}): Promise<ApplyResult[]> {
    const strict: EngineContext = { functional: this.functionalPredicates, now: this.now(opts.clock), dates: opts.dates ?? 'keep', lenient: false };
    const lenient = opts.lenient ?? false;
    const rows = this.rows;
    rows.begin();
    try {
      return this.run(() =>
        this.db
          .transaction(() =>
            batches.map((b) => {
              // Fast path: one savepoint per batch; only a batch with a bad item is re-applied
              // item by item (a savepoint each), which is what `lenient` costs.
              try {
                return rows.savepoint(() => applyBatch(rows, b, strict));
              } catch (e) {
                if (!lenient || !isLociError(e) || e.category !== 'user') throw e;
                return applyBatch(rows, b, { ...strict, lenient: true }, (fn) => rows.savepoint(fn));
              }
            }),
          )
          .immediate(),
      );
    } catch (e) {
      rows.forget();
      throw e;
    }
  }
  async upsertEntity(input: EntityInput, opts: WriteOptions = {}): Promise<Entity> {
    return (await this.apply({ entities: [input] }, opts)).entities[0]!;
  }
  async addFact(input: FactInput, opts: AddFactOptions = {}): Promise<Fact> {
    return (await this.apply({ facts: [input] }, opts)).facts[0]!;
  }
  async invalidate(subject: string, predicate: string, object: string, opts: WriteOptions & { ended?: string } = {}): Promise<Fact[]> {
    const inv = { subject, predicate, object, ...(opts.ended !== undefined ? { ended: opts.ended } : {}) };
    return (await this.apply({ invalidations: [inv] }, opts)).invalidated;
  }

  private resolveId(nameOrAlias: string): string | undefined {
    const key = entityKey(String(nameOrAlias));
    return key ? this.run(() => resolveKey(this.rows, key)) : undefined;
  }
  async resolveEntity(nameOrAlias: string): Promise<Entity | undefined> {
    const id = this.resolveId(nameOrAlias);
    if (!id) return undefined;
    return this.run(() => this.rows.toEntity(this.rows.getEntity(id)!));
  }
  async entities(opts: EntityListOptions = {}): Promise<Page<Entity>> {
    const limit = pageLimit(opts.limit);
    const after = opts.cursor ? String(decodeCursor(opts.cursor, 1)[0]) : '';
    const prefix = opts.prefix ? entityKey(opts.prefix) : '';
    const type = opts.type?.trim().toLowerCase();
    const sql = `SELECT id FROM kg_entities WHERE id > @after AND id >= @prefix AND id < @upper ${type !== undefined ? 'AND type = @type' : ''} ORDER BY id LIMIT @n`;
    return this.run(() => {
      const ids = this.stmt(sql).pluck().all({ after, prefix, upper: prefix + '\u{10ffff}', n: limit + 1, ...(type !== undefined ? { type } : {}) }) as string[];
      const items = ids.slice(0, limit).map((id) => this.rows.toEntity(this.rows.getEntity(id)!));
      return { items, nextCursor: ids.length > limit ? encodeCursor([ids[limit - 1]!]) : null };
    });
  }

  async query(entity: string, opts: QueryOptions = {}): Promise<Fact[]> {
    const at = opts.asOf !== undefined ? normalizeDate(opts.asOf, 'as_of', 'end') : this.now(opts.clock);
    const predicate = opts.predicate !== undefined ? predicateKey(opts.predicate) : undefined;
    const id = this.resolveId(entity);
    if (!id) return [];
    const dir = opts.direction ?? 'both';
    const p = predicate !== undefined ? ' AND f.predicate = @predicate' : '';
    const parts: string[] = [];
    if (dir !== 'in') parts.push(AS_OF_OUT + p);
    if (dir !== 'out') parts.push(AS_OF_IN + p + (dir === 'both' ? ' AND f.subject <> @id' : ''));
    const sql = `${parts.join(' UNION ALL ')} ORDER BY valid_from, rid`;
    return this.run(() => (this.stmt(sql).all({ id, at, ...(predicate !== undefined ? { predicate } : {}) }) as SqlFact[]).map(toFact));
  }

  async timeline(entity: string, opts: PageOptions = {}): Promise<Page<Fact>> {
    const limit = pageLimit(opts.limit);
    const c = opts.cursor ? decodeCursor(opts.cursor, 2) : null;
    const id = this.resolveId(entity);
    if (!id) return { items: [], nextCursor: null };
    let where = '(f.subject = @id OR (f.object = @id AND f.object_is_literal = 0))';
    const params: Record<string, unknown> = { id, n: limit + 1 };
    if (c) {
      params['rid'] = Number(c[1]);
      if (c[0] === null) where += ' AND ((f.valid_from IS NULL AND f.rid > @rid) OR f.valid_from IS NOT NULL)';
      else {
        params['from'] = String(c[0]);
        where += ' AND (f.valid_from > @from OR (f.valid_from = @from AND f.rid > @rid))';
      }
    }
    const sql = `SELECT ${FACT_COLUMNS} FROM ${FACT_FROM} WHERE ${where} ORDER BY f.valid_from, f.rid LIMIT @n`;
    return this.run(() => {
      const rows = this.stmt(sql).all(params) as SqlFact[];
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return { items: page.map(toFact), nextCursor: rows.length > limit && last ? encodeCursor([last.valid_from, last.rid]) : null };
    });
  }

  async stats(): Promise<GraphStats> {
    return this.run(() => {
      const count = (sql: string) => this.stmt(sql).pluck().get() as number;
      const predicates: Record<string, number> = {};
      for (const r of this.stmt('SELECT predicate, count(*) AS n FROM kg_facts GROUP BY predicate ORDER BY predicate').all() as { predicate: string; n: number }[]) {
        predicates[r.predicate] = r.n;
      }
      return {
        entities: count('SELECT count(*) FROM kg_entities'),
        facts: count('SELECT count(*) FROM kg_facts'),
        openFacts: count('SELECT count(*) FROM kg_facts WHERE valid_to IS NULL'),
        predicates,
      };
    });
  }

  async factsForDrawer(drawerId: string): Promise<Fact[]> {
    const sql = `SELECT ${FACT_COLUMNS} FROM ${FACT_FROM} WHERE f.rid IN (SELECT fact_rid FROM kg_fact_sources WHERE drawer_id = ?) ORDER BY f.rid`;
    return this.run(() => (this.stmt(sql).all(drawerId) as SqlFact[]).map(toFact));
  }

  async drawersForEntities(entityIds: readonly string[], opts: { limit?: number } = {}): Promise<DrawerLink[]> {
    const limit = pageLimit(opts.limit, 1000);
    if (entityIds.length === 0) return [];
    const sql = `WITH ids(id) AS (SELECT value FROM json_each(@ids))
      SELECT drawer_id, entity_id FROM kg_entity_sources WHERE entity_id IN (SELECT id FROM ids)
      UNION SELECT fs.drawer_id, f.subject FROM kg_facts f JOIN kg_fact_sources fs ON fs.fact_rid = f.rid WHERE f.subject IN (SELECT id FROM ids)
      UNION SELECT fs.drawer_id, f.object FROM kg_facts f JOIN kg_fact_sources fs ON fs.fact_rid = f.rid
        WHERE f.object_is_literal = 0 AND f.object IN (SELECT id FROM ids)`;
    return this.run(() => {
      const links = new Map<string, string[]>();
      for (const r of this.stmt(sql).all({ ids: JSON.stringify([...new Set(entityIds)]) }) as { drawer_id: string; entity_id: string }[]) {
        const a = links.get(r.drawer_id);
        if (a) a.push(r.entity_id);
        else links.set(r.drawer_id, [r.entity_id]);
      }
      return sortLinks([...links].map(([drawerId, e]) => ({ drawerId, entities: e.sort() }))).slice(0, limit);
    });
  }

  async close(): Promise<void> {
    if (this.opts.ownsDatabase && this.db.open) this.db.close();
  }
  async dangerouslyClearAll(): Promise<void> {
    this.run(() =>
      this.db
        .transaction(() => {
          for (const t of ['kg_fact_sources', 'kg_entity_sources', 'kg_aliases', 'kg_facts', 'kg_entities']) this.db.exec(`DELETE FROM ${t}`);
        })
        .immediate(),
    );
    this.rowsCache?.forget();
  }
}

/**
 * A graph over an open palace database. Call `init()` once (a no-op when migration 2 already ran).
 * The store does not close the database unless `ownsDatabase` is set.
 */
export function createSqliteGraphStore(db: Database.Database, opts: SqliteGraphStoreOptions = {}): GraphStore {
  return new SqliteGraphStore(db, opts);
}
