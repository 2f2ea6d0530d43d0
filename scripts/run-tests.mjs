#!/usr/bin/env node
// Builds dist/ (the e2e tests spawn bin/loci) and runs every *.test.ts with node:test through tsx.
// Usage: npm test [-- file-or-folder ...]
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
process.chdir(root);

function collect(dir, out) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'fixtures' || name.startsWith('.')) continue;
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) collect(p, out);
    else if (name.endsWith('.test.ts')) out.push(relative(root, p));
  }
  return out;
}

const args = process.argv.slice(2);
const targets = args.length ? args : ['src', 'test'];
const files = targets.flatMap((t) => (statSync(t).isDirectory() ? collect(t, []) : [t])).sort();

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
// The start-up bundles that bin/loci.js and dist/hooks/main.js run (scripts/build-bundles.mjs).
const bundles = spawnSync(process.execPath, ['scripts/build-bundles.mjs'], { stdio: 'inherit' });
if (bundles.status !== 0) {
  console.error('the start-up bundles failed (scripts/build-bundles.mjs)');
  process.exit(bundles.status ?? 1);
}

const res = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], {
  stdio: 'inherit',
  env: { ...process.env, LOCI_TEST: '1' },
});
process.exit(res.status ?? 1);
