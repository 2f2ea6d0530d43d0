/**
 * @module store/postgres/graph
 * The PostgreSQL adapter of {@link GraphTables}: the knowledge graph in the palace schema (tables of
 * migration 2), over a blocking connection of its own (`sync-connection.ts`), because the graph port
 * is synchronous. A write batch is one transaction holding the graph's advisory lock (per schema;
 * not the drawers' lock, which an asynchronous write of this same process may hold), so several
 * processes can write one graph; savepoints undo a failed step only.
 */
import type {
  DrawerLink,
  Entity,
  EntityRow,
  Fact,
  FactRow,
  FactsFilter,
  GraphStats,
  GraphTables,
  TimelinePosition,
} from '../graph-port.js';
import {
  toEntityRow,
  toFact,
  toFactRow,
  type SqlEntity,
  type SqlFact as PgFact,
  type SqlFactRow as PgFactRow,
} from '../sql-rows.js';
import { isLociError } from '../../core/errors.js';
import { LOCK_SPACE } from './connect.js';
import type { SyncConnection } from './sync-connection.js';

const FACT_COLUMNS = `f.rid, f.id, f.subject, s.name AS subject_name, f.predicate, f.object, f.object_is_literal,
  CASE WHEN f.object_is_literal = 1 THEN f.object ELSE coalesce(o.name, f.object) END AS object_name,
  f.valid_from, f.valid_to, f.recorded_at, f.confidence,
  (SELECT coalesce(json_agg(fs.drawer_id), '[]'::json) FROM kg_fact_sources fs WHERE fs.fact_rid = f.rid) AS sources`;
const FACT_FROM = `kg_facts f JOIN kg_entities s ON s.id = f.subject
  LEFT JOIN kg_entities o ON f.object_is_literal = 0 AND o.id = f.object`;
const FACT_ROW_COLS =
  'rid, id, subject, predicate, object, object_is_literal, valid_from, valid_to, recorded_at, confidence';

const AS_OF = (side: 'out' | 'in') =>
  `SELECT ${FACT_COLUMNS} FROM ${FACT_FROM} WHERE ` +
  (side === 'out' ? 'f.subject = $1' : 'f.object = $1 AND f.object_is_literal = 0') +
  ' AND (f.valid_from IS NULL OR f.valid_from <= $2) AND (f.valid_to IS NULL OR f.valid_to > $2)';

class PostgresGraphTables implements GraphTables {
  readonly kind = 'postgres';
  readonly supports = { persistent: true, multiProcess: true };
  private conn: SyncConnection | undefined;
  private depth = 0;
  /** Entity ids known to exist (entities are never deleted but by `clear`); forgotten on a rollback. */
  private known = new Set<string>();

  constructor(private readonly open: () => SyncConnection) {}

  private q<R>(sql: string, params: readonly unknown[] = []): R[] {
    this.conn ??= this.open();
    return this.conn.query<R>(sql, params).rows;
  }

  async init(): Promise<void> {
    // The schema is migrated by openPostgresPalace.
  }
  read<T>(fn: () => T): T {
    return fn();
  }
  write<T>(fn: () => T): T {
    for (let attempt = 1; ; attempt++) {
      let committing = false;
      try {
        this.q('BEGIN');
        this.q('SELECT pg_advisory_xact_lock($1, hashtext(current_schema()) + 2)', [LOCK_SPACE]);
        const out = fn();
        committing = true;
        this.q('COMMIT');
        return out;
      } catch (e) {
        this.known.clear();
        const lost = isLociError(e) && e.code === 'PG_UNREACHABLE';
        try {
          this.q('ROLLBACK');
        } catch {
          /* the connection is gone: the server rolled back */
        }
        // The connection died before COMMIT (a restarted server, a terminated backend): the server
        // rolled the whole batch back, so it runs once more, on a new connection. A COMMIT that saw
        // the connection die may have committed: that one is not repeated.
        if (lost && !committing && attempt === 1) continue;
        throw e;
      }
    }
  }
  savepoint<T>(fn: () => T): T {
    const name = `sp${++this.depth}`;
    this.q(`SAVEPOINT ${name}`);
    try {
      const out = fn();
      this.q(`RELEASE SAVEPOINT ${name}`);
      return out;
    } catch (e) {
      this.known.clear();
      this.q(`ROLLBACK TO SAVEPOINT ${name}`);
      this.q(`RELEASE SAVEPOINT ${name}`);
      throw e;
    } finally {
      this.depth--;
    }
  }

