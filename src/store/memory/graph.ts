/**
 * @module store/memory/graph
 * The in-memory reference adapter of {@link GraphTables}: the spec in executable form and the
 * default for unit tests. Writes are atomic through an undo log; nothing survives the process.
 */
import {
  cmpStart,
  passes,
  validAt,
  type DrawerLink,
  type Entity,
  type EntityRow,
  type Fact,
  type FactRow,
  type FactsFilter,
  type GraphRows,
  type GraphStats,
  type GraphTables,
  type TimelinePosition,
} from '../graph-port.js';

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

/** Orders facts by (validFrom with null first, insertion). */
function byStart(a: TimelinePosition, b: TimelinePosition): number {
  return cmpStart(a.validFrom, b.validFrom) || a.seq - b.seq;
}

class MemoryGraphTables extends MemoryRows implements GraphTables {
  readonly kind = 'memory';
  readonly supports = { persistent: false, multiProcess: false };

  async init(): Promise<void> {}
  write<T>(fn: () => T): T {
    return this.atomic(fn);
  }
  savepoint<T>(fn: () => T): T {
    return this.atomic(fn);
  }
  read<T>(fn: () => T): T {
    return fn();
  }
  entityIds(q: { after: string; prefix: string; type?: string; limit: number }): string[] {
    return [...this.entities.values()]
      .filter((e) => e.id > q.after && e.id.startsWith(q.prefix) && (q.type === undefined || e.type === q.type))
      .map((e) => e.id)
      .sort()
      .slice(0, q.limit);
  }
  private about(id: string, direction: 'out' | 'in' | 'both'): FactRow[] {
    const out = direction === 'in' ? [] : (this.bySubject.get(id) ?? []);
    const inc =
      direction === 'out' ? [] : (this.byObject.get(id) ?? []).filter((r) => direction === 'in' || r.subject !== id);
    return [...out, ...inc];
  }
  factsAt(id: string, at: string, direction: 'in' | 'out' | 'both', predicate?: string): Fact[] {
    return this.about(id, direction)
      .filter((r) => validAt(r.validFrom, r.validTo, at) && (predicate === undefined || r.predicate === predicate))
      .sort(byStart)
      .map((r) => this.toFact(r));
  }
  timeline(
    id: string,
    after: TimelinePosition | null,
    limit: number,
  ): { facts: Fact[]; next: TimelinePosition | null } {
    const all = this.about(id, 'both')
      .filter((r) => after === null || byStart(r, after) > 0)
      .sort(byStart);
    const page = all.slice(0, limit);
    const last = page[page.length - 1];
    return {
      facts: page.map((r) => this.toFact(r)),
      next: all.length > limit && last ? { validFrom: last.validFrom, seq: last.seq } : null,
    };
  }
  stats(): GraphStats {
    const predicates: Record<string, number> = {};
    let open = 0;
    for (const f of this.facts) {
      predicates[f.predicate] = (predicates[f.predicate] ?? 0) + 1;
      if (f.validTo === null) open++;
    }
    return { entities: this.entities.size, facts: this.facts.length, openFacts: open, predicates };
  }
  factsForDrawer(drawerId: string): Fact[] {
    const seqs = [...(this.drawerFacts.get(drawerId) ?? [])].sort((a, b) => a - b);
    return seqs.map((s) => this.toFact(this.facts[s - 1]!));
  }
  drawerLinks(entityIds: readonly string[]): DrawerLink[] {
    const links = new Map<string, Set<string>>();
    for (const id of new Set(entityIds)) {
      for (const d of this.entitySources.get(id) ?? []) addToSet(links, d, id);
      for (const r of this.about(id, 'both')) for (const d of this.factSources.get(r.seq) ?? []) addToSet(links, d, id);
    }
    return [...links].map(([drawerId, s]) => ({ drawerId, entities: [...s].sort() }));
  }
  close(): void {}
  clear(): void {
    this.entities = new Map();
    this.aliases = new Map();
    this.facts = [];
    this.bySubject = new Map();
    this.byObject = new Map();
    this.factSources = new Map();
    this.entitySources = new Map();
    this.drawerFacts = new Map();
    this.drawerEntities = new Map();
    this.undo = null;
  }
}

/** Creates empty in-memory graph tables. */
export function createMemoryGraphTables(): GraphTables {
  return new MemoryGraphTables();
}
