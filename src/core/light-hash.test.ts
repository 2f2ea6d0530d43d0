/** @module core/light-hash.test */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { sha256 } from './hash.js';
import { randomHex, sha256Hex } from './light-hash.js';

// File names of the hooks (state files, the session-start cache) derive from it: it must equal node:crypto's digest.
test('sha256Hex gives node:crypto’s SHA-256 for any string, across block boundaries', () => {
  assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.equal(sha256Hex(''), sha256(''));
  for (let n = 0; n < 200; n++) assert.equal(sha256Hex('x'.repeat(n)), sha256('x'.repeat(n)), `length ${n}`);
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => assert.equal(sha256Hex(s), sha256(s))),
    { numRuns: 500 },
  );
});

test('randomHex gives n hex digits, different each time', () => {
  for (const n of [1, 6, 8, 12, 24]) assert.match(randomHex(n), new RegExp(`^[0-9a-f]{${n}}$`));
  const seen = new Set(Array.from({ length: 1000 }, () => randomHex(12)));
  assert.equal(seen.size, 1000);
});