  getEntity(id: string): EntityRow | undefined {
    const [r] = this.q<SqlEntity>('SELECT * FROM kg_entities WHERE id = $1', [id]);
    return r ? toEntityRow(r) : undefined;
  }
  hasEntity(id: string): boolean {
    if (this.known.has(id)) return true;
    const has = this.q('SELECT 1 FROM kg_entities WHERE id = $1', [id]).length > 0;
    if (has && this.known.size < 100_000) this.known.add(id);
    return has;
  }
  aliasOwner(aliasKey: string): string | undefined {
    return this.q<{ entity_id: string }>('SELECT entity_id FROM kg_aliases WHERE alias_key = $1', [aliasKey])[0]
      ?.entity_id;
  }
  insertEntity(r: EntityRow): void {
    this.q(
      'INSERT INTO kg_entities (id, name, type, properties, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)',
      [r.id, r.name, r.type, JSON.stringify(r.properties), r.createdAt, r.updatedAt],
    );
    if (this.known.size < 100_000) this.known.add(r.id);
  }
  updateEntity(r: EntityRow): void {
    this.q('UPDATE kg_entities SET type = $1, properties = $2, updated_at = $3 WHERE id = $4', [
      r.type,
      JSON.stringify(r.properties),
      r.updatedAt,
      r.id,
    ]);
  }
  insertAlias(aliasKey: string, entityId: string, alias: string): void {
    this.q('INSERT INTO kg_aliases (alias_key, entity_id, alias) VALUES ($1, $2, $3)', [aliasKey, entityId, alias]);
  }
  addEntitySources(entityId: string, drawerIds: readonly string[]): void {
    if (drawerIds.length === 0) return;
    this.q(
      'INSERT INTO kg_entity_sources (entity_id, drawer_id) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING',
      [entityId, [...drawerIds]],
    );
  }
  factsOf(subject: string, predicate: string, filter: FactsFilter = {}): FactRow[] {
    const params: unknown[] = [subject, predicate];
    let sql = `SELECT ${FACT_ROW_COLS} FROM kg_facts WHERE subject = $1 AND predicate = $2`;
    if (filter.object) {
      params.push(filter.object.value, filter.object.literal ? 1 : 0);
      sql += ' AND object = $3 AND object_is_literal = $4';
    }
    if (filter.runningAfter !== undefined) {
      params.push(filter.runningAfter);
      sql += ` AND (valid_to IS NULL OR valid_to > $${params.length})`;
    }
    return this.q<PgFactRow>(sql + ' ORDER BY rid', params).map(toFactRow);
  }
  insertFact(r: Omit<FactRow, 'seq'>): FactRow {
    const [row] = this.q<{ rid: number }>(
      'INSERT INTO kg_facts (id, subject, predicate, object, object_is_literal, valid_from, valid_to, recorded_at, ' +
        'confidence) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING rid',
      [r.id, r.subject, r.predicate, r.object, r.literal ? 1 : 0, r.validFrom, r.validTo, r.recordedAt, r.confidence],
    );
    return { ...r, seq: row!.rid };
  }
  setWindow(row: FactRow, validFrom: string | null, validTo: string | null): void {
    this.q('UPDATE kg_facts SET valid_from = $1, valid_to = $2 WHERE rid = $3', [validFrom, validTo, row.seq]);
    row.validFrom = validFrom;
    row.validTo = validTo;
  }
  setConfidence(row: FactRow, confidence: number): void {
    this.q('UPDATE kg_facts SET confidence = $1 WHERE rid = $2', [confidence, row.seq]);
    row.confidence = confidence;
  }
  addFactSources(row: FactRow, drawerIds: readonly string[]): void {
    if (drawerIds.length === 0) return;
    this.q('INSERT INTO kg_fact_sources (fact_rid, drawer_id) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING', [
      row.seq,
      [...drawerIds],
    ]);
  }
  toFact(row: FactRow): Fact {
    return toFact(this.q<PgFact>(`SELECT ${FACT_COLUMNS} FROM ${FACT_FROM} WHERE f.rid = $1`, [row.seq])[0]!);
  }
  toEntity(r: EntityRow): Entity {
    const aliases = this.q<{ alias: string }>('SELECT alias FROM kg_aliases WHERE entity_id = $1 ORDER BY alias', [
      r.id,
    ]).map((a) => a.alias);
    return { ...r, aliases };
  }

