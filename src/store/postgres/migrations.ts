/**
 * @module store/postgres/migrations
 * Versioned schema migrations of a PostgreSQL palace. Table `loci_schema` records the versions
 * applied; the runner takes a session advisory lock (per schema) before it reads it, so several
 * processes starting at once apply each migration exactly once, and each migration runs in its own
 * transaction. Never edit a released migration: add a new one.
 *
 * The tables mirror the SQLite palace (`store/sqlite/migrations.ts`, `graph-schema.ts`) with two
 * additions for full-text search: `drawers.search` holds the tokeniser's output as a `tsvector`
 * (each token once, with as many positions as it occurs: the term frequency) under a GIN index, and
 * `lexical_terms` / `lexical_totals` keep the document frequencies and lengths BM25 needs.
 */
import { createError } from '../../core/errors.js';
import { LOCK_SPACE, mapPgError, type PgPool, type PgTarget } from './connect.js';

/** One schema step. */
interface PgMigration {
  version: number;
  name: string;
  sql: string;
}

const DRAWERS_V1 = `
CREATE TABLE meta (key text COLLATE "C" PRIMARY KEY, value text NOT NULL);

CREATE TABLE drawers (
  rid          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id           text COLLATE "C" NOT NULL UNIQUE,
  wing         text COLLATE "C" NOT NULL,
  room         text COLLATE "C" NOT NULL,
  hall         text COLLATE "C",
  source       text COLLATE "C",
  source_hash  text COLLATE "C",
  source_mtime double precision,
  chunk_index  integer NOT NULL DEFAULT 0,
  line_start   integer,
  line_end     integer,
  content_date text COLLATE "C",
  filed_at     text COLLATE "C" NOT NULL,
  added_by     text COLLATE "C" NOT NULL,
  content_hash text COLLATE "C" NOT NULL,
  metadata     text COLLATE "C" NOT NULL DEFAULT '{}',
  index_extra  text COLLATE "C",
  text         text COLLATE "C" NOT NULL,
  search       tsvector NOT NULL,
  dl           integer NOT NULL
);
CREATE INDEX drawers_wing_room    ON drawers (wing, room);
CREATE INDEX drawers_source_chunk ON drawers (source, chunk_index);
CREATE INDEX drawers_content_date ON drawers (content_date);
CREATE INDEX drawers_content_hash ON drawers (content_hash);
CREATE INDEX drawers_search       ON drawers USING gin (search);

CREATE TABLE lexical_terms (term text COLLATE "C" PRIMARY KEY, df integer NOT NULL);
CREATE TABLE lexical_totals (
  one    boolean PRIMARY KEY DEFAULT true CHECK (one),
  docs   bigint NOT NULL,
  tokens bigint NOT NULL
);
INSERT INTO lexical_totals (one, docs, tokens) VALUES (true, 0, 0);

CREATE TABLE sources (
  source      text COLLATE "C" PRIMARY KEY,
  wing        text COLLATE "C" NOT NULL,
  kind        text COLLATE "C" NOT NULL,
  root        text COLLATE "C",
  size        double precision NOT NULL,
  mtime_ms    double precision NOT NULL,
  hash        text COLLATE "C" NOT NULL,
  "offset"    double precision NOT NULL DEFAULT 0,
  prefix_hash text COLLATE "C",
  config      text COLLATE "C" NOT NULL,
  state       text COLLATE "C" NOT NULL DEFAULT '{}',
  mined_at    text COLLATE "C" NOT NULL
);
CREATE INDEX sources_root ON sources (root);
CREATE INDEX sources_kind ON sources (kind);

CREATE TABLE usage (item text COLLATE "C" PRIMARY KEY, uses integer NOT NULL, last_used text NOT NULL);
`;

