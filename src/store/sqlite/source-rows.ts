/**
 * @module store/sqlite/source-rows
 * Rows of the SQLite `sources` table (the source manifest) read as arrays: the column lists, and their
 * conversion to the store port's {@link SourceState} and {@link SourceStamp}.
 */
import type { SourceStamp, SourceState } from '../ports.js';

/** The columns of `sources` in the order of {@link SourceTuple}. */
export const SOURCE_COLUMNS =
  'source, wing, kind, root, size, mtime_ms, hash, offset, prefix_hash, config, state, mined_at';
export type SourceTuple = [
  string,
  string,
  string,
  string | null,
  number,
  number,
  string,
  number,
  string | null,
  string,
  string,
  string,
];

/** {@link toSource} of a row read as an array of {@link SOURCE_COLUMNS}. */
export function sourceOfTuple(t: SourceTuple): SourceState {
  return {
    source: t[0],
    wing: t[1],
    kind: t[2],
    root: t[3],
    size: t[4],
    mtimeMs: t[5],
    hash: t[6],
    offset: t[7],
    prefixHash: t[8],
    config: t[9],
    state: JSON.parse(t[10]) as Record<string, unknown>,
    minedAt: t[11],
  };
}

/**
 * The parameters of `sourceStamps`: `under` without a trailing separator, then the ranges of the paths below it
 * (after `/` comes `0`, after a backslash `]`: the primary key's binary order keeps each range one index scan).
 */
export function stampBounds(under: string): string[] {
  const base = under.replace(/[\\/]+$/, '');
  return [base, `${base}/`, `${base}0`, `${base}\\`, `${base}]`];
}

/** A row of `sourceStamps`: source, wing, kind, size, mtime (ms), config. */
export type StampTuple = [string, string, string, number, number, string];

/** {@link SourceStamp}s of `sourceStamps` rows. */
export function stampsOfRows(rows: StampTuple[]): SourceStamp[] {
  // A tree's rows share their wing, kind and settings: one string each is kept (the row's copies die young).
  let wing = '';
  let kind = '';
  let config = '';
  return rows.map((t) => {
    if (t[1] !== wing) wing = t[1];
    if (t[2] !== kind) kind = t[2];
    if (t[5] !== config) config = t[5];
    return { source: t[0], wing, kind, size: t[3], mtimeMs: t[4], config };
  });
}
