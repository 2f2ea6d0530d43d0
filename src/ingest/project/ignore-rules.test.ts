/**
 * @module ingest/project/ignore-rules.test
 * Each level judges a path by its own patterns, never by a parent folder that level excludes but a
 * higher level re-includes (git's behaviour; done through `ignore`'s public API only).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addLevel, isIgnored } from './ignore-rules.js';

test('a folder re-included by a higher level is judged by its own path at the lower level', () => {
  // `.git/info/exclude` holds `c/*`; the root `.gitignore` holds `!a/`.
  const exclude = addLevel(undefined, ['c/*'], '');
  const levels = addLevel(exclude, ['!a/'], '');
  assert.equal(isIgnored('c/x.txt', false, levels, undefined), true);
  assert.equal(isIgnored('c/a', true, levels, undefined), false);
  assert.equal(isIgnored('c/a/x.txt', false, levels, undefined), false);
  assert.equal(isIgnored('c/a/b', true, levels, undefined), false);
  assert.equal(isIgnored('c/b', true, exclude, undefined), true);
});

test('deep paths, dotfiles and folder-only patterns keep their own verdicts', () => {
  const levels = addLevel(undefined, ['*.log', '!keep.log', 'build/', '/top.txt'], '');
  assert.equal(isIgnored('a/b/c/d/e.log', false, levels, undefined), true);
  assert.equal(isIgnored('a/b/c/d/keep.log', false, levels, undefined), false);
  assert.equal(isIgnored('x/build', true, levels, undefined), true);
  assert.equal(isIgnored('x/build', false, levels, undefined), false);
  assert.equal(isIgnored('top.txt', false, levels, undefined), true);
  assert.equal(isIgnored('x/top.txt', false, levels, undefined), false);
  assert.equal(isIgnored('.hidden/y.log', false, levels, undefined), true);
});
