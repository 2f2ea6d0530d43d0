/**
 * @module store/graph-port
 * The storage port of the temporal knowledge graph: the records it stores and {@link GraphTables},
 * the synchronous row primitives and read queries an adapter (memory, SQLite) provides. The graph
 * engine of `src/kg/` (validation, resolution, contradictions, cursors) runs over this port and
 * turns it into the public `GraphStore`; adapters hold no graph rule and `kg` holds no SQL.
 */

/** A stored entity. */
export interface Entity {
  /** Normalised key: case/diacritic-folded, separators as `_` ("Dr. Chen" → `dr_chen`). */
  id: string;
  /** The first-seen spelling. */
  name: string;
  type: string;
  /** Declared aliases as spelled, sorted. */
  aliases: string[];
  properties: Record<string, unknown>;
  /** ISO-8601 UTC. */
  createdAt: string;
  /** ISO-8601 UTC. */
  updatedAt: string;
}

/** A stored fact. */
export interface Fact {
  id: string;
  /** Subject entity id. */
  subject: string;
  /** Subject display name. */
  subjectName: string;
  predicate: string;
  /** Object entity id, or the literal value. */
  object: string;
  /** Object display name, or the literal value. */
  objectName: string;
  literal: boolean;
  /** Normalised ISO-8601 UTC, or null (since forever). */
  validFrom: string | null;
  /** Normalised ISO-8601 UTC (exclusive), or null (open). */
  validTo: string | null;
  /** When the fact was first stored (ISO-8601 UTC). */
  recordedAt: string;
  confidence: number;
  /** Drawer ids, sorted. */
  sources: string[];
}

/** Counts for `loci kg stats`. */
export interface GraphStats {
  entities: number;
  facts: number;
  /** Facts with `validTo` null. */
  openFacts: number;
  /** Number of facts per predicate. */
  predicates: Record<string, number>;
}

/** A drawer linked to some of the asked entities (by a fact source or a mention). */
export interface DrawerLink {
  drawerId: string;
  /** The asked entity ids linked to this drawer, sorted. */
  entities: string[];
}

/** Capability flags of a graph adapter. */
export interface GraphCapabilities {
  /** Data survives a restart. */
  persistent: boolean;
  /** Several processes can write the same graph at once. */
  multiProcess: boolean;
}

/** The window of a stored fact, as the rules see it. */
export interface WindowRow {
  /** Insertion order. */
  seq: number;
  object: string;
  literal: boolean;
  validFrom: string | null;
  validTo: string | null;
}

/** A stored entity row. */
export interface EntityRow {
  id: string;
  name: string;
  type: string;
  properties: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

/** A stored fact row (`seq` is the insertion order). */
export interface FactRow extends WindowRow {
  id: string;
  subject: string;
  predicate: string;
  recordedAt: string;
  confidence: number;
}

/** The storage primitives an adapter provides to the engine. All synchronous. */
export interface GraphRows {
  getEntity(id: string): EntityRow | undefined;
  /** Whether an entity has this id (cheaper than getEntity). */
  hasEntity(id: string): boolean;
  /** The entity id owning an alias key, if any. */
  aliasOwner(aliasKey: string): string | undefined;
  insertEntity(row: EntityRow): void;
  updateEntity(row: EntityRow): void;
  insertAlias(aliasKey: string, entityId: string, alias: string): void;
  addEntitySources(entityId: string, drawerIds: readonly string[]): void;
  /** The facts with this subject and predicate, narrowed by `filter` (all of them without). */
  factsOf(subject: string, predicate: string, filter?: FactsFilter): FactRow[];
  /** Stores a new fact and returns it with its `seq`. */
  insertFact(row: Omit<FactRow, 'seq'>): FactRow;
  setWindow(row: FactRow, validFrom: string | null, validTo: string | null): void;
  setConfidence(row: FactRow, confidence: number): void;
  addFactSources(row: FactRow, drawerIds: readonly string[]): void;
  /** The public view of a fact row (names and sources joined). */
  toFact(row: FactRow): Fact;
  /** The public view of an entity row (aliases joined). */
  toEntity(row: EntityRow): Entity;
}

/** Which facts of a (subject, predicate) the engine needs. */
export interface FactsFilter {
  /** Only this object (entity id or literal value) with this literal flag. */
  object?: { value: string; literal: boolean };
  /** Only windows still running after this instant (`validTo` null or later). */
  runningAfter?: string;
}

/** True when a row passes a {@link FactsFilter} (for adapters that filter in code). */
export function passes(r: FactRow, f: FactsFilter | undefined): boolean {
  if (!f) return true;
  if (f.object && (r.object !== f.object.value || r.literal !== f.object.literal)) return false;
  return f.runningAfter === undefined || r.validTo === null || r.validTo > f.runningAfter;
}

/** Compares two window starts where null means -∞. */
export function cmpStart(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}

/** True when the half-open window `[from, to)` contains the instant `at`. */
export function validAt(from: string | null, to: string | null, at: string): boolean {
  return (from === null || from <= at) && (to === null || at < to);
}

/** Where a timeline page starts: after this (validFrom, seq) position. */
export interface TimelinePosition {
  validFrom: string | null;
  seq: number;
}

/**
 * The storage of one graph, as the engine of `src/kg/` uses it. Every method is synchronous (the
 * engine runs a batch inside one transaction); arguments are already normalised (entity ids,
 * predicate keys, ISO-8601 UTC instants). Contract-tested through `src/testing/graph-contract.ts`.
 */
export interface GraphTables extends GraphRows {
  /** Adapter name (`memory`, `sqlite`). */
  readonly kind: string;
  readonly supports: GraphCapabilities;
  /** Creates the schema if needed. Idempotent. */
  init(): Promise<void>;
  /** Runs `fn` as one atomic write (`BEGIN IMMEDIATE` in SQLite, an undo log in memory). */
  write<T>(fn: () => T): T;
  /** Inside {@link write}: runs `fn` so that a throw undoes only its own changes (a savepoint). */
  savepoint<T>(fn: () => T): T;
  /** Runs a read made of row primitives (maps driver errors). */
  read<T>(fn: () => T): T;
  /** Entity ids `> after`, starting with `prefix`, of `type` when given, ordered, at most `limit`. */
  entityIds(q: { after: string; prefix: string; type?: string; limit: number }): string[];
  /** Facts about `id` valid at `at`, ordered by (validFrom with null first, insertion). */
  factsAt(id: string, at: string, direction: 'in' | 'out' | 'both', predicate?: string): Fact[];
  /** Facts about `id` after `after`, ordered like {@link factsAt}, at most `limit`, and where the next page starts. */
  timeline(id: string, after: TimelinePosition | null, limit: number): { facts: Fact[]; next: TimelinePosition | null };
  stats(): GraphStats;
  /** The facts read from one drawer, in insertion order. */
  factsForDrawer(drawerId: string): Fact[];
  /** Drawers linked to the given entity ids (fact sources and mentions), each with its sorted entity ids; any order. */
  drawerLinks(entityIds: readonly string[]): DrawerLink[];
  /** Releases resources (SQLite closes the database only if it owns it). */
  close(): void;
  /** Deletes every entity, alias, fact and link. For tests. */
  clear(): void;
}
