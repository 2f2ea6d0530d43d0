/** @module team/diff3.test — the three-way merge: one-sided edits, identical edits, conflicts kept side by side. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { merge3 } from './diff3.js';

const L = { ours: 'alice', theirs: 'bob (team v2)' };

test('edits to different lines merge cleanly, whichever side made them', () => {
  const base = 'a\nb\nc\nd\ne\n';
  const r = merge3(base, 'A\nb\nc\nd\ne\n', 'a\nb\nc\nd\nE\n', L);
  assert.deepEqual(r, { text: 'A\nb\nc\nd\nE\n', conflicts: 0 });
  assert.deepEqual(merge3(base, 'a\nb\nX\nc\nd\ne\n', 'a\nb\nc\nd\ne\nend\n', L), {
    text: 'a\nb\nX\nc\nd\ne\nend\n',
    conflicts: 0,
  });
  assert.deepEqual(merge3(base, 'a\nc\nd\ne\n', 'a\nb\nc\nd\ne\n', L), { text: 'a\nc\nd\ne\n', conflicts: 0 });
});

test('the same change on both sides is taken once', () => {
  assert.deepEqual(merge3('a\nb\n', 'a\nB\n', 'a\nB\n', L).text, 'a\nB\n');
  assert.deepEqual(merge3('a\nb\nc\n', 'a\nB\nc\n', 'a\nB\nc\nd\n', L), { text: 'a\nB\nc\nd\n', conflicts: 0 });
});

test('both sides changing the same lines keep both versions in a labelled block', () => {
  const r = merge3('x\nshared\ny\n', 'x\nmine\ny\n', 'x\ntheirs\ny\n', L);
  assert.equal(r.conflicts, 1);
  assert.equal(r.text, 'x\n<<<<<<< alice\nmine\n=======\ntheirs\n>>>>>>> bob (team v2)\ny\n');
  const noEol = merge3('a', 'b', 'c', L);
  assert.equal(noEol.text, '<<<<<<< alice\nb\n=======\nc\n>>>>>>> bob (team v2)\n');
  const fromNothing = merge3('', 'one\n', 'two\n', L);
  assert.equal(fromNothing.conflicts, 1);
});

test('a frontmatter modified stamp changed on both sides resolves to the later one', () => {
  const base = '---\nname: x\nmodified: 2026-01-01\n---\nline 1\nline 2\nline 3\n';
  const ours = '---\nname: x\nmodified: 2026-01-03\n---\nline 1 mine\nline 2\nline 3\n';
  const theirs = '---\nname: x\nmodified: 2026-01-02\n---\nline 1\nline 2\nline 3 theirs\n';
  assert.deepEqual(merge3(base, ours, theirs, L), {
    text: '---\nname: x\nmodified: 2026-01-03\n---\nline 1 mine\nline 2\nline 3 theirs\n',
    conflicts: 0,
  });
});
