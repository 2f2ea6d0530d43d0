/**
 * @module store/sqlite/graph-schema
 * SQL of the knowledge graph and tunnel tables in the palace database (migration version 2).
 *
 * Every statement is `IF NOT EXISTS`, so the adapters' `init()` may run it again on a database
 * that was opened without the migration runner (e.g. a bare `:memory:` database in a bench).
 * Dates are normalised ISO-8601 UTC strings (`2026-01-15T00:00:00.000Z`), so text order is time
 * order; `valid_from IS NULL` means "since forever", `valid_to IS NULL` means "still open".
 * The graph rules themselves live in `src/kg/` (engine over the `GraphTables` port).
 */

/** The knowledge-graph and tunnel schema (version 2 of the palace database). */
export const KG_SCHEMA_V2 = `
CREATE TABLE IF NOT EXISTS kg_entities (
  id          TEXT PRIMARY KEY,            -- normalised key of the display name (entityKey)
  name        TEXT NOT NULL,               -- first-seen spelling
  type        TEXT NOT NULL DEFAULT 'unknown',
  properties  TEXT NOT NULL DEFAULT '{}',  -- JSON object
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS kg_entities_type ON kg_entities (type, id);

CREATE TABLE IF NOT EXISTS kg_aliases (
  alias_key  TEXT PRIMARY KEY,             -- entityKey(alias); never equal to its entity's id
  entity_id  TEXT NOT NULL REFERENCES kg_entities (id) ON DELETE CASCADE,
  alias      TEXT NOT NULL                 -- the spelling given
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS kg_aliases_entity ON kg_aliases (entity_id);

CREATE TABLE IF NOT EXISTS kg_facts (
  rid                INTEGER PRIMARY KEY,  -- insertion order; tie-breaker of every listing
  id                 TEXT NOT NULL UNIQUE,
  subject            TEXT NOT NULL REFERENCES kg_entities (id),
  predicate          TEXT NOT NULL,
  object             TEXT NOT NULL,        -- entity id, or the literal value
  object_is_literal  INTEGER NOT NULL DEFAULT 0 CHECK (object_is_literal IN (0, 1)),
  valid_from         TEXT,                 -- NULL: since forever
  valid_to           TEXT,                 -- NULL: open; the window is [valid_from, valid_to)
  recorded_at        TEXT NOT NULL,
  confidence         REAL NOT NULL DEFAULT 1.0,
  CHECK (valid_to IS NULL OR valid_from IS NULL OR valid_to >= valid_from)
);
CREATE INDEX IF NOT EXISTS kg_facts_subject   ON kg_facts (subject, predicate, object, valid_from);
CREATE INDEX IF NOT EXISTS kg_facts_object    ON kg_facts (object, predicate, valid_from) WHERE object_is_literal = 0;
CREATE INDEX IF NOT EXISTS kg_facts_predicate ON kg_facts (predicate, valid_from);
CREATE INDEX IF NOT EXISTS kg_facts_time      ON kg_facts (valid_to, valid_from);

CREATE TABLE IF NOT EXISTS kg_fact_sources (
  fact_rid   INTEGER NOT NULL REFERENCES kg_facts (rid) ON DELETE CASCADE,
  drawer_id  TEXT NOT NULL,
  PRIMARY KEY (fact_rid, drawer_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS kg_fact_sources_drawer ON kg_fact_sources (drawer_id);

CREATE TABLE IF NOT EXISTS kg_entity_sources (
  entity_id  TEXT NOT NULL REFERENCES kg_entities (id) ON DELETE CASCADE,
  drawer_id  TEXT NOT NULL,
  PRIMARY KEY (entity_id, drawer_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS kg_entity_sources_drawer ON kg_entity_sources (drawer_id);

CREATE TABLE IF NOT EXISTS tunnels (
  id             TEXT PRIMARY KEY,         -- symmetric: the same for (a, b) and (b, a)
  source_wing    TEXT NOT NULL,
  source_room    TEXT NOT NULL,
  source_drawer  TEXT,
  target_wing    TEXT NOT NULL,
  target_room    TEXT NOT NULL,
  target_drawer  TEXT,
  label          TEXT NOT NULL DEFAULT '',
  created_at     TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS tunnels_source ON tunnels (source_wing, source_room);
CREATE INDEX IF NOT EXISTS tunnels_target ON tunnels (target_wing, target_room);
`;
