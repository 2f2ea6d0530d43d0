/**
 * @module search/duplicates.test
 * `checkDuplicate` (moved out of the MCP tool, issue 12): exact copies, near copies by word-set
 * similarity at or above the threshold, the wing filter, and the Jaccard similarity itself.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { openPalace, type Palace } from '../palace/index.js';
import { createMemoryStore } from '../store/index.js';
import { checkDuplicate, jaccard } from './duplicates.js';

let root: string;
let palace: Palace;
beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'loci-dup-'));
  palace = await openPalace({ home: join(root, 'home'), embedder: null, store: createMemoryStore() });
});
afterEach(async () => {
  await palace.close();
  rmSync(root, { recursive: true, force: true });
});

const TEXT = 'We decided to keep the session cookie for five minutes and refresh it on every request.';

describe('checkDuplicate', () => {
  it('finds the exact copy, a near copy above the threshold, and nothing for unrelated text', async () => {
    const { id } = await palace.addDrawer({ wing: 'acme', room: 'auth', text: TEXT });
    const exact = await checkDuplicate(palace, TEXT);
    assert.deepEqual(
      exact.exact.map((d) => d.id),
      [id],
    );
    assert.deepEqual(exact.similar, [], 'an exact copy is not listed again as similar');
    const near = await checkDuplicate(palace, TEXT.replace('five', 'six'), { threshold: 0.7 });
    assert.deepEqual(near.exact, []);
    assert.equal(near.similar[0]?.drawer.id, id);
    assert.ok(near.similar[0]!.similarity >= 0.7 && near.similar[0]!.similarity < 1);
    assert.deepEqual((await checkDuplicate(palace, TEXT.replace('five', 'six'))).similar, [], 'default 0.9');
    const fresh = await checkDuplicate(palace, 'completely unrelated words about gardening tomatoes');
    assert.deepEqual([fresh.exact.length, fresh.similar.length], [0, 0]);
  });

  it('looks only in the given wing', async () => {
    await palace.addDrawer({ wing: 'acme', room: 'auth', text: TEXT });
    const other = await checkDuplicate(palace, TEXT, { wing: 'zeta', threshold: 0.1 });
    assert.deepEqual([other.exact.length, other.similar.length], [0, 0]);
  });

  it('jaccard: shared over union; two empty sets are the same', () => {
    assert.equal(jaccard(new Set(['a', 'b']), new Set(['b', 'c'])), 1 / 3);
    assert.equal(jaccard(new Set(), new Set()), 1);
    assert.equal(jaccard(new Set(['a']), new Set()), 0);
  });
});
