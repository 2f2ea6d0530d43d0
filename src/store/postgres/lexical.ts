/**
 * @module store/postgres/lexical
 * BM25 on PostgreSQL, scored as SQLite's FTS5 scores it (k1 = 1.2, b = 0.75, idf =
 * ln((N − df + 0.5) / (df + 0.5)) floored at 1e-6), so a palace ranks alike on both engines.
 *
 * Candidates come from the GIN index over `drawers.search` (a `tsvector` of the tokeniser's own
 * tokens, matched exactly: no dictionary, no stemming by PostgreSQL); each candidate is scored in
 * SQL from the frequencies of the query's terms in its vector (`setweight` + `ts_filter` keep only
 * those, so the cost does not grow with the drawer's length), with `df`, N and the average length
 * read from `lexical_terms` / `lexical_totals`. `ts_rank_cd` is not used: it ignores document
 * frequencies.
 *
 * Cost is bounded like the SQLite searcher's: when all terms together have at most
 * {@link CANDIDATE_BUDGET} postings every matching drawer is scored (exact); otherwise terms found
 * in more than half the drawers are dropped and the candidates are the drawers holding the rarest
 * terms (up to the budget) plus those holding every remaining term — each scored exactly on every
 * query term.
 */
import type { DrawerFilter, LexicalHit } from '../ports.js';
import { pgFilter, quoteLexeme } from './rows.js';
import type { Queryable } from './connect.js';

/** Postings scored per query before the search narrows its candidates. */
const CANDIDATE_BUDGET = 20_000;

const K1 = 1.2;
const B = 0.75;

/** The hit columns over alias `d`. */
const HIT_COLS =
  'd.id AS id, d.wing AS wing, d.room AS room, d.hall AS hall, d.source AS source, d.chunk_index AS "chunkIndex", ' +
  'd.content_date AS "contentDate"';

const orQuery = (terms: readonly string[]) => terms.map(quoteLexeme).join(' | ');
const andQuery = (terms: readonly string[]) => terms.map(quoteLexeme).join(' & ');

/** Searches the drawers of one palace (see the module notes). */
export async function searchBm25(
  c: Queryable,
  tokens: readonly string[],
  filter: DrawerFilter | undefined,
  limit: number,
): Promise<LexicalHit[]> {
  const unique = [...new Set(tokens)].filter((t) => t !== '');
  if (unique.length === 0 || limit <= 0) return [];
  const stats = await c.query(
    `SELECT (SELECT docs FROM lexical_totals) AS n, (SELECT tokens FROM lexical_totals) AS tokens,
       coalesce((SELECT json_object_agg(term, df) FROM lexical_terms WHERE term = ANY($1::text[]) AND df > 0), '{}')
         AS df`,
    [unique],
  );
  const row = stats.rows[0] as { n: number; tokens: number; df: Record<string, number> };
  const N = Number(row.n);
  if (N <= 0) return [];
  const terms = unique
    .map((t) => ({ t, df: Number(row.df[t] ?? 0) }))
    .filter((x) => x.df > 0)
    .sort((a, b) => a.df - b.df);
  if (terms.length === 0) return [];
  const avgdl = Math.max(1e-9, Number(row.tokens) / N);
  const idf = (df: number) => Math.max(1e-6, Math.log((N - df + 0.5) / (df + 0.5)));

  let match: string;
  const total = terms.reduce((a, x) => a + x.df, 0);
  if (total <= CANDIDATE_BUDGET) match = orQuery(terms.map((x) => x.t));
  else {
    const useful = terms.filter((x) => x.df <= N / 2);
    const pool = useful.length ? useful : [terms[0]!];
    const rare: string[] = [];
    let spent = 0;
    for (const x of pool) {
      if (rare.length > 0 && spent + x.df > CANDIDATE_BUDGET) break;
      rare.push(x.t);
      spent += x.df;
    }
    const parts = [`(${orQuery(rare)})`];
    if (pool.length > rare.length) parts.push(`(${andQuery(pool.map((x) => x.t))})`);
    match = parts.join(' | ');
  }

  const params: unknown[] = [terms.map((x) => x.t), terms.map((x) => idf(x.df)), match, K1, B, avgdl, limit];
  const where = pgFilter(filter, params);
  const sql = `WITH q(term, idf) AS (SELECT * FROM unnest($1::text[], $2::float8[])),
    cand AS (SELECT d.rid, d.dl, ts_filter(setweight(d.search, 'A', $1::text[]), '{a}') AS v
             FROM drawers d WHERE d.search @@ $3::tsquery AND ${where}),
    scored AS (
      SELECT c.rid,
        sum(q.idf * (t.tf * ($4::float8 + 1)) / (t.tf + $4::float8 * (1 - $5::float8 + $5::float8 * c.dl / $6::float8)))
          AS score
      FROM cand c
      CROSS JOIN LATERAL (SELECT u.lexeme, cardinality(u.positions)::float8 AS tf FROM unnest(c.v) u) t
      JOIN q ON q.term = t.lexeme
      GROUP BY c.rid ORDER BY score DESC, c.rid DESC LIMIT $7)
    SELECT ${HIT_COLS}, s.score AS score FROM scored s JOIN drawers d ON d.rid = s.rid
    ORDER BY s.score DESC, s.rid DESC`;
  const res = await c.query(sql, params);
  return res.rows as LexicalHit[];
}
