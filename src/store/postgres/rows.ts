/**
 * @module store/postgres/rows
 * Row mapping of the PostgreSQL drawer store: drawer and source rows to port records, the filter
 * of a {@link DrawerFilter} as a parameterised WHERE fragment, the `tsvector` literal of a search
 * column (the tokeniser's tokens, each once with one position per occurrence, so the term frequency
 * survives), and the bookkeeping of document frequencies that BM25 reads.
 */
import type { DrawerFilter } from '../ports.js';
import type { Queryable } from './connect.js';

/** The stored columns of a drawer, without the search index. */
export const DRAWER_COLS =
  'rid, id, wing, room, hall, source, source_hash, source_mtime, chunk_index, line_start, line_end, content_date, ' +
  'filed_at, added_by, content_hash, metadata, index_extra, text';

/** Upper bound for `until`: a bare date includes the whole day (as `store/shared.ts`). */
function untilBound(until: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(until) ? `${until}T23:59:59.999Z` : until;
}

const asList = (v: string | readonly string[] | undefined) => (v === undefined || typeof v !== 'string' ? v : [v]);

/**
 * WHERE fragment over alias `d` for a filter, with its parameters numbered from `params.length + 1`
 * (the caller's parameters come first). Same semantics as `matchesFilter`.
 */
export function pgFilter(f: DrawerFilter | undefined, params: unknown[]): string {
  if (!f) return 'true';
  const parts: string[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const inList = (col: string, vals: readonly string[] | undefined) => {
    if (vals) parts.push(vals.length === 0 ? 'false' : `d.${col} = ANY(${p([...vals])}::text[])`);
  };
  inList('wing', asList(f.wing));
  inList('room', asList(f.room));
  inList('hall', asList(f.hall));
  inList('id', f.ids);
  if (f.source !== undefined) {
    if (f.source.endsWith('*')) parts.push(`starts_with(d.source, ${p(f.source.slice(0, -1))})`);
    else parts.push(`d.source = ${p(f.source)}`);
  }
  if (f.since !== undefined) parts.push(`d.content_date >= ${p(f.since)}`);
  if (f.until !== undefined) parts.push(`d.content_date <= ${p(untilBound(f.until))}`);
  return parts.length ? parts.join(' AND ') : 'true';
}

/** Longest lexeme PostgreSQL accepts in a tsvector (bytes, exclusive). */
const MAX_LEXEME_BYTES = 2047;
/** Most positions PostgreSQL keeps per lexeme: term frequencies are capped there. */
const MAX_POSITIONS = 255;

/** Quotes a lexeme for a tsvector or tsquery literal. */
export function quoteLexeme(t: string): string {
  return `'${t.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** The indexed form of a search column: its tsvector literal, distinct terms and length in tokens. */
export interface IndexedText {
  vector: string;
  terms: string[];
  dl: number;
}

/** Builds the tsvector literal of a search column (tokens joined by spaces, as `searchColumn` makes them). */
export function indexText(search: string): IndexedText {
  const tf = new Map<string, number>();
  let dl = 0;
  for (const t of search.split(' ')) {
    if (t === '') continue;
    dl++;
    if (t.length * 3 >= MAX_LEXEME_BYTES && Buffer.byteLength(t) >= MAX_LEXEME_BYTES) continue;
    tf.set(t, (tf.get(t) ?? 0) + 1);
  }
  const parts: string[] = [];
  for (const [t, n] of tf) {
    let pos = '1';
    for (let i = 2; i <= Math.min(n, MAX_POSITIONS); i++) pos += `,${i}`;
    parts.push(`${quoteLexeme(t)}:${pos}`);
  }
  return { vector: parts.join(' '), terms: [...tf.keys()], dl };
}

/** Adds documents to the term statistics: `terms` lists each new document's distinct terms. */
export async function addTermStats(c: Queryable, docs: readonly IndexedText[]): Promise<void> {
  if (docs.length === 0) return;
  const df = new Map<string, number>();
  let tokens = 0;
  for (const d of docs) {
    tokens += d.dl;
    for (const t of d.terms) df.set(t, (df.get(t) ?? 0) + 1);
  }
  const terms = [...df.keys()].sort();
  await c.query(
    'INSERT INTO lexical_terms (term, df) SELECT * FROM unnest($1::text[], $2::int[]) ' +
      'ON CONFLICT (term) DO UPDATE SET df = lexical_terms.df + excluded.df',
    [terms, terms.map((t) => df.get(t)!)],
  );
  await c.query('UPDATE lexical_totals SET docs = docs + $1, tokens = tokens + $2', [docs.length, tokens]);
}

/** Deletes drawers by row id, taking their terms out of the statistics. Returns how many were deleted. */
export async function deleteRids(c: Queryable, rids: readonly number[]): Promise<number> {
  if (rids.length === 0) return 0;
  const r = await c.query(
    `WITH gone AS (DELETE FROM drawers WHERE rid = ANY($1::bigint[]) RETURNING search, dl),
     t AS (SELECT x.term, count(*)::int AS n FROM gone, unnest(tsvector_to_array(gone.search)) AS x(term)
           GROUP BY x.term),
     u AS (UPDATE lexical_terms l SET df = l.df - t.n FROM t WHERE l.term = t.term RETURNING 1),
     tot AS (UPDATE lexical_totals SET docs = docs - (SELECT count(*) FROM gone),
             tokens = tokens - (SELECT coalesce(sum(dl), 0) FROM gone) RETURNING 1)
     SELECT (SELECT count(*) FROM gone)::int AS n, (SELECT count(*) FROM u)::int AS u,
            (SELECT count(*) FROM tot)::int AS tot`,
    [rids],
  );
  return (r.rows[0] as { n: number }).n;
}
