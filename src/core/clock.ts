/**
 * @module core/clock
 * Injectable time, so that the temporal graph, ages and recency can be tested deterministically.
 */

/** A source of the current time. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** The real clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** A clock fixed at `ms` (advance it by assigning `t`). */
export function fixedClock(ms: number): Clock & { t: number } {
  const c = { t: ms, now: () => c.t };
  return c;
}

/**
 * Milliseconds on the monotonic clock, for durations. Not `performance.now()`: the `performance` global
 * loads `perf_hooks` (a dozen internal modules, ~10 M instructions) on first use (issue 12).
 */
export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;

/** ISO-8601 UTC string for `ms`. */
export function isoAt(ms: number): string {
  return new Date(ms).toISOString();
}