  entityIds(q: { after: string; prefix: string; type?: string; limit: number }): string[] {
    const params: unknown[] = [q.after, q.prefix, q.limit];
    let sql = 'SELECT id FROM kg_entities WHERE id > $1 AND starts_with(id, $2)';
    if (q.type !== undefined) sql += ` AND type = $${params.push(q.type)}`;
    return this.q<{ id: string }>(`${sql} ORDER BY id LIMIT $3`, params).map((r) => r.id);
  }
  factsAt(id: string, at: string, dir: 'in' | 'out' | 'both', predicate?: string): Fact[] {
    const params: unknown[] = [id, at];
    const p = predicate !== undefined ? ` AND f.predicate = $${params.push(predicate)}` : '';
    const parts: string[] = [];
    if (dir !== 'in') parts.push(AS_OF('out') + p);
    if (dir !== 'out') parts.push(AS_OF('in') + p + (dir === 'both' ? ' AND f.subject <> $1' : ''));
    const sql = `${parts.join(' UNION ALL ')} ORDER BY valid_from NULLS FIRST, rid`;
    return this.q<PgFact>(sql, params).map(toFact);
  }
  timeline(
    id: string,
    after: TimelinePosition | null,
    limit: number,
  ): { facts: Fact[]; next: TimelinePosition | null } {
    let where = '(f.subject = $1 OR (f.object = $1 AND f.object_is_literal = 0))';
    const params: unknown[] = [id, limit + 1];
    if (after) {
      const rid = `$${params.push(after.seq)}`;
      if (after.validFrom === null)
        where += ` AND ((f.valid_from IS NULL AND f.rid > ${rid}) OR f.valid_from IS NOT NULL)`;
      else {
        const from = `$${params.push(after.validFrom)}`;
        where += ` AND (f.valid_from > ${from} OR (f.valid_from = ${from} AND f.rid > ${rid}))`;
      }
    }
    const sql =
      `SELECT ${FACT_COLUMNS} FROM ${FACT_FROM} WHERE ${where} ` + 'ORDER BY f.valid_from NULLS FIRST, f.rid LIMIT $2';
    const rows = this.q<PgFact>(sql, params);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      facts: page.map(toFact),
      next: rows.length > limit && last ? { validFrom: last.valid_from, seq: last.rid } : null,
    };
  }
  stats(): GraphStats {
    const [c] = this.q<{ entities: number; facts: number; open: number }>(
      'SELECT (SELECT count(*) FROM kg_entities)::int AS entities, (SELECT count(*) FROM kg_facts)::int AS facts, ' +
        '(SELECT count(*) FROM kg_facts WHERE valid_to IS NULL)::int AS open',
    );
    const predicates: Record<string, number> = {};
    for (const r of this.q<{ predicate: string; n: number }>(
      'SELECT predicate, count(*)::int AS n FROM kg_facts GROUP BY predicate ORDER BY predicate',
    ))
      predicates[r.predicate] = r.n;
    return { entities: c!.entities, facts: c!.facts, openFacts: c!.open, predicates };
  }
  factsForDrawer(drawerId: string): Fact[] {
    return this.q<PgFact>(
      `SELECT ${FACT_COLUMNS} FROM ${FACT_FROM} WHERE f.rid IN (SELECT fact_rid FROM kg_fact_sources ` +
        'WHERE drawer_id = $1) ORDER BY f.rid',
      [drawerId],
    ).map(toFact);
  }
  drawerLinks(entityIds: readonly string[]): DrawerLink[] {
    if (entityIds.length === 0) return [];
    const sql = `SELECT drawer_id, entity_id FROM kg_entity_sources WHERE entity_id = ANY($1::text[])
      UNION SELECT fs.drawer_id, f.subject FROM kg_facts f JOIN kg_fact_sources fs ON fs.fact_rid = f.rid
        WHERE f.subject = ANY($1::text[])
      UNION SELECT fs.drawer_id, f.object FROM kg_facts f JOIN kg_fact_sources fs ON fs.fact_rid = f.rid
        WHERE f.object_is_literal = 0 AND f.object = ANY($1::text[])`;
    const links = new Map<string, string[]>();
    for (const r of this.q<{ drawer_id: string; entity_id: string }>(sql, [[...new Set(entityIds)]])) {
      const a = links.get(r.drawer_id);
      if (a) a.push(r.entity_id);
      else links.set(r.drawer_id, [r.entity_id]);
    }
    return [...links].map(([drawerId, e]) => ({ drawerId, entities: e.sort() }));
  }
  close(): void {
    this.conn?.close();
    this.conn = undefined;
  }
  clear(): void {
    this.known.clear();
    // DELETE, not TRUNCATE: on the small graphs of tests it is ten times faster.
    this.q(
      'DELETE FROM kg_fact_sources; DELETE FROM kg_entity_sources; DELETE FROM kg_aliases; DELETE FROM kg_facts; ' +
        'DELETE FROM kg_entities',
    );
  }
}

/** The graph tables of a PostgreSQL palace over a blocking connection opened on first use. */
export function createPostgresGraphTables(open: () => SyncConnection): GraphTables {
  return new PostgresGraphTables(open);
}
