/**
 * @module bench/mine/outputs
 * What a mining run produced, as hashes to compare between two builds (measuring only): the drawers
 * (ids, texts, metadata and every stored column but times), the FTS5 vocabulary (`fts5vocab` rows and
 * instances, documents named by drawer id), the entities, aliases, facts and their sources (without
 * fact ids and times, which are per run) and the source manifest (without `mined_at`).
 * Usage: `node bench/mine/outputs.mjs <palace.db>` prints one JSON object of `"<rows> <hash>"`.
 */
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';

const file = process.argv[2];
if (!file) {
  console.error('usage: node bench/mine/outputs.mjs <palace.db>');
  process.exit(2);
}
const db = new Database(file, { readonly: true });
const hash = (sql) => {
  const h = createHash('sha256');
  let n = 0;
  for (const row of db.prepare(sql).raw().iterate()) {
    h.update(JSON.stringify(row));
    h.update('\n');
    n++;
  }
  return `${n} ${h.digest('hex').slice(0, 16)}`;
};
db.exec("CREATE VIRTUAL TABLE temp.v_row USING fts5vocab(main, 'drawers_fts', 'row')");
db.exec("CREATE VIRTUAL TABLE temp.v_inst USING fts5vocab(main, 'drawers_fts', 'instance')");
const out = {
  drawers: hash(
    'SELECT id, wing, room, hall, source, source_hash, source_mtime, chunk_index, line_start, line_end, ' +
      'content_date, added_by, content_hash, metadata, index_extra, text FROM drawers ORDER BY id',
  ),
  fts_vocab_rows: hash('SELECT term, doc, cnt FROM temp.v_row ORDER BY term'),
  fts_vocab_instances: hash(
    'SELECT v.term, d.id, v.col, v.offset FROM temp.v_inst v JOIN drawers d ON d.rid = v.doc ' +
      'ORDER BY v.term, d.id, v.offset',
  ),
  entities: hash('SELECT id, name, type, properties FROM kg_entities ORDER BY id'),
  aliases: hash('SELECT alias_key, entity_id, alias FROM kg_aliases ORDER BY alias_key'),
  facts: hash(
    'SELECT subject, predicate, object, object_is_literal, valid_from, valid_to, confidence FROM kg_facts ' +
      'ORDER BY subject, predicate, object, valid_from',
  ),
  fact_sources: hash(
    'SELECT f.subject, f.predicate, f.object, s.drawer_id FROM kg_fact_sources s ' +
      'JOIN kg_facts f ON f.rid = s.fact_rid ORDER BY 1, 2, 3, 4',
  ),
  entity_sources: hash('SELECT entity_id, drawer_id FROM kg_entity_sources ORDER BY 1, 2'),
  sources: hash(
    'SELECT source, wing, kind, root, size, mtime_ms, hash, offset, prefix_hash, config, state FROM sources ' +
      'ORDER BY source',
  ),
};
db.close();
console.log(JSON.stringify(out, null, 1));
