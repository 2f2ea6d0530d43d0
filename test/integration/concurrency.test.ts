/**
 * @module test/integration/concurrency
 * Several real processes mining and searching one palace at once: no SQLITE_BUSY surfaces, no
 * write is lost, and a file mined by two processes at once is stored exactly once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { lociAsync, tempDir } from '../helpers/cli.js';
import { lociIn } from '../helpers/cli-in-process.js';
import { generateTree } from '../helpers/corpus.js';

function rows(db: string): string[] {
  const d = new Database(db, { readonly: true });
  try {
    return (
      d.prepare('SELECT source, chunk_index, content_hash FROM drawers ORDER BY source, chunk_index').all() as object[]
    ).map((r) => JSON.stringify(r));
  } finally {
    d.close();
  }
}

test('two miners and a searcher on one palace: no busy errors, nothing lost, nothing doubled', async () => {
  const t = tempDir();
  try {
    const a = join(t.dir, 'a');
    const b = join(t.dir, 'b');
    generateTree(a, 150, 1);
    generateTree(b, 150, 2);
    const home = join(t.dir, 'home');
    const searches = (async () => {
      const out = [];
      for (let i = 0; i < 8; i++) out.push(await lociAsync(['search', 'palace drawer memory', '--json'], { home }));
      return out;
    })();
    const [ra, rb, ra2, s] = await Promise.all([
      lociAsync(['mine', a, '--json'], { home }),
      lociAsync(['mine', b, '--json'], { home }),
      lociAsync(['mine', a, '--json'], { home }),
      searches,
    ]);
    for (const r of [ra, rb, ra2, ...s]) {
      assert.equal(r.code, 0, r.stderr);
      assert.doesNotMatch(r.stderr, /BUSY|locked/i);
    }
    const ref = join(t.dir, 'ref');
    assert.equal((await lociIn(['mine', a], { home: ref })).code, 0);
    assert.equal((await lociIn(['mine', b], { home: ref })).code, 0);
    assert.deepEqual(rows(join(home, 'palace.db')), rows(join(ref, 'palace.db')));
  } finally {
    t.cleanup();
  }
});
