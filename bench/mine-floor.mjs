/**
 * @module bench/mine-floor
 * The in-run baseline of `bench/mine.ts`: the minimal script that mines a tree into SQLite full-text
 * search — walk the folder, read every file, insert it whole into one FTS5 table, one transaction.
 * No chunking, no redaction, no tokenisation of its own, no manifest. Plain JavaScript so that it runs
 * under bare `node` (no TypeScript loader to pay for): `node bench/mine-floor.mjs <dir> <db-file>`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

const [dir, file] = process.argv.slice(2);
if (!dir || !file) {
  console.error('usage: node bench/mine-floor.mjs <dir> <db-file>');
  process.exit(2);
}
const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec('CREATE VIRTUAL TABLE IF NOT EXISTS docs USING fts5(path UNINDEXED, body)');
const insert = db.prepare('INSERT INTO docs (path, body) VALUES (?, ?)');
let files = 0;
let bytes = 0;
const walk = (d) => {
  for (const e of readdirSync(d, { withFileTypes: true })) {
    const p = join(d, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.isFile()) {
      const text = readFileSync(p, 'utf8');
      insert.run(p, text);
      files++;
      bytes += Buffer.byteLength(text);
    }
  }
};
db.transaction(() => walk(dir))();
db.close();
console.log(JSON.stringify({ files, bytes }));
