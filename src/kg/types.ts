/**
 * @module kg/types
 * The `GraphStore` port: entities, temporal facts and their provenance. Every backend (in-memory
 * reference, SQLite, later PostgreSQL) implements it and passes `src/testing/graph-contract.ts`
 * (tunnels: `tunnel-contract.ts`).
 *
 * Time model (see ARCHITECTURE.md): a fact holds on the half-open window `[validFrom, validTo)`;
 * `validFrom: null` means "since forever", `validTo: null` means "still open". Dates are stored as
 * normalised ISO-8601 UTC strings. Methods are async so that network backends fit; each write
 * method is atomic.
 */
import type { Clock } from '../core/clock.js';
import type { DrawerLink, Entity, Fact, GraphCapabilities, GraphStats } from '../store/index.js';

export type { DrawerLink, Entity, Fact, GraphCapabilities, GraphStats };

/**
 * Common entity types. Open set: any short string is accepted; extraction only produces these.
 * `unknown` is the default and is replaced by the first known type a later write gives.
 */
export type EntityType = 'person' | 'organisation' | 'project' | 'tool' | 'file' | 'place' | 'identifier' | 'unknown';

/** What a caller gives to create or update an entity. */
export interface EntityInput {
  /** Display name, 1–200 characters with a letter or digit. Its {@link entityKey} is the id. */
  name: string;
  /** Default `unknown`. A known type is kept unless `retype` is set (first writer wins). */
  type?: EntityType | (string & {});
  /** Other names that resolve to this entity (e.g. "Chen" for "Dr. Chen"). Unioned with stored ones. */
  aliases?: readonly string[];
  /** Free-form JSON, shallow-merged into the stored properties (the input wins per key). */
  properties?: Record<string, unknown>;
  /** Drawer ids that mention the entity (used to boost search). Unioned with stored ones. */
  sources?: readonly string[];
  /** Replace a known stored type with `type`. Default false. */
  retype?: boolean;
}

/** What a caller gives to state a fact. Subject and object are names, aliases or ids. */
export interface FactInput {
  /** Name, alias or id of the subject; created (with `subjectType`) when unknown. */
  subject: string;
  /** Type for a subject created by this call, or filling an `unknown` one. */
  subjectType?: string;
  /** Relation, normalised to snake_case (`Works At` → `works_at`), 1–64 characters. */
  predicate: string;
  /** Name, alias or id of the object entity, or the literal value when `literal`. */
  object: string;
  /** Type for an object entity created by this call. */
  objectType?: string;
  /** The object is a value (a role, a status), not an entity. Default false. */
  literal?: boolean;
  /** Start (`YYYY-MM-DD` or ISO-8601). Default: the clock's now. `null`: since forever / unknown. */
  validFrom?: string | null;
  /** End, exclusive (`YYYY-MM-DD` or ISO-8601). Default null (open). Must be >= validFrom. */
  validTo?: string | null;
  /** Confidence in (0, 1]. Default 1. A deduplicated fact keeps the maximum. */
  confidence?: number;
  /** Drawer ids the fact was read from. Unioned into a deduplicated fact. */
  sources?: readonly string[];
}

/** Closes the open window of `subject predicate object`. */
export interface InvalidationInput {
  subject: string;
  predicate: string;
  /** Entity name/alias/id or literal value; both readings are tried. */
  object: string;
  /** End, exclusive (`YYYY-MM-DD` or ISO-8601). Default: the clock's now. */
  ended?: string;
  /**
   * When the fact was never stored (no window at all), store it as a window with an unknown start
   * ending at `ended`, so that "what did we use before?" has an answer. Default false.
   */
  recordIfMissing?: boolean;
  /** With `recordIfMissing`: the object is a literal. Default false. */
  literal?: boolean;
  /** With `recordIfMissing`: sources and confidence of the recorded window. */
  sources?: readonly string[];
  /** With `recordIfMissing`: confidence in (0, 1]. Default 1. */
  confidence?: number;
}

/** Several writes applied atomically, in this order: entities, facts, invalidations. */
export interface GraphBatch {
  entities?: readonly EntityInput[];
  facts?: readonly FactInput[];
  invalidations?: readonly InvalidationInput[];
}

/** Options of every write. */
export interface WriteOptions {
  /** Source of "now" (recordedAt, default validFrom / ended). Default: the store's clock. */
  clock?: Clock;
}

/** Options of {@link GraphStore.addFact} and {@link GraphStore.apply}. */
export interface AddFactOptions extends WriteOptions {
  /**
   * What a duplicate of an open fact does to the stored start: `keep` (default) leaves it,
   * `replace` sets it to the input's `validFrom` (then re-applies the contradiction rule).
   */
  dates?: 'keep' | 'replace';
}

/** Options of {@link GraphStore.apply}. */
export interface ApplyOptions extends AddFactOptions {
  /**
   * Skip items that would be rejected (bad date, bad name, window ending before it starts)
   * instead of failing the whole batch; they are listed in `skipped`. Default false.
   */
  lenient?: boolean;
}

