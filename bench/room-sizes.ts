/**
 * @module bench/room-sizes
 * The palace tree's sizes at scale: drawers and UTF-8 bytes of text per (wing, room) in one GROUP
 * BY, as `MemoryStore.roomSizes` runs it on SQLite (from the covering index `drawers_room_bytes` of
 * migration 5), against the same sums read from the drawers' texts — `octet_length(text)`,
 * `length(CAST(text AS BLOB))` and `length(text)` (characters) — and against the baseline, the
 * GROUP BY counting only (`countRooms`, from the (wing, room) index), round-robin in one process;
 * then `palace.status()` whole (what `loci status` and the UI's palace tree call). Opening the
 * palace migrates it (a schema-4 palace gets the index: timed as open_ms). Every variant must give
 * the same per-room numbers (checked before timing); the query plans are printed. Last, what the
 * index costs writes: `--insert N` drawers put in batches of 1,000 into two fresh palaces, with and
 * without the index, alternating. With `--database-url`, the same drawers in a fresh PostgreSQL
 * schema: `roomSizes` (sum(octet_length(text))) against `countRooms`, round-robin.
 * Usage: npm run build && node --import tsx bench/room-sizes.ts --home DIR [--rounds 7] [--insert 30000]
 *   [--database-url postgres://…]
 *   DIR is a palace home, e.g. one built by `bench/search-latency.ts --keep X` (X/home).
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPalace } from '../dist/index.js';
import { rng } from '../test/helpers/corpus.js';

const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : def;
};
const home = arg('home', '');
if (!home) throw new Error('--home DIR is required (a palace home, e.g. from bench/search-latency.ts --keep)');
const ROUNDS = Number(arg('rounds', '7'));
const INSERT = Number(arg('insert', '30000'));
const pgBase = arg('database-url', '');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// Opening the palace migrates it: on a palace of schema 4 this builds the room-sizes index (timed once).
let t0 = performance.now();
const palace = await openPalace({ home, embedder: null });
const openMs = performance.now() - t0;

const group = (size: string, where = '1') =>
  `SELECT wing, room, count(*) AS count${size ? `, sum(${size}) AS size` : ''} FROM drawers WHERE ${where} ` +
  'GROUP BY wing, room ORDER BY wing, count DESC, room';
const BLOB = 'length(CAST(text AS BLOB))';
const variants: Record<string, string> = {
  'baseline: counts only (countRooms, index drawers_wing_room)': group(''),
  'roomSizes: sum(length(CAST(text AS BLOB))) from index drawers_room_bytes': group(BLOB, `${BLOB} >= 0`),
  'sum(octet_length(text)), reading every text': group('octet_length(text)'),
  'sum(length(CAST(text AS BLOB))), reading every text': group(BLOB, '+rowid > 0'),
  'sum(length(text)) (characters), reading every text': group('length(text)'),
};

const db = new Database(join(home, 'palace.db'), { readonly: true });
const statements = Object.entries(variants).map(([name, sql]) => ({
  name,
  st: db.prepare(sql),
  plan: (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join(' | '),
  ms: [] as number[],
}));
const drawers = (db.prepare('SELECT count(*) AS n FROM drawers').get() as { n: number }).n;

// Same answers: the byte variants agree with one another; counts agree everywhere.
const answers = statements.map((s) => s.st.all() as { wing: string; room: string; count: number; size?: number }[]);
const key = (rows: (typeof answers)[number]) => rows.map((r) => `${r.wing}/${r.room}:${r.count}`).join();
if (new Set(answers.map(key)).size !== 1) throw new Error('the variants disagree on the counts');
const sizes = (i: number) => answers[i]!.map((r) => r.size).join();
if (sizes(1) !== sizes(2) || sizes(1) !== sizes(3)) throw new Error('the byte variants disagree');

for (let round = 0; round < ROUNDS; round++) {
  for (const s of statements) {
    const t = performance.now();
    s.st.all();
    s.ms.push(performance.now() - t);
  }
}
db.close();

const status: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  t0 = performance.now();
  await palace.status();
  status.push(performance.now() - t0);
}
const s = await palace.status();
await palace.close();

// What the index costs writes: the same batches of 1,000 drawers (~800 characters, 20 rooms) put into two fresh
// palaces, one without the index (dropped after its migration), alternating, so the machine's load hits both alike.
const r = rng(11);
const word = () => Math.floor(r() * 1e6).toString(36);
const batches = Array.from({ length: Math.ceil(INSERT / 1000) }, (_, b) =>
  Array.from({ length: 1000 }, (_, i) => ({
    wing: `w${(b * 1000 + i) % 4}`,
    room: `r${(b * 1000 + i) % 20}`,
    text: Array.from({ length: 160 }, word).join(' ').slice(0, 800),
  })),
);
const work = mkdtempSync(join(tmpdir(), 'loci-bench-room-sizes-'));
const homes = { with: join(work, 'with'), without: join(work, 'without') };
await (await openPalace({ home: homes.without, embedder: null })).close();
const raw = new Database(join(homes.without, 'palace.db'));
raw.exec('DROP INDEX drawers_room_bytes');
raw.close();
const writers = {
  with: await openPalace({ home: homes.with, embedder: null }),
  without: await openPalace({ home: homes.without, embedder: null }),
};
const putMs = { with: 0, without: 0 };
for (const [b, batch] of batches.entries()) {
  for (const k of b % 2 ? (['without', 'with'] as const) : (['with', 'without'] as const)) {
    t0 = performance.now();
    await writers[k].store.put(batch);
    putMs[k] += performance.now() - t0;
  }
}
for (const w of Object.values(writers)) await w.close();
rmSync(work, { recursive: true, force: true });
const perSecond = (ms: number) => (ms > 0 ? Math.round((batches.length * 1000) / (ms / 1000)) : null);

// PostgreSQL (with --database-url): the same drawers' wing, room and text copied into a fresh palace schema (the
// search column as the adapter fills it, to_tsvector of the text), then countRooms and roomSizes round-robin.
let postgres: unknown = 'skipped (no --database-url)';
if (pgBase) {
  const url = new URL(pgBase);
  url.searchParams.set('schema', `bench_room_sizes_${process.pid}`);
  const pgPalace = await openPalace({
    home: mkdtempSync(join(tmpdir(), 'loci-bench-pg-')),
    databaseUrl: url.toString(),
  });
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: pgBase, options: `-c search_path=bench_room_sizes_${process.pid}` });
  await client.connect();
  try {
    const src = new Database(join(home, 'palace.db'), { readonly: true });
    const rows = src.prepare('SELECT id, wing, room, text FROM drawers ORDER BY rid').all() as Record<string, string>[];
    src.close();
    for (let i = 0; i < rows.length; i += 2000) {
      const part = rows.slice(i, i + 2000);
      await client.query(
        'INSERT INTO drawers (id, wing, room, filed_at, added_by, content_hash, text, search, dl) ' +
          "SELECT id, wing, room, '2026-01-01', 'bench', md5(text), text, to_tsvector('simple', text), 100 " +
          'FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS t(id, wing, room, text)',
        [part.map((r) => r.id), part.map((r) => r.wing), part.map((r) => r.room), part.map((r) => r.text)],
      );
    }
    await client.query('VACUUM ANALYZE drawers');
    const ms = { countRooms: [] as number[], roomSizes: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      t0 = performance.now();
      await pgPalace.store.countRooms();
      ms.countRooms.push(performance.now() - t0);
      t0 = performance.now();
      await pgPalace.store.roomSizes();
      ms.roomSizes.push(performance.now() - t0);
    }
    const version = (await client.query('SHOW server_version')).rows[0].server_version as string;
    postgres = {
      server: version,
      drawers: rows.length,
      'baseline: countRooms median_ms': +median(ms.countRooms).toFixed(1),
      'roomSizes: sum(octet_length(text)) median_ms': +median(ms.roomSizes).toFixed(1),
    };
  } finally {
    await client.query(`DROP SCHEMA bench_room_sizes_${process.pid} CASCADE`);
    await client.end();
    await pgPalace.close();
  }
}

const out = {
  bench: 'room-sizes',
  drawers,
  rooms: answers[0]!.length,
  text_mb: +(s.textBytes.total / 1e6).toFixed(1),
  rounds: ROUNDS,
  open_ms: +openMs.toFixed(0),
  median_ms: Object.fromEntries(statements.map((x) => [x.name, +median(x.ms).toFixed(1)])),
  plans: Object.fromEntries(statements.map((x) => [x.name, x.plan])),
  'palace.status() median_ms': +median(status).toFixed(1),
  postgres,
  put_drawers_per_s: { with_index: perSecond(putMs.with), without_index: perSecond(putMs.without) },
  machine: { cpus: cpus().length, node: process.version, load: +loadavg()[0]!.toFixed(1) },
};
process.stdout.write(JSON.stringify(out, null, 2) + '\n');
