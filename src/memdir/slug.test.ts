import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isReservedSlug, slugify, slugifyName, topicFileName, MAX_SLUG_LENGTH } from './index.js';

test('slugs: ASCII words, camelCase, punctuation', () => {
  assert.equal(slugify('Testing Policy'), 'testing-policy');
  assert.equal(slugify('  no_mocks!! in   tests '), 'no-mocks-in-tests');
  assert.equal(slugify('preferStrictTypes'), 'prefer-strict-types');
  assert.equal(slugify('v2.1 release'), 'v2-1-release');
});

test('slugs: Latin diacritics are transliterated', () => {
  assert.equal(slugify('Café Über Straße'), 'cafe-uber-strasse');
  assert.equal(slugify('Łódź Æsir Øresund'), 'lodz-aesir-oresund');
  assert.equal(slugifyName('Crème brûlée').hashed, false);
});

test('slugs: non-Latin names keep a short hash so distinct names stay distinct', () => {
  const a = slugifyName('設計レビュー');
  assert.match(a.slug, /^m-[0-9a-f]{6}$/);
  assert.equal(a.hashed, true);
  assert.notEqual(slugify('設計'), slugify('レビュー'));
  assert.match(slugify('API 設計'), /^api-[0-9a-f]{6}$/);
  assert.match(slugify('Привет мир'), /^m-[0-9a-f]{6}$/);
  assert.equal(slugify('設計'), slugify('設計'), 'stable');
  assert.match(slugify('!!!'), /^m-[0-9a-f]{6}$/, 'nothing usable still gives a slug');
});

test('slugs: traversal and reserved names are neutralised', () => {
  assert.equal(slugify('../../etc/passwd'), 'etc-passwd');
  assert.equal(slugify('..'), slugify('..'));
  assert.match(slugify('..'), /^m-[0-9a-f]{6}$/);
  assert.equal(slugify('CON'), 'con-m');
  assert.equal(slugify('nul'), 'nul-m');
  assert.equal(slugify('COM1'), 'com1-m');
  assert.equal(slugify('MEMORY'), 'memory-m');
  assert.equal(slugify('memory notes'), 'memory-notes');
  assert.equal(topicFileName('feedback', 'Testing Policy'), 'feedback_testing-policy.md');
});

test('slugs: long names are cut at a word boundary', () => {
  const s = slugify('word '.repeat(40));
  assert.ok(s.length <= MAX_SLUG_LENGTH);
  assert.ok(!s.endsWith('-'));
});

test('property: every slug is safe', () => {
  const anyName = fc.oneof(
    fc.string({ maxLength: 120, unit: 'grapheme' }),
    fc.string({ maxLength: 120, unit: 'binary' }),
    fc.constantFrom(
      '..',
      '.',
      '/',
      '\\',
      'CON',
      'con.txt',
      'LPT9',
      'MEMORY',
      'memory',
      'nul ',
      '~/x',
      'a/../../b',
      'C:\\Windows',
    ),
  );
  fc.assert(
    fc.property(anyName, (name) => {
      const s = slugify(name);
      assert.match(s, /^[a-z0-9][a-z0-9_-]*$/);
      assert.ok(!isReservedSlug(s), s);
      assert.ok(s.length <= MAX_SLUG_LENGTH + 2, s);
      assert.ok(!s.includes('..') && !s.includes('/') && !s.includes('\\'));
      assert.equal(slugify(name), s, 'deterministic');
      const file = topicFileName('project', name);
      assert.match(file, /^project_[a-z0-9][a-z0-9_-]*\.md$/);
    }),
    { numRuns: 2000 },
  );
});
