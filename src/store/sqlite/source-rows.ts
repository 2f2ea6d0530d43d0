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
 * The stamps of a tree, listed in a few statements (see {@link listStamps}): the settings of the first
 * source below `under`, the sources below it with those settings as three JSON arrays per chunk, and
 * every other row (the folder itself, the backslash range, other settings) as arrays.
 */
export const STAMP_SQL = {
  stampHead: 'SELECT wing, kind, config FROM sources WHERE source >= ? AND source < ? LIMIT 1',
  /**
   * One chunk of the sources from a lower bound on with the head's settings. better-sqlite3 builds a row
   * through V8's API (~10 K instructions for six columns); three arrays parsed by `JSON.parse` cost a
   * fraction of it. SQLite renders a REAL as the shortest text that reads back as the same double
   * (3.43+; the store contract checks mtimes such as `1700000000123.5` and `0.1 + 0.2` come back equal).
   * The unary `+`s keep SQLite on the primary key's range: with `kind = ?` it took the `sources_kind` index and
   * looked each row up in the table (a B-tree seek per file).
   */
  stampChunk: `SELECT json_group_array(source), json_group_array(size), json_group_array(mtime_ms), count(*)
    FROM (SELECT source, size, mtime_ms FROM sources
      WHERE source >= ? AND source < ? AND +wing = ? AND +kind = ? AND +config = ? ORDER BY source LIMIT ?)`,
  stampRest: `SELECT source, wing, kind, size, mtime_ms, config FROM sources WHERE source = ?
    UNION ALL SELECT source, wing, kind, size, mtime_ms, config FROM sources WHERE source >= ? AND source < ?
    UNION ALL SELECT source, wing, kind, size, mtime_ms, config FROM sources
      WHERE source >= ? AND source < ? AND (wing, kind, config) IS NOT (?, ?, ?)`,
} as const;

/** Rows per chunk of `stampChunk` (each array stays a few megabytes, far below V8's string limit). */
const STAMP_CHUNK = 50_000;

/** A row of `stampRest`: source, wing, kind, size, mtime (ms), config. */
type StampTuple = [string, string, string, number, number, string];

/** What {@link listStamps} runs: a statement of {@link STAMP_SQL} in raw mode, on `params`. */
export type RawQuery = {
  get(key: keyof typeof STAMP_SQL, params: unknown[]): unknown[] | undefined;
  all(key: keyof typeof STAMP_SQL, params: unknown[]): unknown[][];
};

/**
 * The stamps of the source `under` and of every source below it (after `/` comes `0`, after a backslash
 * `]`: the primary key's binary order keeps each range one index scan). A tree's rows mostly share their
 * wing, kind and settings: one string of each is kept.
 */
export function listStamps(q: RawQuery, under: string, chunk = STAMP_CHUNK): SourceStamp[] {
  const base = under.replace(/[\\/]+$/, '');
  const [lo, hi] = [`${base}/`, `${base}0`];
  const out: SourceStamp[] = [];
  const head = q.get('stampHead', [lo, hi]) as [string, string, string] | undefined;
  if (head) {
    const [wing, kind, config] = head;
    for (let from = lo; ;) {
      const [sources, sizes, mtimes, n] = q.get('stampChunk', [from, hi, ...head, chunk]) as [
        string,
        string,
        string,
        number,
      ];
      const source = JSON.parse(sources) as string[];
      const size = JSON.parse(sizes) as number[];
      const mtimeMs = JSON.parse(mtimes) as number[];
      for (let i = 0; i < n; i++)
        out.push({ source: source[i]!, wing, kind, size: size[i]!, mtimeMs: mtimeMs[i]!, config });
      if (n < chunk || n === 0) break;
      from = `${source[n - 1]}\u0000`; // the next path in binary order (a path holds no NUL)
    }
  }
  const rest = q.all('stampRest', [
    base,
    `${base}\\`,
    `${base}]`,
    lo,
    hi,
    ...(head ?? [null, null, null]),
  ]) as StampTuple[];
  for (const t of rest) out.push({ source: t[0], wing: t[1], kind: t[2], size: t[3], mtimeMs: t[4], config: t[5] });
  return out;
}
