/**
 * @module test/e2e/readme-example
 * The README's library example is the same code as examples/quick-start.ts; this test checks that
 * they match, type-checks the examples against the built package, and runs them (also
 * examples/library-use.ts, the root entry in use).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempDir, writeTree } from '../helpers/cli.js';

test('the README example compiles and runs', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /## Library\n\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(block, 'README has a ts block under "## Library"');
  const example = readFileSync(join(ROOT, 'examples/quick-start.ts'), 'utf8');
  for (const line of block
    .split('\n')
    .filter((l) => l.trim() && !l.includes("'/tmp/my-palace'") && !l.includes("'./docs'"))) {
    assert.ok(example.includes(line.trim()), `example contains README line: ${line}`);
  }
  const tsc = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', 'examples/tsconfig.json'],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
  const t = tempDir();
  try {
    writeTree(t.dir, { 'docs/deploy.md': '# Deploy\n\nWe deploy with a blue-green switch every Tuesday.\n' });
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'examples/quick-start.ts', join(t.dir, 'home'), join(t.dir, 'docs')],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /1 drawers added/);
    assert.match(run.stdout, /deploy\.md \[ 1, 3 \]/);
  } finally {
    t.cleanup();
  }
});

test('the library-use example runs against the root entry', () => {
  const t = tempDir();
  try {
    writeTree(t.dir, { 'docs/deploy.md': '# Deploy\n\nWe deploy with a blue-green switch every Tuesday.\n' });
    const args = [join(t.dir, 'home'), join(t.dir, 'docs'), join(t.dir, 'memory')];
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'examples/library-use.ts', ...args], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^mined: 1 drawers$/m);
    assert.match(run.stdout, /^best: .*deploy\.md/m);
    assert.match(run.stdout, /^fact: Ada works_on deploys since 2026-01-05/m);
    assert.match(run.stdout, /^recall: 1 memories/m);
    assert.match(run.stdout, /^dream: ran, \d+ changes, model none$/m);
    assert.match(run.stdout, /^error: MEMORY_NOT_FOUND$/m);
  } finally {
    t.cleanup();
  }
});
