#!/usr/bin/env node
// Builds dist/ as `npm run build` does (the e2e tests spawn bin/loci) and runs every *.test.ts with
// node:test from JavaScript compiled once (ts-compile.mjs, ts-loader.mjs; not through tsx): the long
// files first, the src unit files grouped per folder (test-files.mjs), two files more at a time than
// the machine has cores (a file that waits on a server, a child process or a poll leaves its core to
// the next ones; none of the tests depends on wall-clock timing). With one file more, the cores were
// busy ~87 % of the run (scripts/test-times.mjs per unit, replayed); with two more, ~100 %
// (BENCHMARKS.md "Test suite time").
// Usage: npm test [-- file-or-folder ...]
// LOCI_TEST_ISOLATE=1: every file in its own process. LOCI_TEST_CONCURRENCY=n: n files at a time.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileTypeScript } from './ts-compile.mjs';
import { plan, testFiles } from './test-files.mjs';

const root = new URL('..', import.meta.url).pathname;
const LOADER = new URL('./ts-loader.mjs', import.meta.url).href;
process.chdir(root);

const files = testFiles(root, process.argv.slice(2));

const build = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
  stdio: 'inherit',
});
if (build.status !== 0) {
  console.error('build failed: fix the TypeScript errors above');
  process.exit(build.status ?? 1);
}
// The page of `loci ui` (dist/ui/assets), which the UI tests serve, and the start-up bundles that
// bin/loci.js runs when they exist (so they must be rebuilt with the tsc output, never left stale).
for (const [script, what] of [
  ['scripts/build-ui.mjs', 'the web UI build'],
  ['scripts/build-bundles.mjs', 'the start-up bundles'],
]) {
  const r = spawnSync(process.execPath, [script], { stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`${what} failed (${script})`);
    process.exit(r.status ?? 1);
  }
}
const groupDir = mkdtempSync(join(tmpdir(), 'loci-test-groups-'));
// The tests run from JavaScript compiled once here (scripts/ts-loader.mjs), not through tsx.
const compiled = join(groupDir, 'js');
let status = 1;
try {
  await compileTypeScript(root, compiled);
  const units = plan(root, files, groupDir, { isolate: process.env['LOCI_TEST_ISOLATE'] === '1' });
  const concurrency = Number(process.env['LOCI_TEST_CONCURRENCY']) || Math.max(2, availableParallelism()) + 2;
  const res = spawnSync(
    process.execPath,
    ['--import', LOADER, '--test', `--test-concurrency=${concurrency}`, ...units.map((u) => u.path)],
    { stdio: 'inherit', env: { ...process.env, LOCI_TEST: '1', LOCI_TS_OUT: compiled } },
  );
  status = res.status ?? 1;
} finally {
  rmSync(groupDir, { recursive: true, force: true });
}
process.exit(status);
