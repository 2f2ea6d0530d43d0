// The floor of `loci search`: the least a program can do to answer the same query on the same
// palace — open the database with better-sqlite3, run one FTS5 query joined to the drawers, print
// the hits. Part of bench/startup.ts, never shipped. Usage: node floor-search.mjs <db> <query…>
import Database from 'better-sqlite3';

const [path, ...words] = process.argv.slice(2);
const db = new Database(path, { readonly: true });
const terms =
  words
    .join(' ')
    .toLowerCase()
    .match(/[\p{L}\p{N}_]+/gu) ?? [];
const match = terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(' OR ');
const rows = db
  .prepare(
    `SELECT d.id, d.wing, d.room, d.source, d.text, -f.rank AS score FROM drawers_fts f
     JOIN drawers d ON d.rid = f.rowid WHERE drawers_fts MATCH ? ORDER BY f.rank LIMIT 10`,
  )
  .all(match);
rows.forEach((r, i) =>
  process.stdout.write(
    `${i + 1}. ${r.wing}/${r.room}  ${r.source}  ${r.id}  score ${r.score.toFixed(3)}\n   ${r.text.slice(0, 400)}\n\n`,
  ),
);
db.close();
