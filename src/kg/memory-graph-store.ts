/**
 * @module kg/memory-graph-store
 * The in-memory reference adapter of {@link GraphStore}: the spec in executable form and the
 * default for unit tests. Writes are atomic through an undo log; nothing survives the process.
 */
import { systemClock, isoAt, type Clock } from '../core/clock.js';
import { applyBatch, passes, resolveKey, type EngineContext, type EntityRow, type FactRow, type FactsFilter, type GraphRows } from './engine.js';
import { decodeCursor, encodeCursor, entityKey, normalizeDate, pageLimit, predicateKey, validAt } from './normalize.js';
import { byStart, functionalSet, sortLinks, type GraphStoreOptions } from './store-common.js';
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

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const a = m.get(k);
  if (a) a.push(v);
  else m.set(k, [v]);
}

function addToSet<K, V>(m: Map<K, Set<V>>, k: K, v: V): boolean {
  let s = m.get(k);
  if (!s) m.set(k, (s = new Set()));
  if (s.has(v)) return false;
  s.add(v);
  return true;
}

class MemoryRows implements GraphRows {
  entities = new Map<string, EntityRow>();
  aliases = new Map<string, { entityId: string; alias: string }>();
  facts: FactRow[] = [];
  bySubject = new Map<string, FactRow[]>();
  byObject = new Map<string, FactRow[]>();
  factSources = new Map<number, Set<string>>();
  entitySources = new Map<string, Set<string>>();
  drawerFacts = new Map<string, Set<number>>();
  drawerEntities = new Map<string, Set<string>>();
  undo: (() => void)[] | null = null;

  private log(fn: () => void): void {
    this.undo?.push(fn);
  }
  getEntity(id: string): EntityRow | undefined {
    return this.entities.get(id);
  }
  hasEntity(id: string): boolean {
    return this.entities.has(id);
  }
  aliasOwner(aliasKey: string): string | undefined {
    return this.aliases.get(aliasKey)?.entityId;
  }
  insertEntity(row: EntityRow): void {
    this.entities.set(row.id, { ...row });
    this.log(() => this.entities.delete(row.id));
  }
  updateEntity(row: EntityRow): void {
    const old = this.entities.get(row.id);
    this.entities.set(row.id, { ...row });
    this.log(() => (old ? this.entities.set(row.id, old) : this.entities.delete(row.id)));
  }
  insertAlias(aliasKey: string, entityId: string, alias: string): void {
    this.aliases.set(aliasKey, { entityId, alias });
    this.log(() => this.aliases.delete(aliasKey));
  }
  addEntitySources(entityId: string, drawerIds: readonly string[]): void {
    for (const d of drawerIds) {
      if (addToSet(this.entitySources, entityId, d)) {
        addToSet(this.drawerEntities, d, entityId);
        this.log(() => {
          this.entitySources.get(entityId)?.delete(d);
          this.drawerEntities.get(d)?.delete(entityId);
        });
      }
    }
  }
  factsOf(subject: string, predicate: string, filter?: FactsFilter): FactRow[] {
    return (this.bySubject.get(subject) ?? []).filter((r) => r.predicate === predicate && passes(r, filter));
  }
  insertFact(row: Omit<FactRow, 'seq'>): FactRow {
    const full: FactRow = { ...row, seq: this.facts.length + 1 };
    this.facts.push(full);
    push(this.bySubject, full.subject, full);
    if (!full.literal) push(this.byObject, full.object, full);
    this.log(() => {
      this.facts.pop();
      this.bySubject.get(full.subject)?.pop();
      if (!full.literal) this.byObject.get(full.object)?.pop();
    });
    return full;
  }
  setWindow(row: FactRow, validFrom: string | null, validTo: string | null): void {
    const [f, t] = [row.validFrom, row.validTo];
    row.validFrom = validFrom;
    row.validTo = validTo;
    this.log(() => {
      row.validFrom = f;
      row.validTo = t;
    });
  }
  setConfidence(row: FactRow, confidence: number): void {
    const old = row.confidence;
    row.confidence = confidence;
    this.log(() => (row.confidence = old));
  }
  addFactSources(row: FactRow, drawerIds: readonly string[]): void {
    for (const d of drawerIds) {
      if (addToSet(this.factSources, row.seq, d)) {
        addToSet(this.drawerFacts, d, row.seq);
        this.log(() => {
          this.factSources.get(row.seq)?.delete(d);
          this.drawerFacts.get(d)?.delete(row.seq);
        });
      }
    }
  }
  toFact(r: FactRow): Fact {
    const objectName = r.literal ? r.object : (this.entities.get(r.object)?.name ?? r.object);
    return {
      id: r.id,
      subject: r.subject,
      subjectName: this.entities.get(r.subject)?.name ?? r.subject,
      predicate: r.predicate,
      object: r.object,
      objectName,
      literal: r.literal,
      validFrom: r.validFrom,
      validTo: r.validTo,
      recordedAt: r.recordedAt,
      confidence: r.confidence,
      sources: [...(this.factSources.get(r.seq) ?? [])].sort(),
    };
  }
  toEntity(r: EntityRow): Entity {
    const aliases = [...this.aliases.values()].filter((a) => a.entityId === r.id).map((a) => a.alias);
    return { ...r, properties: { ...r.properties }, aliases: aliases.sort() };
  }
  /** Runs `fn` atomically: on a throw every change it made is undone. */
  atomic<T>(fn: () => T): T {
    const outer = this.undo;
    const mark = outer?.length ?? 0;
    if (!outer) this.undo = [];
    const log = this.undo!;
    try {
      return fn();
    } catch (e) {
      while (log.length > mark) log.pop()!();
      throw e;
    } finally {
      if (!outer) this.undo = null;
    }
  }
}

