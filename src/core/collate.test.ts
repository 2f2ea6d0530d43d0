/** @module core/collate.test */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { groupThousands, localeOrder } from './collate.js';

const sign = (n: number) => Math.sign(n);

test('localeOrder orders exactly as localeCompare (ISO times, dates, names, mixed strings)', () => {
  const iso = fc
    .date({ min: new Date('1990-01-01'), max: new Date('2090-01-01'), noInvalidDate: true })
    .map((d) => d.toISOString());
  const text = fc.string({
    unit: fc.constantFrom('a', 'B', '1', '9', '0', '-', '_', '.', 'é', 'Z', ' ', 'å'),
    maxLength: 8,
  });
  const any = fc.oneof(
    iso,
    text,
    iso.map((s) => s.slice(0, 10)),
    fc.string({ maxLength: 6 }),
  );
  fc.assert(
    fc.property(any, any, (a, b) => {
      assert.equal(sign(localeOrder(a, b)), sign(a.localeCompare(b)), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
    }),
    { numRuns: 3000 },
  );
  // Cases decided without ICU, and cases handed to it.
  const cases: [string, string][] = [
    ['2026-12-02T01:28:12.020Z', '2026-12-02T01:28:12.292Z'],
    ['2026-01-01', '2026-01-01T00:00:00.000Z'],
    ['2026', '20261'],
    ['a1', 'a1'],
    ['', '1'],
    ['file_b.md', 'file_a.md'],
    ['Ab', 'ac'],
    ['Ac', 'ab'],
    ['x-1', 'x_1'],
  ];
  for (const [a, b] of cases) {
    assert.equal(sign(localeOrder(a, b)), sign(a.localeCompare(b)), `${a} vs ${b}`);
    assert.equal(sign(localeOrder(b, a)), sign(b.localeCompare(a)), `${b} vs ${a}`);
  }
});

test('groupThousands gives what toLocaleString("en-US") gives', () => {
  for (const n of [
    0,
    7,
    999,
    1000,
    12_345,
    999_999,
    1_000_000,
    2_147_483_647,
    -1,
    -1234,
    1.5,
    -0,
    NaN,
    Infinity,
    2 ** 60,
  ])
    assert.equal(groupThousands(n), n.toLocaleString('en-US'), String(n));
  fc.assert(
    fc.property(fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }), (n) => {
      assert.equal(groupThousands(n), n.toLocaleString('en-US'));
    }),
  );
});
