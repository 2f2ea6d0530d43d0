/**
 * @module store/sqlite/graph
 * The SQLite adapter of {@link GraphTables}: the knowledge graph in the palace database next to the
 * drawers (tables from migration 2, `graph-schema.ts`). It takes a better-sqlite3 database that is
 * already open (`openDatabase`). Every write runs in one `BEGIN IMMEDIATE` transaction, so several
 * processes can write one palace at once. The graph rules run above it, in `src/kg/`.
 */
import type Database from 'better-sqlite3';
import type { DrawerLink, Fact, GraphStats, GraphTables, TimelinePosition } from '../graph-port.js';
import { mapSqliteError } from './driver.js';
import { toFact, type SqlFact } from '../sql-rows.js';
import { FACT_COLUMNS, FACT_FROM, SqliteRows } from './graph-rows.js';
import { KG_SCHEMA_V2 } from './graph-schema.js';

/** Options of {@link createSqliteGraphTables}. */
interface SqliteGraphTablesOptions {
  /** Close the database in `close()`. Default false (the palace owns it). */
  ownsDatabase?: boolean;
}

const AS_OF_OUT = `SELECT ${FACT_COLUMNS} FROM ${FACT_FROM}
  WHERE f.subject = @id AND (f.valid_from IS NULL OR f.valid_from <= @at) AND (f.valid_to IS NULL OR f.valid_to > @at)`;
const AS_OF_IN = `SELECT ${FACT_COLUMNS} FROM ${FACT_FROM}
  WHERE f.object = @id AND f.object_is_literal = 0 AND (f.valid_from IS NULL OR f.valid_from <= @at)
    AND (f.valid_to IS NULL OR f.valid_to > @at)`;

class SqliteGraphTables extends SqliteRows implements GraphTables {
  readonly kind = 'sqlite';
  readonly supports = { persistent: true, multiProcess: true };
  private readonly stmts = new Map<string, Database.Statement>();

  constructor(
    private readonly database: Database.Database,
    private readonly opts: SqliteGraphTablesOptions,
  ) {
    super(database);
  }

