/**
 * @module test/e2e/context-example
 * examples/context-use.ts, the `loci/context` subpath in an agent loop, runs against the built
 * package (type-checked with the other examples by `npm run typecheck` and readme-example.test.ts):
 * it compacts, persists every large tool result, and archives every message into the palace.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempDir } from '../helpers/cli.js';

test('the context example runs: compactions, persisted results, every message archived', () => {
  const t = tempDir();
  try {
    const home = join(t.dir, 'home');
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'examples/context-use.ts', home], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^compacted: \d+ messages into the summary/m);
    const compactions = Number(/^compactions: (\d+)$/m.exec(run.stdout)?.[1]);
    assert.ok(compactions >= 2, run.stdout);
    assert.match(run.stdout, /^persisted results: 30 \(\d+ characters kept out of context\)$/m);
    const appended = /^messages appended: (\d+)$/m.exec(run.stdout)?.[1];
    assert.equal(/^archived messages: (\d+) in \d+ drawers$/m.exec(run.stdout)?.[1], appended, 'nothing is lost');
    assert.match(run.stdout, /^tool results\s+\d+$/m);
    assert.equal(readdirSync(join(home, 'tool-results')).length, 30, 'one file per distinct output');
  } finally {
    t.cleanup();
  }
});
