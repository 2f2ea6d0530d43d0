/** @module core/diff.test */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unifiedDiff } from './diff.js';

test('unifiedDiff: hunks with context, new files, no change', () => {
  const before = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n';
  const after = 'a\nb\nC\nd\ne\nf\ng\nh\ni\nj\nk\nl\n';
  assert.equal(
    unifiedDiff('x.md', before, after),
    '--- a/x.md\n+++ b/x.md\n@@ -1,6 +1,6 @@\n a\n b\n-c\n+C\n d\n e\n f\n@@ -9,3 +9,4 @@\n i\n j\n k\n+l\n',
  );
  assert.equal(
    unifiedDiff('y.md', undefined, 'new\nfile\n'),
    '--- /dev/null\n+++ b/y.md\n@@ -0,0 +1,2 @@\n+new\n+file\n',
  );
  assert.equal(unifiedDiff('y.md', 'same\n', 'same\n'), '');
  assert.equal(unifiedDiff('y.md', 'gone\n', undefined), '--- a/y.md\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-gone\n');
});

test('unifiedDiff: one changed line in a file over 2,000 lines is one small hunk', () => {
  const before = Array.from({ length: 2_500 }, (_, i) => `line ${i}`).join('\n'); // over the 2,000-line LCS cap
  const after = before.replace('line 1200\n', 'line 1200 changed\n');
  const diff = unifiedDiff('big.ts', before, after);
  assert.equal(diff.split('\n').filter((l) => l.startsWith('-') && !l.startsWith('---')).length, 1);
  assert.match(diff, /@@ -1198,7 \+1198,7 @@/);
});
