/**
 * @module store/sqlite/drawer-statements
 * The SQL of the SQLite drawer store's statements, prepared on first use by `createSqliteStore`
 * (`lazyStatements`): one place to read every statement the store runs on `drawers` and `sources`.
 */
import { STAMP_SQL } from './source-rows.js';

/** The drawer store's statements by name. */
export const DRAWER_STATEMENTS = {
  insert: `INSERT OR IGNORE INTO drawers
    (id, wing, room, hall, source, source_hash, source_mtime, chunk_index, line_start, line_end,
     content_date, filed_at, added_by, content_hash, metadata, index_extra, text)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ftsInsert: 'INSERT INTO drawers_fts (rowid, body) VALUES (?, ?)',
  ftsDelete: 'DELETE FROM drawers_fts WHERE rowid = ?',
  byId: 'SELECT * FROM drawers WHERE id = ?',
  ridById: 'SELECT rid FROM drawers WHERE id = ?',
  deleteRid: 'DELETE FROM drawers WHERE rid = ?',
  /** What `replaceOne` compares: every column but the text and the search extra (never re-read). */
  bySource: `SELECT rid, id, wing, room, hall, source_hash, source_mtime, chunk_index, line_start,
    line_end, content_date, metadata FROM drawers WHERE source = ?`,
  ridsBySource: 'SELECT rid FROM drawers WHERE source = ?',
  byHash: 'SELECT * FROM drawers WHERE content_hash = ? ORDER BY rid',
  getSource: 'SELECT * FROM sources WHERE source = ?',
  ...STAMP_SQL,
  putSource: `INSERT INTO sources
      (source, wing, kind, root, size, mtime_ms, hash, offset, prefix_hash, config, state, mined_at)
    VALUES (@source, @wing, @kind, @root, @size, @mtimeMs, @hash, @offset, @prefixHash, @config, @state, @minedAt)
    ON CONFLICT (source) DO UPDATE SET wing = excluded.wing, kind = excluded.kind, root = excluded.root,
      size = excluded.size, mtime_ms = excluded.mtime_ms, hash = excluded.hash, offset = excluded.offset,
      prefix_hash = excluded.prefix_hash, config = excluded.config, state = excluded.state,
      mined_at = excluded.mined_at`,
  deleteSource: 'DELETE FROM sources WHERE source = ?',
  refresh: `UPDATE drawers SET wing = @wing, room = @room, hall = @hall, source_hash = @sourceHash,
    source_mtime = @sourceMtime, chunk_index = @chunkIndex, line_start = @lineStart, line_end = @lineEnd,
    content_date = @contentDate, metadata = @metadata WHERE rid = @rid`,
  updateRow: `UPDATE drawers SET wing = @wing, room = @room, hall = @hall, text = @text,
    content_hash = @contentHash, metadata = @metadata, content_date = @contentDate, index_extra = @indexExtra
    WHERE rid = @rid`,
};

/** The statements that return their first column. */
export const PLUCKED_STATEMENTS = ['ridById', 'ridsBySource'] as const;
