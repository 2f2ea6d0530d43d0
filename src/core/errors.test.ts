/**
 * @module core/errors.test
 * Messages are one bounded line whatever the values they echo (issue 11, defects 2 and 5).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { ECHO_MAX_CHARS, MESSAGE_MAX_CHARS, createError, displayDetails, oneLine } from './errors.js';
import { isStrictDate } from './dates.js';

test('a value with line breaks, bidi overrides and lone surrogates is echoed on one escaped line', () => {
  const e = createError('DRAWER_NOT_FOUND', { id: 'a\nb\u202Ec\ud800\u2028' });
  assert.equal(e.message.includes('\n'), false);
  assert.match(e.message, /no drawer with id a\\nb\\u202ec\\ud800\\u2028 /);
});

test('a 1 MB value is quoted as a short prefix with its length; details keep it, toJSON shortens it', () => {
  const value = 'x'.repeat(1_000_000);
  const e = createError('INVALID_ARGUMENT', { name: 'content', value, expected: 'at most 10 characters' });
  assert.ok(e.message.length < 400, `message of ${e.message.length} chars`);
  assert.match(e.message, /x…\(1000000 chars\)/);
  assert.equal(e.details.value, value);
  assert.ok(JSON.stringify(e.toJSON()).length < 800);
});

test('deep and long structures are bounded for display', () => {
  const shown = displayDetails({
    list: Array.from({ length: 1000 }, (_, i) => `k${i}`),
    deep: { a: { b: { c: { d: { e: 1 } } } } },
  });
  assert.equal((shown.list as string[]).length, 21);
  assert.equal(JSON.stringify(shown).includes('"e"'), false);
});

test('property: every message is one line of bounded length', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 3000 }), fc.anything(), (s, v) => {
      for (const e of [
        createError('PATH_NOT_FOUND', { path: s }),
        createError('INVALID_ARGUMENT', { name: s, value: v, expected: s }),
      ]) {
        assert.equal(/[\n\r\u2028\u2029\u202e]/.test(e.message), false);
        assert.ok(e.message.length <= MESSAGE_MAX_CHARS);
        assert.ok(e.message.length <= 3 * 6 * (ECHO_MAX_CHARS + 40) + 200); // escapes take up to 6 characters
      }
      assert.equal(oneLine(s).includes('\n'), false);
    }),
    { numRuns: 300 },
  );
});

test('dates are checked against the calendar', () => {
  for (const ok of [
    '2026-01-15',
    '2024-02-29',
    '2026-01-15T10:00:00Z',
    '2026-01-15T10:00',
    '2026-01-15T10:00:00.123+02:00',
  ])
    assert.equal(isStrictDate(ok), true, ok);
  for (const bad of [
    '2025-13-45',
    '2025-02-29',
    '2025-00-10',
    '2026-01-15T24:00Z',
    '2026-01-15T10:60',
    'yesterday',
    '2026-1-5',
    '2026-01-15T10:00+25:00',
  ])
    assert.equal(isStrictDate(bad), false, bad);
});
