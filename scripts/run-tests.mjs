#!/usr/bin/env node
// Builds dist/ (the e2e tests spawn bin/loci) and runs every *.test.ts with node:test through tsx,
// two files (or groups of src unit files, see test-files.mjs) at a time, the long ones first.
// Usage: npm test [-- file-or-folder ...]   (LOCI_TEST_ISOLATE=1: every file in its own process)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { plan, testFiles } from './test-files.mjs';

const root = new URL('..', import.meta.url).pathname;
process.chdir(root);

const files = testFiles(root, process.argv.slice(2));

const build = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
  stdio: 'inherit',
});
if (build.status !== 0) {
  console.error('build failed: fix the TypeScript errors above');
  process.exit(build.status ?? 1);
}
// The page of `loci ui` (dist/ui/assets), which the UI tests serve.
const page = spawnSync(process.execPath, ['scripts/build-ui.mjs'], { stdio: 'inherit' });
if (page.status !== 0) {
  console.error('the web UI build failed (scripts/build-ui.mjs)');
  process.exit(page.status ?? 1);
}

const groupDir = mkdtempSync(join(tmpdir(), 'loci-test-groups-'));
let status = 1;
try {
  const units = plan(root, files, groupDir, { isolate: process.env['LOCI_TEST_ISOLATE'] === '1' });
  const res = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-concurrency=2', ...units.map((u) => u.path)],
    { stdio: 'inherit', env: { ...process.env, LOCI_TEST: '1' } },
  );
  status = res.status ?? 1;
} finally {
  rmSync(groupDir, { recursive: true, force: true });
}
process.exit(status);
