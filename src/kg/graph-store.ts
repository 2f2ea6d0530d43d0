/**
 * @module kg/graph-store
 * The one {@link GraphStore} implementation: the graph rules of `engine.ts` (validation, entity
 * resolution, deduplication, contradictions), input normalisation and cursors, over any storage
 * adapter of the {@link GraphTables} port (`src/store/memory/graph.ts`, `src/store/sqlite/graph.ts`).
 */
import { isLociError } from '../core/errors.js';
import { isoAt, systemClock, type Clock } from '../core/clock.js';
import {
  createMemoryGraphTables,
  createSqliteGraphTables,
  type DrawerLink,
  type GraphTables,
  type SqliteDatabase,
} from '../store/index.js';
import { applyBatch, resolveKey, type EngineContext } from './engine.js';
import { decodeCursor, encodeCursor, entityKey, normalizeDate, pageLimit, predicateKey } from './normalize.js';
import { DEFAULT_FUNCTIONAL_PREDICATES } from './semantics.js';
import type {
  AddFactOptions,
  ApplyOptions,
  ApplyResult,
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

/** Options of the graph stores. */
export interface GraphStoreOptions {
  /** Source of "now". Default: the system clock. */
  clock?: Clock;
  /** The functional predicates (replaces the default set). Default {@link DEFAULT_FUNCTIONAL_PREDICATES}. */
  functionalPredicates?: Iterable<string>;
}

/** Options of {@link createSqliteGraphStore}. */
export interface SqliteGraphStoreOptions extends GraphStoreOptions {
  /** Close the database in `close()`. Default false (the palace owns it). */
  ownsDatabase?: boolean;
}

/** Orders drawer links: most entities first, then drawer id. */
function sortLinks(links: DrawerLink[]): DrawerLink[] {
  return links.sort(
    (a, b) => b.entities.length - a.entities.length || (a.drawerId < b.drawerId ? -1 : a.drawerId > b.drawerId ? 1 : 0),
  );
}

class EngineGraphStore implements GraphStore {
  readonly kind: string;
  readonly supports;
  readonly functionalPredicates: ReadonlySet<string>;
  private readonly clock: Clock;

  constructor(
    private readonly t: GraphTables,
    opts: GraphStoreOptions,
  ) {
    this.kind = t.kind;
    this.supports = t.supports;
    this.clock = opts.clock ?? systemClock;
    this.functionalPredicates = new Set(
      [...(opts.functionalPredicates ?? DEFAULT_FUNCTIONAL_PREDICATES)].map(predicateKey),
    );
  }

  private now(clock?: Clock): string {
    return isoAt((clock ?? this.clock).now());
  }
  private context(opts: ApplyOptions, lenient: boolean): EngineContext {
    return { functional: this.functionalPredicates, now: this.now(opts.clock), dates: opts.dates ?? 'keep', lenient };
  }
  async init(): Promise<void> {
    await this.t.init();
  }

  async apply(batch: GraphBatch, opts: ApplyOptions = {}): Promise<ApplyResult> {
    const ctx = this.context(opts, opts.lenient ?? false);
    return this.t.write(() => applyBatch(this.t, batch, ctx, (fn) => this.t.savepoint(fn)));
  }
  async applyMany(batches: readonly GraphBatch[], opts: ApplyOptions = {}): Promise<ApplyResult[]> {
    const strict = this.context(opts, false);
    const lenient = opts.lenient ?? false;
    return this.t.write(() =>
      batches.map((b) => {
        // Fast path: one savepoint per batch; only a batch with a bad item is re-applied item by
        // item (a savepoint each), which is what `lenient` costs.
        try {
          return this.t.savepoint(() => applyBatch(this.t, b, strict));
        } catch (e) {
          if (!lenient || !isLociError(e) || e.category !== 'user') throw e;
          return applyBatch(this.t, b, { ...strict, lenient: true }, (fn) => this.t.savepoint(fn));
        }
      }),
    );
  }
  async upsertEntity(input: EntityInput, opts: WriteOptions = {}): Promise<Entity> {
    return (await this.apply({ entities: [input] }, opts)).entities[0]!;
  }
  async addFact(input: FactInput, opts: AddFactOptions = {}): Promise<Fact> {
    return (await this.apply({ facts: [input] }, opts)).facts[0]!;
  }
  async invalidate(
    subject: string,
    predicate: string,
    object: string,
    opts: WriteOptions & { ended?: string } = {},
  ): Promise<Fact[]> {
    const inv = { subject, predicate, object, ...(opts.ended !== undefined ? { ended: opts.ended } : {}) };
    return (await this.apply({ invalidations: [inv] }, opts)).invalidated;
  }

  private resolveId(nameOrAlias: string): string | undefined {
    const key = entityKey(String(nameOrAlias));
    return key ? this.t.read(() => resolveKey(this.t, key)) : undefined;
  }
  private entity(id: string): Entity {
    return this.t.read(() => this.t.toEntity(this.t.getEntity(id)!));
  }
  async resolveEntity(nameOrAlias: string): Promise<Entity | undefined> {
    const id = this.resolveId(nameOrAlias);
    return id ? this.entity(id) : undefined;
  }
  async entities(opts: EntityListOptions = {}): Promise<Page<Entity>> {
    const limit = pageLimit(opts.limit);
    const after = opts.cursor ? String(decodeCursor(opts.cursor, 1)[0]) : '';
    const prefix = opts.prefix ? entityKey(opts.prefix) : '';
    const type = opts.type?.trim().toLowerCase();
    const ids = this.t.entityIds({ after, prefix, limit: limit + 1, ...(type !== undefined ? { type } : {}) });
    const items = ids.slice(0, limit).map((id) => this.entity(id));
    return { items, nextCursor: ids.length > limit ? encodeCursor([ids[limit - 1]!]) : null };
  }
  async query(entity: string, opts: QueryOptions = {}): Promise<Fact[]> {
    const at = opts.asOf !== undefined ? normalizeDate(opts.asOf, 'as_of', 'end') : this.now(opts.clock);
    const predicate = opts.predicate !== undefined ? predicateKey(opts.predicate) : undefined;
    const id = this.resolveId(entity);
    return id ? this.t.factsAt(id, at, opts.direction ?? 'both', predicate) : [];
  }
  async timeline(entity: string, opts: PageOptions = {}): Promise<Page<Fact>> {
    const limit = pageLimit(opts.limit);
    const c = opts.cursor ? decodeCursor(opts.cursor, 2) : null;
    const id = this.resolveId(entity);
    if (!id) return { items: [], nextCursor: null };
    const after = c ? { validFrom: c[0] === null ? null : String(c[0]), seq: Number(c[1]) } : null;
    const { facts, next } = this.t.timeline(id, after, limit);
    return { items: facts, nextCursor: next ? encodeCursor([next.validFrom, next.seq]) : null };
  }
  async stats(): Promise<GraphStats> {
    return this.t.stats();
  }
  async factsForDrawer(drawerId: string): Promise<Fact[]> {
    return this.t.factsForDrawer(drawerId);
  }
  async drawersForEntities(entityIds: readonly string[], opts: { limit?: number } = {}): Promise<DrawerLink[]> {
    const limit = pageLimit(opts.limit, 1000);
    return sortLinks(this.t.drawerLinks(entityIds)).slice(0, limit);
  }
  async close(): Promise<void> {
    this.t.close();
  }
  async dangerouslyClearAll(): Promise<void> {
    this.t.clear();
  }
}

/** A graph over any {@link GraphTables} adapter. Call `init()` once before use. */
export function createGraphStore(tables: GraphTables, opts: GraphStoreOptions = {}): GraphStore {
  return new EngineGraphStore(tables, opts);
}

/** Creates an empty in-memory graph. */
export function createMemoryGraphStore(opts: GraphStoreOptions = {}): GraphStore {
  return createGraphStore(createMemoryGraphTables(), opts);
}

/**
 * A graph over an open palace database. Call `init()` once (a no-op when migration 2 already ran).
 * The store does not close the database unless `ownsDatabase` is set.
 */
export function createSqliteGraphStore(db: SqliteDatabase, opts: SqliteGraphStoreOptions = {}): GraphStore {
  return createGraphStore(createSqliteGraphTables(db, { ownsDatabase: opts.ownsDatabase ?? false }), opts);
}
