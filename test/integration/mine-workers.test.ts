/**
 * @module test/integration/mine-workers
 * Mining with worker threads gives exactly the drawers of inline mining.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createMemoryStore, mineProject } from '../../src/internal.js';
import { tempDir } from '../helpers/cli.js';
import { generateTree } from '../helpers/corpus.js';

test('workers and inline mining store the same drawers', async () => {
  const t = tempDir();
  try {
    generateTree(join(t.dir, 'tree'), 60, 5);
    const a = createMemoryStore();
    const b = createMemoryStore();
    const sa = await mineProject(a, join(t.dir, 'tree'), { workers: 0 });
    const sb = await mineProject(b, join(t.dir, 'tree'), { workers: 2 });
    assert.equal(sa.drawersAdded, sb.drawersAdded);
    assert.ok(sa.drawersAdded > 60);
    const key = (s: typeof a) =>
      s
        .list({}, { limit: 10_000, order: 'source' })
        .then((r) => r.drawers.map((d) => [d.id, d.text, d.lineStart, d.lineEnd]));
    assert.deepEqual(await key(a), await key(b));
  } finally {
    t.cleanup();
  }
});
