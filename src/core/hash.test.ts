/** @module core/hash.test */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { sha256, stableId } from './hash.js';

// The ids of stored drawers derive from these functions: a faster implementation must give the same bytes.
test('sha256 and stableId give the digests of a streamed SHA-256 (ids of stored drawers never change)', () => {
  const streamed = (parts: (string | number)[]) => {
    const h = createHash('sha256');
    parts.forEach((p, i) => {
      if (i > 0) h.update('\0');
      h.update(String(p));
    });
    return h.digest('hex');
  };
  assert.equal(sha256('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.equal(sha256(Buffer.from('abc')), sha256('abc'));
  for (const parts of [['a'], ['/src/x.ts', 'ff00', 0], ['wing', 'Café ☕ 模块', 12, ''], []] as (
    string | number
  )[][]) {
    assert.equal(stableId('d', ...parts), 'd' + streamed(parts).slice(0, 16));
  }
});
