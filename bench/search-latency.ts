/**
 * Search latency at scale: a palace of N drawers (~800 characters each) drawn from a Zipf
 * vocabulary of 20,000 words whose 120 most frequent ranks are English function words (as in
 * real English text), and 200 queries of 3–6 content words taken in order from random drawers (a
 * user recalling something written earlier; function words are left out because query
 * processing drops them anyway), so query terms follow the corpus's own frequencies.
 * Measures in-process p50/p95 of hybrid and lexical search, the whole `loci search` process, and
 * a MiniSearch baseline over the same texts in the same process.
 * With `--database-url postgres://…` the same corpus and queries are measured on a PostgreSQL
 * palace too (a fresh schema, dropped afterwards, unless the URL names one), in the same run, after SQLite.
 * `--keep-postgres` leaves the PostgreSQL schema in place (its URL is printed) for a later bench, e.g.
 * `bench/serve.ts --database-url`. The machine's load average is recorded at the start and the end.
 * Usage: node --import tsx bench/search-latency.ts [--drawers 150000] [--no-baseline] [--keep DIR]
 *   [--database-url postgres://…] [--keep-postgres]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import { openPalace } from '../dist/index.js';
import { dropPostgresPalace } from '../dist/internal.js';
import { rng } from '../test/helpers/corpus.js';

const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : def;
};
const N = Number(arg('drawers', '150000'));
const loadAtStart = loadavg().map((x) => +x.toFixed(1));
const r = rng(7);
const V = 20_000;
const FUNCTION_WORDS = (
  'the of and to a in is that for it as with was on be by this are from or at an which have not were but ' +
  'he she they we you i his her their our my your its them us me him what when where who why how all any ' +
  'been being do does did had has having if into more most no nor only other out over own same so some such ' +
  'than then there these those through too under until up very will would can could should may might must ' +
  'about above after again against before below between both down during each few further here just once ' +
  'off while also ever yes ok'
).split(' ');
const vocab: string[] = [...FUNCTION_WORDS];
const syll = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ru',
  'ta',
  'vo',
  'shi',
  'pe',
  'da',
  'ga',
  'zu',
  'bo',
  'ri',
  'te',
  'an',
  'el',
  'or',
];
for (let i = vocab.length; i < V; i++) {
  let w = '';
  let x = i + 1;
  while (x > 0) {
    w += syll[x % syll.length];
    x = Math.floor(x / syll.length);
  }
  vocab.push(w);
}
// Zipf sampler: rank ~ 1/k^1.05.
const cdf: number[] = [];
let acc = 0;
for (let k = 1; k <= V; k++) cdf.push((acc += 1 / k ** 1.05));
const pick = () => {
  const u = r() * acc;
  let lo = 0;
  let hi = V - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cdf[mid]! < u) lo = mid + 1;
    else hi = mid;
  }
  return vocab[lo]!;
};
const text = () => {
  let s = '';
  while (s.length < 800) s += pick() + (r() < 0.08 ? '.\n' : ' ');
  return s;
};

const work = process.argv.includes('--keep') ? arg('keep', '') : mkdtempSync(join(tmpdir(), 'loci-bench-search-'));
const home = join(work, 'home');
const texts: string[] = [];
const pgBase = arg('database-url', '');
// A URL that names a schema is used as it is (e.g. one kept by `--keep-postgres`: a re-run measures
// it without rebuilding, as `--keep DIR` does for SQLite); otherwise a fresh schema.
const pgUrl = !pgBase
  ? ''
  : /[?&]schema=/.test(pgBase)
    ? pgBase
    : `${pgBase}${pgBase.includes('?') ? '&' : '?'}schema=bench_search_${Date.now()}`;
for (let i = 0; i < N; i++) texts.push(text());
const build = async (palace: Awaited<ReturnType<typeof openPalace>>) => {
  const existing = await palace.store.count();
  for (let i = existing; i < N; i += 5000) {
    const batch = [];
    for (let j = i; j < Math.min(N, i + 5000); j++) {
      const tx = texts[j]!;
      batch.push({
        wing: `w${j % 5}`,
        room: `r${j % 23}`,
        source: `/bench/file${Math.floor(j / 8)}.md`,
        chunkIndex: j % 8,
        contentDate: `2026-0${1 + (j % 9)}-1${j % 10}`,
        text: tx,
      });
    }
    await palace.store.put(batch);
    if ((i + 5000) % 100_000 === 0)
      console.error(`built ${i + 5000} drawers, ${((performance.now() - t) / 1000).toFixed(0)} s`);
  }
};
let t = performance.now();

const queries: string[] = [];
const sampleText = (i: number) => texts[i] ?? text();
for (let i = 0; i < 200; i++) {
  const words = sampleText(Math.floor(r() * N))
    .split(/\s+/)
    .filter((w) => w && !FUNCTION_WORDS.includes(w.replace(/\./g, '')));
  const start = Math.floor(r() * Math.max(1, words.length - 8));
  queries.push(
    words
      .slice(start, start + 3 + Math.floor(r() * 4))
      .join(' ')
      .replace(/\./g, ''),
  );
}
function pct(xs: number[], p: number) {
  const s = [...xs].sort((a, b) => a - b);
  return +s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!.toFixed(2);
}
async function timeIt(fn: (q: string) => Promise<unknown> | unknown) {
  for (const q of queries.slice(0, 10)) await fn(q); // warm-up
  const ms: number[] = [];
  for (const q of queries) {
    const t0 = performance.now();
    await fn(q);
    ms.push(performance.now() - t0);
  }
  return { p50_ms: pct(ms, 50), p95_ms: pct(ms, 95), mean_ms: +(ms.reduce((a, b) => a + b, 0) / ms.length).toFixed(2) };
}
/** Builds the palace (SQLite in `home`, or PostgreSQL at `databaseUrl`) and measures it. */
async function measure(databaseUrl: string) {
  const palace = await openPalace({ home, env: { ...process.env, LOCI_DATABASE_URL: databaseUrl } });
  const t0 = performance.now();
  t = t0;
  console.error(`building ${databaseUrl ? 'PostgreSQL ' + databaseUrl : 'SQLite in ' + home}`);
  await build(palace);
  const buildSeconds = (performance.now() - t0) / 1000;
  const hybrid = await timeIt((q) => palace.search(q, { limit: 10 }));
  const lexical = await timeIt((q) => palace.search(q, { limit: 10, mode: 'lexical' }));
  const filtered = await timeIt((q) => palace.search(q, { limit: 10, wing: 'w2' }));
  const status = await palace.status();
  await palace.close();
  const proc: number[] = [];
  for (const q of queries.slice(0, 15)) {
    const t1 = performance.now();
    const res = spawnSync(process.execPath, ['bin/loci.js', 'search', q, '--json'], {
      env: { ...process.env, LOCI_HOME: home, LOCI_DATABASE_URL: databaseUrl },
      encoding: 'utf8',
    });
    if (res.status !== 0) throw new Error(res.stderr);
    proc.push(performance.now() - t1);
  }
  return {
    drawers: status.drawers,
    db_mb: +(status.bytes / 1e6).toFixed(1),
    build_seconds: +buildSeconds.toFixed(1),
    hybrid,
    lexical,
    hybrid_with_wing_filter: filtered,
    cli_process: { runs: proc.length, p50_ms: pct(proc, 50), p95_ms: pct(proc, 95) },
    ...(status.engine ? { engine: status.engine } : {}),
  };
}
const sqlite = await measure('');
console.error(JSON.stringify({ sqlite, load_average: loadavg() })); // progress: SQLite is done
let postgres: unknown = 'skipped (no --database-url)';
if (pgUrl) {
  try {
    postgres = await measure(pgUrl);
  } finally {
    if (!process.argv.includes('--keep-postgres')) await dropPostgresPalace(pgUrl);
  }
}

let baseline: unknown = 'skipped (--no-baseline)';
if (!process.argv.includes('--no-baseline') && texts.length === N) {
  t = performance.now();
  const ms = new MiniSearch<{ id: number; text: string }>({ fields: ['text'] });
  ms.addAll(texts.map((tx, id) => ({ id, text: tx })));
  const idx = (performance.now() - t) / 1000;
  baseline = {
    system: 'MiniSearch 7.2.0 default options, in memory',
    index_seconds: +idx.toFixed(1),
    ...(await timeIt((q) => ms.search(q).slice(0, 10))),
  };
}
if (!process.argv.includes('--keep')) rmSync(work, { recursive: true, force: true });
console.log(
  JSON.stringify(
    {
      bench: 'search-latency',
      queries: queries.length,
      load_average: { start: loadAtStart, end: loadavg().map((x) => +x.toFixed(1)) },
      ...(pgUrl && process.argv.includes('--keep-postgres') ? { kept_postgres: pgUrl } : {}),
      ...sqlite,
      postgres,
      baseline,
    },
    null,
    2,
  ),
);