/** Result of {@link GraphStore.apply}. */
export interface ApplyResult {
  entities: Entity[];
  /** The stored fact for each accepted fact input (a deduplicated one is the existing fact). */
  facts: Fact[];
  /** Facts whose window was closed by an invalidation (or recorded closed, with `recordIfMissing`). */
  invalidated: Fact[];
  /** Items left out in lenient mode, with the error code. */
  skipped: { kind: 'entity' | 'fact' | 'invalidation'; index: number; code: string; message: string }[];
}

/** Options of {@link GraphStore.query}. */
export interface QueryOptions {
  /** Instant to look at. A bare date means the end of that UTC day. Default: the clock's now. */
  asOf?: string;
  /** `out` (entity is subject), `in` (entity is object) or `both` (default). */
  direction?: 'out' | 'in' | 'both';
  /** Only this predicate (normalised). Default: all. */
  predicate?: string;
  /** Source of "now" when `asOf` is absent. Default: the store's clock. */
  clock?: Clock;
}

/** Paging of listings. */
export interface PageOptions {
  /** Page size, >= 1, no upper cap. Default 50. */
  limit?: number;
  /** `nextCursor` of the previous page. Default: the first page. */
  cursor?: string | null;
}

/** One page of a listing. */
export interface Page<T> {
  items: T[];
  /** Pass to get the next page; null on the last page. */
  nextCursor: string | null;
}

/** Options of {@link GraphStore.entities}. */
export interface EntityListOptions extends PageOptions {
  /** Only this type. */
  type?: string;
  /** Only ids starting with the key of this prefix. */
  prefix?: string;
}

/** Entities, temporal facts and their provenance. */
export interface GraphStore {
  /** Adapter name (`memory`, `sqlite`). */
  readonly kind: string;
  readonly supports: GraphCapabilities;
  /** Predicates that hold one object at a time per subject (see DEFAULT_FUNCTIONAL_PREDICATES). */
  readonly functionalPredicates: ReadonlySet<string>;
  /** Creates the schema if needed. Idempotent. */
  init(): Promise<void>;
  /** Creates or merges an entity, resolved by name or alias. Throws KG_INVALID_ENTITY, KG_ALIAS_TAKEN. */
  upsertEntity(input: EntityInput, opts?: WriteOptions): Promise<Entity>;
  /** The entity whose id, or one of whose aliases, has the key of `nameOrAlias`; else undefined. */
  resolveEntity(nameOrAlias: string): Promise<Entity | undefined>;
  /** A page of entities ordered by id. */
  entities(opts?: EntityListOptions): Promise<Page<Entity>>;
  /**
   * States a fact. An identical open fact (same subject, predicate, object) is returned instead,
   * with sources merged. A fact of a functional predicate closes the conflicting windows of the
   * same subject (see ARCHITECTURE.md). Throws KG_INVALID_DATE, KG_INVALID_WINDOW, KG_INVALID_*.
   */
  addFact(input: FactInput, opts?: AddFactOptions): Promise<Fact>;
  /**
   * Closes the open windows of `subject predicate object` at `ended`; never deletes. Returns them (empty: none open).
   */
  invalidate(
    subject: string,
    predicate: string,
    object: string,
    opts?: WriteOptions & { ended?: string },
  ): Promise<Fact[]>;
  /** Applies a batch (e.g. one drawer's extraction) in one transaction. */
  apply(batch: GraphBatch, opts?: ApplyOptions): Promise<ApplyResult>;
  /**
   * Applies several batches in order, in **one** transaction (each batch still all-or-nothing with
   * `lenient` semantics per batch): the bulk path of extraction at ingest. Results in input order.
   */
  applyMany(batches: readonly GraphBatch[], opts?: ApplyOptions): Promise<ApplyResult[]>;
  /** The facts about `entity` valid at `asOf`, ordered by (validFrom, insertion). Unknown entity: []. */
  query(entity: string, opts?: QueryOptions): Promise<Fact[]>;
  /** Every fact about `entity`, any time, ordered by (validFrom with null first, insertion). */
  timeline(entity: string, opts?: PageOptions): Promise<Page<Fact>>;
  stats(): Promise<GraphStats>;
  /** The facts read from one drawer. */
  factsForDrawer(drawerId: string): Promise<Fact[]>;
  /**
   * Drawers linked to the given entity ids (fact sources and mentions), most entities first, then
   * by drawer id. `limit` default 1000.
   */
  drawersForEntities(entityIds: readonly string[], opts?: { limit?: number }): Promise<DrawerLink[]>;
  /** Releases resources (the SQLite adapter closes the database only if it owns it). */
  close(): Promise<void>;
  /** Deletes every entity, alias, fact and link. For tests. */
  dangerouslyClearAll(): Promise<void>;
}
