/**
 * @module test/bench/context
 * A smoke run of bench/context.ts (20 turns instead of 200, no simulated model time), so the bench
 * keeps working: its JSON has the fields BENCHMARKS.md quotes, the peak stays under the window and
 * every message is archived. The bench imports `dist/`, which `npm test` builds first.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { ROOT } from '../helpers/cli.js';

test('bench/context.ts runs a short session: peak under the window, nothing lost, compactions', () => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/context.ts', '--turns', '20', '--model-ms', '0'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  const doc = JSON.parse(run.stdout) as {
    runs: { name: string; peak_under_window: boolean; nothing_lost: boolean; compactions: number; messages: number }[];
  };
  assert.deepEqual(
    doc.runs.map((r) => r.name),
    ['claude-200k', 'local-32k'],
  );
  for (const r of doc.runs) {
    assert.equal(r.peak_under_window, true, r.name);
    assert.equal(r.nothing_lost, true, r.name);
    assert.ok(r.messages >= 20 * 4, r.name);
  }
  assert.ok(doc.runs[1]!.compactions >= 1, 'the 32k window compacts within 20 turns');
});
