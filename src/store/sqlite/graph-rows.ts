/**
 * @module store/sqlite/graph-rows
 * The engine's row primitives ({@link GraphRows}) over prepared better-sqlite3 statements, plus the
 * fact row mapping shared with the read queries of `graph.ts`.
 */
import type Database from 'better-sqlite3';
import type { Entity, EntityRow, Fact, FactRow, FactsFilter, GraphRows } from '../graph-port.js';
import { toEntityRow, toFact, toFactRow, type SqlEntity, type SqlFact, type SqlFactRow } from '../sql-rows.js';

const FACTS_OF =
  'SELECT rid, id, subject, predicate, object, object_is_literal, valid_from, valid_to, recorded_at, confidence ' +
  'FROM kg_facts';

/** Columns selected for a fact with its names; `sources` is a JSON array. */
export const FACT_COLUMNS = `f.rid, f.id, f.subject, s.name AS subject_name, f.predicate, f.object, f.object_is_literal,
  CASE WHEN f.object_is_literal = 1 THEN f.object ELSE coalesce(o.name, f.object) END AS object_name,
  f.valid_from, f.valid_to, f.recorded_at, f.confidence,
  (SELECT json_group_array(drawer_id) FROM kg_fact_sources fs WHERE fs.fact_rid = f.rid) AS sources`;

/** FROM clause matching {@link FACT_COLUMNS}. */
export const FACT_FROM = `kg_facts f JOIN kg_entities s ON s.id = f.subject
  LEFT JOIN kg_entities o ON f.object_is_literal = 0 AND o.id = f.object`;

