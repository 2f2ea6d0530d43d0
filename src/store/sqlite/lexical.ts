/**
 * @module store/sqlite/lexical
 * BM25 over the whole corpus with a bounded cost.
 *
 * FTS5's `bm25()` costs about a microsecond per matching row, so a query term found in 10 % of a
 * 150K-drawer palace costs ~15 ms on its own. The searcher therefore splits the query by document
 * frequency (read from an `fts5vocab` table):
 * - when all terms together have at most {@link SELECTIVE_BUDGET} postings, FTS5 ranks them all:
 *   exact BM25 (the usual case on small and medium palaces);
 * - otherwise terms in more than half of the drawers are dropped (FTS5 clamps their idf to ~0, so
 *   they only break ties);
 * - the rarest terms, up to {@link SELECTIVE_BUDGET} postings in total, are ranked exactly by
 *   FTS5 (every drawer that contains any of them is scored);
 * - the remaining common terms (each in at most {@link COMMON_MAX_SHARE} of the drawers, and up
 *   to {@link COMMON_BUDGET} postings together) add their idf to every drawer that contains them,
 *   read as plain row ids (about 0.2 µs per row). Their term frequency and the length
 *   normalisation are not applied — an approximation documented in ARCHITECTURE.md — and
 *   commoner terms beyond the budgets are ignored.
 * On small palaces every term fits the first budget and the ranking is exact FTS5 BM25.
 */
import type Database from 'better-sqlite3';
import type { DrawerFilter, LexicalHit } from '../ports.js';
import { isEmptyFilter, matchExpression, sqlFilter } from '../shared.js';

/** Postings ranked exactly by FTS5 per query (~5 ms at 1 µs per row). */
export const SELECTIVE_BUDGET = 6000;
/** Postings read as row ids for the common terms (~8 ms at 0.2 µs per row). */
export const COMMON_BUDGET = 40_000;
/** Common terms found in more than this share of drawers are ignored. */
export const COMMON_MAX_SHARE = 0.25;

const HIT_COLS =
  'd.id AS id, d.wing AS wing, d.room AS room, d.hall AS hall, d.source AS source, d.chunk_index AS chunkIndex, d.content_date AS contentDate';

/** Budgets of {@link createLexicalSearcher} (tests shrink them). */
export interface LexicalBudgets {
  selective: number;
  common: number;
  commonMaxShare: number;
}

/** Creates the searcher for one open palace database. */
export function createLexicalSearcher(
  db: Database.Database,
  budgets: LexicalBudgets = { selective: SELECTIVE_BUDGET, common: COMMON_BUDGET, commonMaxShare: COMMON_MAX_SHARE },
) {
  db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.drawers_fts_vocab USING fts5vocab(main, 'drawers_fts', 'row')");
  const dfStmt = db.prepare('SELECT doc FROM temp.drawers_fts_vocab WHERE term = ?').pluck();
  const countStmt = db.prepare('SELECT count(*) FROM drawers_fts_docsize').pluck();
  const rowidsStmt = db.prepare('SELECT rowid FROM drawers_fts WHERE drawers_fts MATCH ?').pluck();

  return function search(tokens: readonly string[], filter: DrawerFilter | undefined, limit: number): LexicalHit[] {
    const N = countStmt.get() as number;
    if (N === 0) return [];
    const terms = [...new Set(tokens)]
      .map((t) => ({ t, df: (dfStmt.get(t) as number | undefined) ?? 0 }))
      .filter((x) => x.df > 0)
      .sort((a, b) => a.df - b.df);
    if (terms.length === 0) return [];
    const total = terms.reduce((a, x) => a + x.df, 0);
    let useful = total <= budgets.selective ? terms : terms.filter((x) => x.df <= N / 2);
    if (useful.length === 0) useful = terms; // only very common words: rank by them anyway
    const selective: string[] = [];
    let spent = 0;
    let i = 0;
    for (; i < useful.length; i++) {
      if (selective.length > 0 && spent + useful[i]!.df > budgets.selective) break;
      selective.push(useful[i]!.t);
      spent += useful[i]!.df;
    }
    const common: { t: string; idf: number }[] = [];
    let commonSpent = 0;
    for (; i < useful.length; i++) {
      const { t, df } = useful[i]!;
      if (df > budgets.commonMaxShare * N || commonSpent + df > budgets.common) break;
      common.push({ t, idf: Math.max(1e-6, Math.log((N - df + 0.5) / (df + 0.5))) });
      commonSpent += df;
    }

    const q = matchExpression(selective);
    const { sql, params } = sqlFilter(filter);
    if (common.length === 0) {
      return (
        isEmptyFilter(filter)
          ? db.prepare(
              `WITH top AS (SELECT rowid AS rid, rank FROM drawers_fts WHERE drawers_fts MATCH @q ORDER BY rank LIMIT @limit)
               SELECT ${HIT_COLS}, -top.rank AS score FROM top JOIN drawers d ON d.rid = top.rid ORDER BY top.rank`,
            )
          : db.prepare(
              `SELECT ${HIT_COLS}, -f.rank AS score FROM drawers_fts f JOIN drawers d ON d.rid = f.rowid
               WHERE drawers_fts MATCH @q AND ${sql} ORDER BY f.rank LIMIT @limit`,
            )
      ).all({ ...params, q, limit }) as LexicalHit[];
    }

    // Exact scores for every drawer holding a selective term, plus the idf of common terms.
    const scores = new Map<number, number>();
    for (const r of db.prepare('SELECT rowid AS rid, -rank AS s FROM drawers_fts WHERE drawers_fts MATCH ?').raw().iterate(q) as IterableIterator<
      [number, number]
    >) {
      scores.set(r[0], r[1]);
    }
    for (const c of common) {
      for (const rid of rowidsStmt.iterate(`"${c.t.replace(/"/g, '""')}"`) as IterableIterator<number>) {
        scores.set(rid, (scores.get(rid) ?? 0) + c.idf);
      }
    }
    const ranked = [...scores].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    // Hydrate the best candidates, applying the filter in SQL, until `limit` hits are found.
    const out: LexicalHit[] = [];
    const pageSize = Math.max(limit * 4, 200);
    for (let off = 0; off < ranked.length && out.length < limit; off += pageSize) {
      const page = ranked.slice(off, off + pageSize);
      const score = new Map(page);
      const rows = db
        .prepare(`SELECT d.rid AS rid, ${HIT_COLS} FROM drawers d WHERE d.rid IN (${page.map((p) => p[0]).join(',')}) AND ${sql}`)
        .all(params) as (LexicalHit & { rid: number })[];
      rows.sort((a, b) => score.get(b.rid)! - score.get(a.rid)! || a.rid - b.rid);
      for (const { rid, ...hit } of rows) {
        if (out.length >= limit) break;
        out.push({ ...hit, score: score.get(rid)! });
      }
    }
    return out;
  };
}