class MemoryGraphStore implements GraphStore {
  readonly kind = 'memory';
  readonly supports = { persistent: false, multiProcess: false };
  readonly functionalPredicates: ReadonlySet<string>;
  private rows = new MemoryRows();
  private readonly clock: Clock;

  constructor(opts: GraphStoreOptions) {
    this.clock = opts.clock ?? systemClock;
    this.functionalPredicates = functionalSet(opts.functionalPredicates);
  }

  private now(clock?: Clock): string {
    return isoAt((clock ?? this.clock).now());
  }
  async init(): Promise<void> {}

  async apply(batch: GraphBatch, opts: ApplyOptions = {}): Promise<ApplyResult> {
    const ctx: EngineContext = { functional: this.functionalPredicates, now: this.now(opts.clock), dates: opts.dates ?? 'keep', lenient: opts.lenient ?? false };
    return this.rows.atomic(() => applyBatch(this.rows, batch, ctx, (fn) => this.rows.atomic(fn)));
  }
  async applyMany(batches: readonly GraphBatch[], opts: ApplyOptions = {}): Promise<ApplyResult[]> {
    const out: ApplyResult[] = [];
    for (const b of batches) out.push(await this.apply(b, opts));
    return out;
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
    return key ? resolveKey(this.rows, key) : undefined;
  }
  async resolveEntity(nameOrAlias: string): Promise<Entity | undefined> {
    const id = this.resolveId(nameOrAlias);
    return id ? this.rows.toEntity(this.rows.entities.get(id)!) : undefined;
  }
  async entities(opts: EntityListOptions = {}): Promise<Page<Entity>> {
    const limit = pageLimit(opts.limit);
    const after = opts.cursor ? String(decodeCursor(opts.cursor, 1)[0]) : null;
    const prefix = opts.prefix ? entityKey(opts.prefix) : '';
    const type = opts.type?.trim().toLowerCase();
    const all = [...this.rows.entities.values()]
      .filter((e) => (after === null || e.id > after) && e.id.startsWith(prefix) && (type === undefined || e.type === type))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const items = all.slice(0, limit).map((e) => this.rows.toEntity(e));
    return { items, nextCursor: all.length > limit ? encodeCursor([items[items.length - 1]!.id]) : null };
  }

  private about(id: string, direction: 'out' | 'in' | 'both'): FactRow[] {
    const out = direction === 'in' ? [] : (this.rows.bySubject.get(id) ?? []);
    const inc = direction === 'out' ? [] : (this.rows.byObject.get(id) ?? []).filter((r) => direction === 'in' || r.subject !== id);
    return [...out, ...inc];
  }
  async query(entity: string, opts: QueryOptions = {}): Promise<Fact[]> {
    const at = opts.asOf !== undefined ? normalizeDate(opts.asOf, 'as_of', 'end') : this.now(opts.clock);
    const predicate = opts.predicate !== undefined ? predicateKey(opts.predicate) : undefined;
    const id = this.resolveId(entity);
    if (!id) return [];
    return this.about(id, opts.direction ?? 'both')
      .filter((r) => validAt(r.validFrom, r.validTo, at) && (predicate === undefined || r.predicate === predicate))
      .sort(byStart)
      .map((r) => this.rows.toFact(r));
  }
  async timeline(entity: string, opts: PageOptions = {}): Promise<Page<Fact>> {
    const limit = pageLimit(opts.limit);
    const c = opts.cursor ? decodeCursor(opts.cursor, 2) : null;
    const pos = c ? { validFrom: c[0] as string | null, seq: Number(c[1]) } : null;
    const id = this.resolveId(entity);
    if (!id) return { items: [], nextCursor: null };
    const all = this.about(id, 'both').filter((r) => pos === null || byStart(r, pos) > 0).sort(byStart);
    const page = all.slice(0, limit);
    const last = page[page.length - 1];
    return { items: page.map((r) => this.rows.toFact(r)), nextCursor: all.length > limit && last ? encodeCursor([last.validFrom, last.seq]) : null };
  }
  async stats(): Promise<GraphStats> {
    const predicates: Record<string, number> = {};
    let open = 0;
    for (const f of this.rows.facts) {
      predicates[f.predicate] = (predicates[f.predicate] ?? 0) + 1;
      if (f.validTo === null) open++;
    }
    return { entities: this.rows.entities.size, facts: this.rows.facts.length, openFacts: open, predicates };
  }
  async factsForDrawer(drawerId: string): Promise<Fact[]> {
    const seqs = [...(this.rows.drawerFacts.get(drawerId) ?? [])].sort((a, b) => a - b);
    return seqs.map((s) => this.rows.toFact(this.rows.facts[s - 1]!));
  }
  async drawersForEntities(entityIds: readonly string[], opts: { limit?: number } = {}): Promise<DrawerLink[]> {
    const limit = pageLimit(opts.limit, 1000);
    const links = new Map<string, Set<string>>();
    for (const id of new Set(entityIds)) {
      for (const d of this.rows.entitySources.get(id) ?? []) addToSet(links, d, id);
      for (const r of this.about(id, 'both')) for (const d of this.rows.factSources.get(r.seq) ?? []) addToSet(links, d, id);
    }
    return sortLinks([...links].map(([drawerId, s]) => ({ drawerId, entities: [...s].sort() }))).slice(0, limit);
  }
  async close(): Promise<void> {}
  async dangerouslyClearAll(): Promise<void> {
    this.rows = new MemoryRows();
  }
}

/** Creates an empty in-memory graph. */
export function createMemoryGraphStore(opts: GraphStoreOptions = {}): GraphStore {
  return new MemoryGraphStore(opts);
}