/** The prepared statements of {@link SqliteRows}. */
function prepareAll(db: Database.Database) {
  const p = (sql: string) => db.prepare(sql);
  return {
    getEntity: p('SELECT * FROM kg_entities WHERE id = ?'),
    hasEntity: p('SELECT 1 FROM kg_entities WHERE id = ?').pluck(),
    name: p('SELECT name FROM kg_entities WHERE id = ?').pluck(),
    aliasOwner: p('SELECT entity_id FROM kg_aliases WHERE alias_key = ?').pluck(),
    aliasesOf: p('SELECT alias FROM kg_aliases WHERE entity_id = ? ORDER BY alias').pluck(),
    insertEntity: p(
      'INSERT INTO kg_entities (id, name, type, properties, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    updateEntity: p('UPDATE kg_entities SET type = ?, properties = ?, updated_at = ? WHERE id = ?'),
    insertAlias: p('INSERT INTO kg_aliases (alias_key, entity_id, alias) VALUES (?, ?, ?)'),
    entitySource: p('INSERT OR IGNORE INTO kg_entity_sources (entity_id, drawer_id) VALUES (?, ?)'),
    factsOf: [
      p(`${FACTS_OF} WHERE subject = @s AND predicate = @p`),
      p(`${FACTS_OF} WHERE subject = @s AND predicate = @p AND object = @o AND object_is_literal = @l`),
      p(`${FACTS_OF} WHERE subject = @s AND predicate = @p AND (valid_to IS NULL OR valid_to > @after)`),
      p(
        `${FACTS_OF} WHERE subject = @s AND predicate = @p AND object = @o AND object_is_literal = @l AND ` +
          '(valid_to IS NULL OR valid_to > @after)',
      ),
    ] as const,
    insertFact: p(
      'INSERT INTO kg_facts (id, subject, predicate, object, object_is_literal, valid_from, valid_to, recorded_at, ' +
        'confidence) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    setWindow: p('UPDATE kg_facts SET valid_from = ?, valid_to = ? WHERE rid = ?'),
    setConfidence: p('UPDATE kg_facts SET confidence = ? WHERE rid = ?'),
    factSource: p('INSERT OR IGNORE INTO kg_fact_sources (fact_rid, drawer_id) VALUES (?, ?)'),
    fact: p(`SELECT ${FACT_COLUMNS} FROM ${FACT_FROM} WHERE f.rid = ?`),
  };
}

/**
 * {@link GraphRows} over one open database (statements prepared once). Entity names are cached
 * (an entity's name never changes once stored), and facts inserted by the running batch are
 * turned into {@link Fact}s without reading them back.
 */
export class SqliteRows implements GraphRows {
  private prepared: ReturnType<typeof prepareAll> | undefined;
  private names = new Map<string, string>();
  private fresh = new Map<number, { row: FactRow; sources: string[] }>();

  constructor(private readonly db: Database.Database) {}

  /** Statements, prepared on first use (the tables may be created by `init()` after construction). */
  private get s(): ReturnType<typeof prepareAll> {
    return (this.prepared ??= prepareAll(this.db));
  }

  getEntity(id: string): EntityRow | undefined {
    const r = this.s.getEntity.get(id) as SqlEntity | undefined;
    return r ? toEntityRow(r) : undefined;
  }
  hasEntity(id: string): boolean {
    if (this.names.has(id)) return true;
    return this.s.hasEntity.get(id) !== undefined;
  }
  /** Starts a batch: forgets the facts of the previous one. */
  begin(): void {
    this.fresh.clear();
    if (this.names.size > 100_000) this.names.clear();
  }
  /** Forgets every cached name (after a rollback or a clear). */
  forget(): void {
    this.names.clear();
    this.fresh.clear();
  }
  private nameOf(id: string): string {
    let n = this.names.get(id);
    if (n === undefined) {
      n = (this.s.name.get(id) as string | undefined) ?? id;
      this.names.set(id, n);
    }
    return n;
  }
  aliasOwner(aliasKey: string): string | undefined {
    return this.s.aliasOwner.get(aliasKey) as string | undefined;
  }
  insertEntity(r: EntityRow): void {
    this.s.insertEntity.run(r.id, r.name, r.type, JSON.stringify(r.properties), r.createdAt, r.updatedAt);
    this.names.set(r.id, r.name);
  }
  updateEntity(r: EntityRow): void {
    this.s.updateEntity.run(r.type, JSON.stringify(r.properties), r.updatedAt, r.id);
  }
  insertAlias(aliasKey: string, entityId: string, alias: string): void {
    this.s.insertAlias.run(aliasKey, entityId, alias);
  }
  addEntitySources(entityId: string, drawerIds: readonly string[]): void {
    for (const d of drawerIds) this.s.entitySource.run(entityId, d);
  }
  factsOf(subject: string, predicate: string, filter: FactsFilter = {}): FactRow[] {
    const params: Record<string, unknown> = { s: subject, p: predicate };
    let k = 0;
    if (filter.object) {
      Object.assign(params, { o: filter.object.value, l: filter.object.literal ? 1 : 0 });
      k += 1;
    }
    if (filter.runningAfter !== undefined) {
      params['after'] = filter.runningAfter;
      k += 2;
    }
    return (this.s.factsOf[k]!.all(params) as SqlFactRow[]).map(toFactRow);
  }
  insertFact(r: Omit<FactRow, 'seq'>): FactRow {
    const info = this.s.insertFact.run(
      r.id,
      r.subject,
      r.predicate,
      r.object,
      r.literal ? 1 : 0,
      r.validFrom,
      r.validTo,
      r.recordedAt,
      r.confidence,
    );
    const row = { ...r, seq: Number(info.lastInsertRowid) };
    this.fresh.set(row.seq, { row: { ...row }, sources: [] });
    return row;
  }
  setWindow(row: FactRow, validFrom: string | null, validTo: string | null): void {
    this.s.setWindow.run(validFrom, validTo, row.seq);
    row.validFrom = validFrom;
    row.validTo = validTo;
    const f = this.fresh.get(row.seq);
    if (f) [f.row.validFrom, f.row.validTo] = [validFrom, validTo];
  }
  setConfidence(row: FactRow, confidence: number): void {
    this.s.setConfidence.run(confidence, row.seq);
    row.confidence = confidence;
    const f = this.fresh.get(row.seq);
    if (f) f.row.confidence = confidence;
  }
  addFactSources(row: FactRow, drawerIds: readonly string[]): void {
    for (const d of drawerIds) this.s.factSource.run(row.seq, d);
    const f = this.fresh.get(row.seq);
    if (f) for (const d of drawerIds) if (!f.sources.includes(d)) f.sources.push(d);
  }
  toFact(latest: FactRow): Fact {
    const f = this.fresh.get(latest.seq);
    if (!f) return toFact(this.s.fact.get(latest.seq) as SqlFact);
    const { row, sources } = f;
    return {
      id: row.id,
      subject: row.subject,
      subjectName: this.nameOf(row.subject),
      predicate: row.predicate,
      object: row.object,
      objectName: row.literal ? row.object : this.nameOf(row.object),
      literal: row.literal,
      validFrom: row.validFrom,
      validTo: row.validTo,
      recordedAt: row.recordedAt,
      confidence: row.confidence,
      sources: [...sources].sort(),
    };
  }
  toEntity(r: EntityRow): Entity {
    return { ...r, aliases: this.s.aliasesOf.all(r.id) as string[] };
  }
  /** Runs `fn` in a savepoint (inside the batch transaction). */
  savepoint<T>(fn: () => T): T {
    try {
      return this.db.transaction(fn)();
    } catch (e) {
      this.names.clear();
      this.fresh.clear();
      throw e;
    }
  }
}
