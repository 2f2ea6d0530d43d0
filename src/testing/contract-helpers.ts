/**
 * @module testing/contract-helpers
 * What the graph and tunnel contracts share: a fixed clock, day stamps, the error code of a
 * rejected call and a test registrar that clears the store before each test and skips only with a
 * stated reason.
 */
import { test } from 'node:test';
import { fixedClock } from '../core/clock.js';
import { isLociError } from '../core/errors.js';

/** The contracts' "now": 2026-01-15T12:00Z. */
export const T0 = Date.parse('2026-01-15T12:00:00.000Z');
/** A clock fixed at {@link T0}. */
export const clock = fixedClock(T0);
/** Midnight UTC of 2020-01-01 plus `n` days, as ISO-8601. */
export const day = (n: number) => new Date(Date.UTC(2020, 0, 1 + n)).toISOString();
/** `'ok'` when `p` resolves, the catalogue code when it rejects with a LociError (anything else rethrows). */
export const code = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
    return 'ok';
  } catch (e) {
    if (isLociError(e)) return e.code;
    throw e;
  }
};

/** Tests an adapter cannot pass, each with the reason. */
export type ContractSkips = { reason: string; tests: string[] }[] | undefined;

/** Returns `it(name, fn)`: a test that clears the store first, skipped only when listed with a reason. */
export function registrar(skip: ContractSkips, get: () => { dangerouslyClearAll(): Promise<void> }) {
  const skipped = new Map<string, string>();
  for (const s of skip ?? []) for (const t of s.tests) skipped.set(t, s.reason);
  return (name: string, fn: () => Promise<void>) =>
    test(name, skipped.has(name) ? { skip: skipped.get(name) } : {}, async () => {
      await get().dangerouslyClearAll();
      await fn();
    });
}
