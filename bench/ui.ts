/**
 * The web UI at scale, in Debian's chromium: time to first render of the palace page (the wings with
 * their drawer counts and text sizes, and the first page of drawers) and of the search page (the app
 * shell with its search box, and a deep link `/search?q=…` until its hits are drawn), and the round
 * trip of an as-you-type search in the browser (input event → request → hits rendered for that query),
 * on the `search-latency` palace (150,000 drawers of ~800 characters by default). Baseline in the
 * same run: the same queries' `GET /api/search` from Node (no browser, no rendering), round-robin.
 * The page's 120 ms typing debounce is part of the browser round trip and is reported apart.
 * Usage: npm run build && node --import tsx bench/ui.ts [--drawers 150000] [--home DIR] [--queries 100]
 *   --home reuses a palace (e.g. one built by `bench/search-latency.ts --keep DIR`: DIR/home).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPalace } from '../dist/index.js';
import { serveUi } from '../dist/ui/index.js';
import { launchChromium } from '../test/helpers/browser.js';
import { rng } from '../test/helpers/corpus.js';

const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : def;
};
const N = Number(arg('drawers', '150000'));
const loadBefore = +loadavg()[0]!.toFixed(1);
const Q = Number(arg('queries', '100'));
const DEBOUNCE_MS = 120;

let work: string | undefined;
let home = arg('home', '');
if (!home) {
  work = mkdtempSync(join(tmpdir(), 'loci-bench-ui-'));
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'bench/search-latency.ts', '--drawers', String(N), '--no-baseline', '--keep', work],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (r.status !== 0) throw new Error('building the palace with bench/search-latency.ts failed');
  home = join(work, 'home');
}

// Queries: 2–4 words of at least 5 letters taken in order from random drawers (as search-latency).
const palace = await openPalace({ home });
const { total } = await palace.listDrawers({}, { limit: 1 });
const r = rng(11);
const queries: string[] = [];
while (queries.length < Q) {
  const d = (await palace.listDrawers({}, { limit: 1, offset: Math.floor(r() * total) })).drawers[0]!;
  const words = d.text.split(/[\s.]+/).filter((w) => w.length >= 5);
  const start = Math.floor(r() * Math.max(1, words.length - 4));
  const q = words.slice(start, start + 2 + Math.floor(r() * 3)).join(' ');
  if (q && !queries.includes(q)) queries.push(q);
}
const status = await palace.status();
const ui = await serveUi({ palace, port: 0 });
const origin = ui.url.replace(/\/$/, '');

function pct(xs: number[], p: number) {
  const s = [...xs].sort((a, b) => a - b);
  return +s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!.toFixed(1);
}
const stats = (xs: number[]) => ({ n: xs.length, p50_ms: pct(xs, 50), p95_ms: pct(xs, 95) });

const { context, close } = await launchChromium();
const page = await context.newPage();
const shell: number[] = [];
const deepLink: number[] = [];
const palacePage: number[] = [];
for (let i = 0; i < 10; i++) {
  let t0 = performance.now();
  await page.goto(`${origin}/palace`);
  await page.waitForSelector('nav.tree a.wing');
  await page.waitForSelector('table.list tbody tr');
  palacePage.push(performance.now() - t0);
  t0 = performance.now();
  await page.goto(`${origin}/search`);
  await page.waitForSelector('#q');
  shell.push(performance.now() - t0);
  t0 = performance.now();
  await page.goto(`${origin}/search?q=${encodeURIComponent(queries[i]!)}`);
  await page.waitForSelector('li.hit');
  deepLink.push(performance.now() - t0);
}

/** In the page: sets the box to `q` as typing does and resolves when the hits of `q` are drawn (ms). */
const typeAndWait = (q: string) =>
  page.evaluate(
    `new Promise((resolve) => {
      const box = document.getElementById('q');
      const list = document.querySelector('ol.hits');
      const t0 = performance.now();
      const done = () => list.dataset.query === ${JSON.stringify(q)} && (resolve(performance.now() - t0), true);
      new MutationObserver((_, o) => done() && o.disconnect()).observe(list, { attributes: true, subtree: true });
      box.value = ${JSON.stringify(q)};
      box.dispatchEvent(new Event('input', { bubbles: true }));
    })`,
  ) as Promise<number>;

await page.goto(`${origin}/search`);
await page.waitForSelector('ol.hits', { state: 'attached' });
const browser: number[] = [];
const api: number[] = [];
for (const q of queries) {
  browser.push(await typeAndWait(q));
  const t0 = performance.now();
  const res = await fetch(`${origin}/api/search?q=${encodeURIComponent(q)}&limit=20`);
  await res.json();
  api.push(performance.now() - t0);
}
await close();
await ui.close();
await palace.close();
if (work) rmSync(work, { recursive: true, force: true });

console.log(
  JSON.stringify(
    {
      bench: 'ui',
      machine: {
        cpus: cpus().length,
        node: process.version,
        load_before: loadBefore,
        load_after: +loadavg()[0]!.toFixed(1),
      },
      drawers: status.drawers,
      db_mb: +(status.bytes / 1e6).toFixed(1),
      queries: queries.length,
      first_render_palace_tree_with_sizes_and_first_page: stats(palacePage),
      first_render_search_shell: stats(shell),
      first_render_search_deep_link_with_hits: stats(deepLink),
      browser_search_round_trip: stats(browser),
      browser_search_round_trip_minus_debounce: stats(browser.map((x) => x - DEBOUNCE_MS)),
      baseline_api_fetch_from_node: stats(api),
    },
    null,
    2,
  ),
);
