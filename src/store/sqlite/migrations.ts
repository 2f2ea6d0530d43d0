/**
 * @module store/sqlite/migrations
 * Versioned schema migrations of the palace database. `PRAGMA user_version` holds the version;
 * each migration runs once, in order, inside the opening transaction. Never edit a released
 * migration: add a new one. Capabilities own their migrations (drawers: 1, knowledge graph: 2, …).
 */
import type Database from 'better-sqlite3';
import { KG_SCHEMA_V2 } from './graph-schema.js';

/** One schema step. */
interface Migration {
  version: number;
  name: string;
  up(db: Database.Database): void;
}

const DRAWERS_V1 = `
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE drawers (
  rid          INTEGER PRIMARY KEY AUTOINCREMENT,
  id           TEXT NOT NULL UNIQUE,
  wing         TEXT NOT NULL,
  room         TEXT NOT NULL,
  hall         TEXT,
  source       TEXT,
  source_hash  TEXT,
  source_mtime INTEGER,
  chunk_index  INTEGER NOT NULL DEFAULT 0,
  line_start   INTEGER,
  line_end     INTEGER,
  content_date TEXT,
  filed_at     TEXT NOT NULL,
  added_by     TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  metadata     TEXT NOT NULL DEFAULT '{}',
  index_extra  TEXT,
  text         TEXT NOT NULL
);
CREATE INDEX drawers_wing_room    ON drawers (wing, room);
CREATE INDEX drawers_source_chunk ON drawers (source, chunk_index);
CREATE INDEX drawers_content_date ON drawers (content_date);
-- No index on filed_at (drawers are filed in rid order, which listings use) nor on content_hash
-- (duplicate checks are rare and scan): every index costs each of the many inserts of mining.

-- Contentless full-text index over the pre-tokenised search column (tokens joined by spaces).
CREATE VIRTUAL TABLE drawers_fts USING fts5 (
  body,
  content = '',
  contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 0'
);

CREATE TABLE sources (
  source      TEXT PRIMARY KEY,
  wing        TEXT NOT NULL,
  kind        TEXT NOT NULL,
  root        TEXT,
  size        INTEGER NOT NULL,
  mtime_ms    INTEGER NOT NULL,
  hash        TEXT NOT NULL,
  offset      INTEGER NOT NULL DEFAULT 0,
  prefix_hash TEXT,
  config      TEXT NOT NULL,
  state       TEXT NOT NULL DEFAULT '{}',
  mined_at    TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX sources_root ON sources (root);
CREATE INDEX sources_kind ON sources (kind);
`;

const VECTORS_V3 = `
CREATE TABLE vector_models (
  model      TEXT PRIMARY KEY,
  dims       INTEGER NOT NULL,
  tbl        TEXT NOT NULL,
  hwm        INTEGER NOT NULL DEFAULT 0,
  active     INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL
) WITHOUT ROWID;
`;

/**
 * The UTF-8 bytes of a drawer's text, exactly as indexed by `drawers_room_bytes` (a query repeats it, with the
 * index's condition `TEXT_BYTES >= 0`, to be answered from the index).
 */
export const TEXT_BYTES = 'length(CAST(text AS BLOB))';

/** The ordered list of migrations. Capabilities append theirs here. */
export const MIGRATIONS: Migration[] = [
  { version: 1, name: 'drawers, full-text index, sources', up: (db) => db.exec(DRAWERS_V1) },
  { version: 2, name: 'knowledge graph', up: (db) => db.exec(KG_SCHEMA_V2) },
  { version: 3, name: 'vector models', up: (db) => db.exec(VECTORS_V3) },
  // Recall counts for the wake-up's `use` factor (src/wakeup/usage.ts): item = `drawer:<id>` | `memory:<abs path>`.
  {
    version: 4,
    name: 'usage',
    up: (db) =>
      db.exec(
        'CREATE TABLE usage (item TEXT PRIMARY KEY, uses INTEGER NOT NULL, last_used TEXT NOT NULL) WITHOUT ROWID',
      ),
  },
  // Room sizes (issue 16, `roomSizes`): counts and UTF-8 bytes per room come from this index alone (covering: the
  // expression's value is stored in it), never from the drawers' texts: 1.9 s → ~0.05 s at 150,000 drawers
  // (BENCHMARKS.md "Room sizes"). Partial on an always-true condition that only that query states, so the
  // planner never takes it for listings of a room, which walk (wing, room) in rowid order. length(CAST(text AS
  // BLOB)), not octet_length(text): SQLite before 3.43 (older `sqlite3` shells) could not read the schema.
  {
    version: 5,
    name: 'room sizes index',
    up: (db) =>
      db.exec(`CREATE INDEX drawers_room_bytes ON drawers (wing, room, ${TEXT_BYTES}) WHERE ${TEXT_BYTES} >= 0`),
  },
];

/** The newest schema version this build knows. */
export function latestVersion(): number {
  return MIGRATIONS.reduce((m, x) => Math.max(m, x.version), 0);
}