const GRAPH_V2 = `
CREATE TABLE kg_entities (
  id         text COLLATE "C" PRIMARY KEY,
  name       text COLLATE "C" NOT NULL,
  type       text COLLATE "C" NOT NULL DEFAULT 'unknown',
  properties text COLLATE "C" NOT NULL DEFAULT '{}',
  created_at text COLLATE "C" NOT NULL,
  updated_at text COLLATE "C" NOT NULL
);
CREATE INDEX kg_entities_type ON kg_entities (type, id);

CREATE TABLE kg_aliases (
  alias_key text COLLATE "C" PRIMARY KEY,
  entity_id text COLLATE "C" NOT NULL REFERENCES kg_entities (id) ON DELETE CASCADE,
  alias     text COLLATE "C" NOT NULL
);
CREATE INDEX kg_aliases_entity ON kg_aliases (entity_id);

CREATE TABLE kg_facts (
  rid               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id                text COLLATE "C" NOT NULL UNIQUE,
  subject           text COLLATE "C" NOT NULL REFERENCES kg_entities (id),
  predicate         text COLLATE "C" NOT NULL,
  object            text COLLATE "C" NOT NULL,
  object_is_literal smallint NOT NULL DEFAULT 0 CHECK (object_is_literal IN (0, 1)),
  valid_from        text COLLATE "C",
  valid_to          text COLLATE "C",
  recorded_at       text COLLATE "C" NOT NULL,
  confidence        double precision NOT NULL DEFAULT 1.0,
  CHECK (valid_to IS NULL OR valid_from IS NULL OR valid_to >= valid_from)
);
CREATE INDEX kg_facts_subject   ON kg_facts (subject, predicate, object, valid_from);
CREATE INDEX kg_facts_object    ON kg_facts (object, predicate, valid_from) WHERE object_is_literal = 0;
CREATE INDEX kg_facts_predicate ON kg_facts (predicate, valid_from);
CREATE INDEX kg_facts_time      ON kg_facts (valid_to, valid_from);

CREATE TABLE kg_fact_sources (
  fact_rid  bigint NOT NULL REFERENCES kg_facts (rid) ON DELETE CASCADE,
  drawer_id text COLLATE "C" NOT NULL,
  PRIMARY KEY (fact_rid, drawer_id)
);
CREATE INDEX kg_fact_sources_drawer ON kg_fact_sources (drawer_id);

CREATE TABLE kg_entity_sources (
  entity_id text COLLATE "C" NOT NULL REFERENCES kg_entities (id) ON DELETE CASCADE,
  drawer_id text COLLATE "C" NOT NULL,
  PRIMARY KEY (entity_id, drawer_id)
);
CREATE INDEX kg_entity_sources_drawer ON kg_entity_sources (drawer_id);

CREATE TABLE tunnels (
  id            text COLLATE "C" PRIMARY KEY,
  source_wing   text COLLATE "C" NOT NULL,
  source_room   text COLLATE "C" NOT NULL,
  source_drawer text COLLATE "C",
  target_wing   text COLLATE "C" NOT NULL,
  target_room   text COLLATE "C" NOT NULL,
  target_drawer text COLLATE "C",
  label         text COLLATE "C" NOT NULL DEFAULT '',
  created_at    text COLLATE "C" NOT NULL
);
CREATE INDEX tunnels_source ON tunnels (source_wing, source_room);
CREATE INDEX tunnels_target ON tunnels (target_wing, target_room);
`;

const VECTORS_V3 = `
CREATE TABLE vector_models (
  model      text COLLATE "C" PRIMARY KEY,
  dims       integer NOT NULL,
  hwm        bigint NOT NULL DEFAULT 0,
  active     boolean NOT NULL DEFAULT true,
  created_at text COLLATE "C" NOT NULL
);
CREATE TABLE vectors (
  rid       bigint PRIMARY KEY,
  wing      text COLLATE "C" NOT NULL,
  embedding bytea NOT NULL
);
CREATE INDEX vectors_wing ON vectors (wing);
`;

/** The ordered migrations of a PostgreSQL palace. */
const PG_MIGRATIONS: readonly PgMigration[] = [
  { version: 1, name: 'drawers, full-text index, sources, meta, usage', sql: DRAWERS_V1 },
  { version: 2, name: 'knowledge graph and tunnels', sql: GRAPH_V2 },
  { version: 3, name: 'vectors', sql: VECTORS_V3 },
];

/** The newest schema version this build knows. */
const PG_LATEST = PG_MIGRATIONS[PG_MIGRATIONS.length - 1]!.version;

/**
 * Brings the palace's schema up to date. Safe under concurrent starters: a session advisory lock
 * (per schema) is held while versions are read and applied. Throws DB_TOO_NEW or PG_UNREACHABLE.
 */
export async function migrate(pool: PgPool, target: PgTarget): Promise<number> {
  let client;
  try {
    client = await pool.connect();
  } catch (e) {
    throw mapPgError(e, target);
  }
  let broken: Error | undefined;
  try {
    await client.query('SELECT pg_advisory_lock($1, hashtext($2) + 1)', [LOCK_SPACE, target.schema]);
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${target.schema}`);
      await client.query(
        'CREATE TABLE IF NOT EXISTS loci_schema (version integer PRIMARY KEY, name text NOT NULL, ' +
          'applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const rows = (await client.query('SELECT coalesce(max(version), 0) AS v FROM loci_schema')).rows as {
        v: number;
      }[];
      const current = Number(rows[0]?.v ?? 0);
      if (current > PG_LATEST) {
        throw createError('DB_TOO_NEW', { path: target.display, version: current, supported: PG_LATEST });
      }
      for (const m of PG_MIGRATIONS) {
        if (m.version <= current) continue;
        await client.query('BEGIN');
        try {
          await client.query(m.sql);
          await client.query('INSERT INTO loci_schema (version, name) VALUES ($1, $2)', [m.version, m.name]);
          await client.query('COMMIT');
        } catch (e) {
          await client.query('ROLLBACK').catch(() => {});
          throw e;
        }
      }
      return PG_LATEST;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, hashtext($2) + 1)', [LOCK_SPACE, target.schema]);
    }
  } catch (e) {
    broken = e as Error;
    throw mapPgError(e, target);
  } finally {
    client.release(broken);
  }
}
