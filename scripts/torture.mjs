#!/usr/bin/env node
// The full form of the fault and fuzz suite (issue 11): the same tests as test/torture/ (which
// `npm test` runs in their short form), with more crash rounds, fuzz cases and concurrent work,
// then a summary of the figures the tests recorded.
// Usage: npm run torture [-- --rounds 100 --fuzz-runs 1000 --work 5 --seed 20261201 --only crash,fuzz]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
process.chdir(root);

const opts = { rounds: 100, 'fuzz-runs': 1000, work: 5, seed: 20261201, only: '' };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const key = argv[i].replace(/^--/, '');
  if (!(key in opts) || argv[i + 1] === undefined) {
    console.error(
      'usage: npm run torture -- [--rounds N] [--fuzz-runs N] [--work N] [--seed N] [--only ' +
        `crash,concurrency,fuzz,injection]\nunknown or incomplete option: ${argv[i]}`,
    );
    process.exit(2);
  }
  opts[key] = key === 'only' ? argv[++i] : Number(argv[++i]);
}

const only = opts.only ? opts.only.split(',') : [];
const files = readdirSync('test/torture')
  .filter((f) => f.endsWith('.test.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)))
  .map((f) => join('test/torture', f))
  .sort();

const build = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);
// The start-up bundles that bin/loci.js and dist/hooks/main.js run (scripts/build-bundles.mjs).
const bundles = spawnSync(process.execPath, ['scripts/build-bundles.mjs'], { stdio: 'inherit' });
if (bundles.status !== 0) process.exit(bundles.status ?? 1);

const dir = mkdtempSync(join(tmpdir(), 'loci-torture-report-'));
const report = join(dir, 'figures.jsonl');
const t0 = Date.now();
const res = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=dot', ...files],
  {
    stdio: 'inherit',
    env: {
      ...process.env,
      LOCI_TEST: '1',
      LOCI_TORTURE_ROUNDS: String(opts.rounds),
      LOCI_TORTURE_FUZZ_RUNS: String(opts['fuzz-runs']),
      LOCI_TORTURE_WORK: String(opts.work),
      LOCI_TORTURE_SEED: String(opts.seed),
      LOCI_TORTURE_REPORT: report,
    },
  },
);
const seconds = Math.round((Date.now() - t0) / 1000);

let lines = [];
try {
  lines = readFileSync(report, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
} catch {
  // no figures: every test failed before recording
}
rmSync(dir, { recursive: true, force: true });
console.log(
  `\ntorture (rounds ${opts.rounds}, fuzz runs ${opts['fuzz-runs']}, work ${opts.work}, seed ${opts.seed}) — ` +
    `${seconds} s, ${res.status === 0 ? 'all passed' : 'FAILURES'}`,
);
for (const { section, schedule: _schedule, ...figures } of lines) {
  console.log(
    `  ${section.padEnd(16)} ${Object.entries(figures)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
}
process.exit(res.status ?? 1);