  private stmt(sql: string): Database.Statement {
    let s = this.stmts.get(sql);
    if (!s) this.stmts.set(sql, (s = this.database.prepare(sql)));
    return s;
  }
  read<T>(fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      throw mapSqliteError(e, this.database.name);
    }
  }
  write<T>(fn: () => T): T {
    this.begin();
    try {
      return this.read(() => this.database.transaction(fn).immediate());
    } catch (e) {
      this.forget();
      throw e;
    }
  }

  async init(): Promise<void> {
    this.read(() => {
      const has = this.database
        .prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'kg_facts'")
        .pluck()
        .get() as number;
      if (!has) this.database.transaction(() => this.database.exec(KG_SCHEMA_V2)).immediate();
    });
  }

  entityIds(q: { after: string; prefix: string; type?: string; limit: number }): string[] {
    const sql =
      'SELECT id FROM kg_entities WHERE id > @after AND id >= @prefix AND id < @upper ' +
      `${q.type !== undefined ? 'AND type = @type' : ''} ORDER BY id LIMIT @n`;
    const params = {
      after: q.after,
      prefix: q.prefix,
      upper: q.prefix + '\u{10ffff}',
      n: q.limit,
      ...(q.type !== undefined ? { type: q.type } : {}),
    };
    return this.read(() => this.stmt(sql).pluck().all(params) as string[]);
  }

  factsAt(id: string, at: string, dir: 'in' | 'out' | 'both', predicate?: string): Fact[] {
    const p = predicate !== undefined ? ' AND f.predicate = @predicate' : '';
    const parts: string[] = [];
    if (dir !== 'in') parts.push(AS_OF_OUT + p);
    if (dir !== 'out') parts.push(AS_OF_IN + p + (dir === 'both' ? ' AND f.subject <> @id' : ''));
    const sql = `${parts.join(' UNION ALL ')} ORDER BY valid_from, rid`;
    return this.read(() =>
      (this.stmt(sql).all({ id, at, ...(predicate !== undefined ? { predicate } : {}) }) as SqlFact[]).map(toFact),
    );
  }

  timeline(
    id: string,
    after: TimelinePosition | null,
    limit: number,
  ): { facts: Fact[]; next: TimelinePosition | null } {
    let where = '(f.subject = @id OR (f.object = @id AND f.object_is_literal = 0))';
    const params: Record<string, unknown> = { id, n: limit + 1 };
    if (after) {
      params['rid'] = after.seq;
      if (after.validFrom === null)
        where += ' AND ((f.valid_from IS NULL AND f.rid > @rid) OR f.valid_from IS NOT NULL)';
      else {
        params['from'] = after.validFrom;
        where += ' AND (f.valid_from > @from OR (f.valid_from = @from AND f.rid > @rid))';
      }
    }
    const sql = `SELECT ${FACT_COLUMNS} FROM ${FACT_FROM} WHERE ${where} ORDER BY f.valid_from, f.rid LIMIT @n`;
    return this.read(() => {
      const rows = this.stmt(sql).all(params) as SqlFact[];
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return {
        facts: page.map(toFact),
        next: rows.length > limit && last ? { validFrom: last.valid_from, seq: last.rid } : null,
      };
    });
  }

  stats(): GraphStats {
    return this.read(() => {
      const count = (sql: string) => this.stmt(sql).pluck().get() as number;
      const predicates: Record<string, number> = {};
      for (const r of this.stmt(
        'SELECT predicate, count(*) AS n FROM kg_facts GROUP BY predicate ORDER BY predicate',
      ).all() as { predicate: string; n: number }[]) {
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

  factsForDrawer(drawerId: string): Fact[] {
    const sql =
      `SELECT ${FACT_COLUMNS} FROM ${FACT_FROM} WHERE f.rid IN (SELECT fact_rid FROM kg_fact_sources ` +
      'WHERE drawer_id = ?) ORDER BY f.rid';
    return this.read(() => (this.stmt(sql).all(drawerId) as SqlFact[]).map(toFact));
  }

  drawerLinks(entityIds: readonly string[]): DrawerLink[] {
    if (entityIds.length === 0) return [];
    const sql = `WITH ids(id) AS (SELECT value FROM json_each(@ids))
      SELECT drawer_id, entity_id FROM kg_entity_sources WHERE entity_id IN (SELECT id FROM ids)
      UNION SELECT fs.drawer_id, f.subject FROM kg_facts f JOIN kg_fact_sources fs ON fs.fact_rid = f.rid
        WHERE f.subject IN (SELECT id FROM ids)
      UNION SELECT fs.drawer_id, f.object FROM kg_facts f JOIN kg_fact_sources fs ON fs.fact_rid = f.rid
        WHERE f.object_is_literal = 0 AND f.object IN (SELECT id FROM ids)`;
    return this.read(() => {
      const links = new Map<string, string[]>();
      for (const r of this.stmt(sql).all({ ids: JSON.stringify([...new Set(entityIds)]) }) as {
        drawer_id: string;
        entity_id: string;
      }[]) {
        const a = links.get(r.drawer_id);
        if (a) a.push(r.entity_id);
        else links.set(r.drawer_id, [r.entity_id]);
      }
      return [...links].map(([drawerId, e]) => ({ drawerId, entities: e.sort() }));
    });
  }

  close(): void {
    if (this.opts.ownsDatabase && this.database.open) this.database.close();
  }
  clear(): void {
    this.read(() =>
      this.database
        .transaction(() => {
          for (const t of ['kg_fact_sources', 'kg_entity_sources', 'kg_aliases', 'kg_facts', 'kg_entities'])
            this.database.exec(`DELETE FROM ${t}`);
        })
        .immediate(),
    );
    this.forget();
  }
}

/**
 * The graph tables of an open palace database. Call `init()` once (a no-op when migration 2 already
 * ran). The tables do not close the database unless `ownsDatabase` is set.
 */
export function createSqliteGraphTables(db: Database.Database, opts: SqliteGraphTablesOptions = {}): GraphTables {
  return new SqliteGraphTables(db, opts);
}
