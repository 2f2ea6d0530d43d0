/**
 * @module store/sqlite/lexical
 * BM25 over the whole corpus with a bounded cost.
 *
 * FTS5's `bm25()` costs about a microsecond per matching row (it looks up every row's length), so
 * a query term found in 5 % of a 150K-drawer palace costs ~10 ms on its own, while reading the
 * same rows as bare row ids costs ~0.2 µs each and an `AND` of terms only touches their
 * intersection. The searcher therefore plans by document frequency (from an `fts5vocab` table):
 *
 * 1. **Small postings** — all terms together have at most {@link SELECTIVE_BUDGET} postings: FTS5
 *    ranks them all. Exact BM25 (the usual case on small and medium palaces).
 * 2. **Large postings** — otherwise terms in more than half of the drawers are dropped (FTS5 clamps
 *    their idf to ~0, so they only break ties), then:
 *    - drawers containing **every** remaining term are ranked exactly (an FTS5 `AND` query);
 *    - the rarest terms, up to {@link SELECTIVE_BUDGET} postings, are ranked exactly over every
 *      drawer containing any of them;
 *    - the other terms (each in at most {@link COMMON_MAX_SHARE} of the drawers, up to
 *      {@link COMMON_BUDGET} postings together) add their idf to every drawer containing them,
 *      read as row ids — without term frequency or length normalisation;
 *    - a drawer's score is its exact all-terms score when it has one, else the sum of the other
 *      two parts. Terms beyond the budgets only count through the `AND` part.
 *    A common term found in no more drawers than the `AND` query returned is in those drawers alone
 *    (each has every term): its row ids are theirs, and are not read again.
 *    A query whose only useful term is common is ranked by that term's presence, newest first.
 * The approximation and its limits are documented in ARCHITECTURE.md ("Search").
 *
 * The scores of the last query's terms are kept while the database is unchanged (no commit by this
 * connection or another: `total_changes()`, `PRAGMA data_version`) when they have large postings,
 * so searching the same words again with another filter or limit — recall asks for the project's
 * wings, then for all — only hydrates: the results are those of a fresh search.
 */
import type Database from 'better-sqlite3';
import type { DrawerFilter, LexicalHit } from '../ports.js';
import { isEmptyFilter, matchExpression, sqlFilter } from '../shared.js';
import { lazyStatements } from './statements.js';

/** Postings scored exactly by FTS5 per query (~5 ms at ~1 µs per row). */
const SELECTIVE_BUDGET = 5000;
/** Postings read as row ids for the common terms (~3.5 ms at ~0.12 µs per row). */
const COMMON_BUDGET = 30_000;
/** Common terms found in more than this share of drawers are not enumerated. */
const COMMON_MAX_SHARE = 0.25;

const HIT_COLS =
  'd.id AS id, d.wing AS wing, d.room AS room, d.hall AS hall, d.source AS source, d.chunk_index AS chunkIndex, ' +
  'd.content_date AS contentDate';

/** Budgets of {@link createLexicalSearcher} (tests shrink them). */
interface LexicalBudgets {
  selective: number;
  common: number;
  commonMaxShare: number;
}

const quote = (t: string) => `"${t.replace(/"/g, '""')}"`;

/**
 * The numbers of a list SQLite built with `group_concat` ("12,15,99"; "12,3.5,15,1.25" for row ids
 * and scores), read by the JSON parser: native code, where a loop over the characters would run in
 * the interpreter of a one-shot process (`loci search`, a hook). A decimal is read to the same double
 * as `Number()` reads it.
 */
function numbers(s: string | null): number[] {
  return s ? (JSON.parse(`[${s}]`) as number[]) : [];
}

/** Dense score accumulator over row ids (no hashing), with top-k selection. */
class Accumulator {
  private readonly s: Float64Array;
  private readonly touched: number[] = [];
  constructor(maxRid: number) {
    this.s = new Float64Array((maxRid ?? 0) + 1);
  }
  add(rid: number, w: number): void {
    if (rid >= this.s.length) return;
    if (this.s[rid] === 0) this.touched.push(rid);
    this.s[rid]! += w;
  }
  addAll(rids: readonly number[], w: number): void {
    for (const r of rids) this.add(r, w);
  }
  /** Adds each score of a flat list of row ids and scores (see `scored`). */
  addPairs(pairs: readonly number[]): void {
    for (let i = 0; i < pairs.length; i += 2) this.add(pairs[i]!, pairs[i + 1]!);
  }
  get size(): number {
    return this.touched.length;
  }
  /** Sets the score to max(current, w). */
  raise(rid: number, w: number): void {
    if (rid >= this.s.length) return;
    if (this.s[rid] === 0) this.touched.push(rid);
    if (w > this.s[rid]!) this.s[rid] = w;
  }
  /** The best `k` (rid, score) pairs, best first; ties: newer (larger rid) first. */
  top(k: number): [number, number][] {
    const s = this.s;
    const t = this.touched;
    if (t.length > k * 4) {
      // Find the k-th best score on a typed copy (native sort), then keep what reaches it.
      const scores = new Float64Array(t.length);
      for (let i = 0; i < t.length; i++) scores[i] = s[t[i]!]!;
      scores.sort();
      const cut = scores[scores.length - k]!;
      const out: [number, number][] = [];
      for (const r of t) if (s[r]! >= cut) out.push([r, s[r]!]);
      return out.sort((a, b) => b[1] - a[1] || b[0] - a[0]).slice(0, k);
    }
    return t
      .map((r): [number, number] => [r, s[r]!])
      .sort((a, b) => b[1] - a[1] || b[0] - a[0])
      .slice(0, k);
  }
}

/** Creates the searcher for one open palace database. */
export function createLexicalSearcher(
  db: Database.Database,
  budgets: LexicalBudgets = { selective: SELECTIVE_BUDGET, common: COMMON_BUDGET, commonMaxShare: COMMON_MAX_SHARE },
) {
  // Prepared on the first search (a process that opens a palace to write never builds them), and the
  // vocabulary table of document frequencies with them (a virtual table in the connection's temp schema).
  const s = lazyStatements(
    db,
    {
      df: 'SELECT doc FROM temp.drawers_fts_vocab WHERE term = ?',
      count: 'SELECT count(*) FROM drawers_fts_docsize',
      // Row ids and scores come back as one string built in C (group_concat): marshalling rows one by
      // one into JavaScript costs three times more than FTS5's own work.
      rowids: 'SELECT group_concat(rowid) FROM drawers_fts WHERE drawers_fts MATCH ?',
      scored: "SELECT group_concat(rowid || ',' || (-rank)) FROM drawers_fts WHERE drawers_fts MATCH ?",
      maxRid: 'SELECT max(rid) FROM drawers',
      changes: 'SELECT total_changes()',
      dataVersion: 'PRAGMA data_version',
      byRids: `SELECT d.rid AS rid, ${HIT_COLS} FROM drawers d WHERE d.rid IN (SELECT value FROM json_each(?))`,
    },
    ['df', 'count', 'rowids', 'scored', 'maxRid', 'changes', 'dataVersion'],
  );
  let vocab = false;
  const df = (term: string): number => {
    if (!vocab) {
      db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.drawers_fts_vocab USING fts5vocab(main, 'drawers_fts', 'row')");
      vocab = true;
    }
    return (s.df.get(term) as number | undefined) ?? 0;
  };
  const rowids = (term: string): number[] => numbers(s.rowids.get(quote(term)) as string | null);
  /** Row ids and their scores, flat: rid, score, rid, score… */
  const scored = (match: string): number[] => numbers(s.scored.get(match) as string | null);
  const maxRid = () => s.maxRid.get() as number;
  /** The scored row ids of the last query's terms, and the database state they were read in. */
  let last: { key: string; state: string; acc: Accumulator; fallback: string[] } | undefined;

  function exactRanked(q: string, filter: DrawerFilter | undefined, limit: number): LexicalHit[] {
    if (isEmptyFilter(filter)) {
      return db
        .prepare(
          `WITH top AS (SELECT rowid AS rid, rank FROM drawers_fts WHERE drawers_fts MATCH @q
             ORDER BY rank LIMIT @limit)
           SELECT ${HIT_COLS}, -top.rank AS score FROM top JOIN drawers d ON d.rid = top.rid ORDER BY top.rank`,
        )
        .all({ q, limit }) as LexicalHit[];
    }
    const { sql, params } = sqlFilter(filter);
    return db
      .prepare(
        `SELECT ${HIT_COLS}, -f.rank AS score FROM drawers_fts f JOIN drawers d ON d.rid = f.rowid
         WHERE drawers_fts MATCH @q AND ${sql} ORDER BY f.rank LIMIT @limit`,
      )
      .all({ ...params, q, limit }) as LexicalHit[];
  }

  /** Hydrates scored row ids best first, applying the filter in SQL, until `limit` hits. */
  function hydrate(
    acc: Accumulator,
    filter: DrawerFilter | undefined,
    limit: number,
    fallback: readonly string[],
  ): LexicalHit[] {
    const { sql, params } = sqlFilter(filter);
    // Without a filter the best `limit` suffice; with one, take more, and when the filter is so
    // narrow that they do not hold `limit` hits, rank the filtered drawers exactly instead.
    const ranked = acc.top(isEmptyFilter(filter) ? limit : Math.max(limit * 20, 2000));
    const out: LexicalHit[] = [];
    const pageSize = Math.max(limit * 4, 200);
    for (let off = 0; off < ranked.length && out.length < limit; off += pageSize) {
      const page = ranked.slice(off, off + pageSize);
      const score = new Map(page);
      const rows = (
        isEmptyFilter(filter)
          ? s.byRids.all(JSON.stringify(page.map((p) => p[0])))
          : db
              .prepare(
                `SELECT d.rid AS rid, ${HIT_COLS} FROM drawers d WHERE d.rid IN (SELECT value FROM ` +
                  `json_each(@rids)) AND ${sql}`,
              )
              .all({ ...params, rids: JSON.stringify(page.map((p) => p[0])) })
      ) as (LexicalHit & { rid: number })[];
      rows.sort((a, b) => score.get(b.rid)! - score.get(a.rid)! || b.rid - a.rid);
      for (const { rid, ...hit } of rows) {
        if (out.length >= limit) break;
        out.push({ ...hit, score: score.get(rid)! });
      }
    }
    if (out.length < limit && !isEmptyFilter(filter) && acc.size > ranked.length)
      return exactRanked(matchExpression(fallback), filter, limit);
    return out;
  }

  return function search(tokens: readonly string[], filter: DrawerFilter | undefined, limit: number): LexicalHit[] {
    const key = JSON.stringify([...new Set(tokens)]);
    const state = `${s.dataVersion.get() as number}:${s.changes.get() as number}`;
    if (last && last.key === key && last.state === state) return hydrate(last.acc, filter, limit, last.fallback);
    const ranked = rank(tokens, filter, limit);
    if ('hits' in ranked) return ranked.hits;
    // Small postings are ranked exactly per filter (cheap): only the large-postings scores are kept.
    last = ranked.small ? undefined : { key, state, acc: ranked.acc, fallback: ranked.fallback };
    return hydrate(ranked.acc, filter, limit, ranked.fallback);
  };

  /**
   * The scores of `tokens` over every drawer, to hydrate (the same for any filter and limit), or
   * the hits themselves when a filtered query is ranked exactly in SQL.
   */
  function rank(
    tokens: readonly string[],
    filter: DrawerFilter | undefined,
    limit: number,
  ): { hits: LexicalHit[] } | { acc: Accumulator; fallback: string[]; small?: true } {
    const none = { hits: [] };
    const N = s.count.get() as number;
    if (N === 0) return none;
    const terms = [...new Set(tokens)]
      .map((t) => ({ t, df: df(t) }))
      .filter((x) => x.df > 0)
      .sort((a, b) => a.df - b.df);
    if (terms.length === 0) return none;
    const total = terms.reduce((a, x) => a + x.df, 0);
    if (total <= budgets.selective) {
      if (!isEmptyFilter(filter)) return { hits: exactRanked(matchExpression(terms.map((x) => x.t)), filter, limit) };
      const acc = new Accumulator(maxRid());
      acc.addPairs(scored(matchExpression(terms.map((x) => x.t))));
      return { acc, fallback: [], small: true };
    }

    const useful = terms.filter((x) => x.df <= N / 2);
    const idf = (df: number) => Math.max(1e-6, Math.log((N - df + 0.5) / (df + 0.5)));
    if (useful.length === 0) {
      // Only words found in most drawers: presence of the rarest, newest first.
      const rare = terms[0]!;
      const acc = new Accumulator(maxRid());
      acc.addAll(rowids(rare.t), idf(rare.df));
      return { acc, fallback: [rare.t] };
    }

    const exact = useful.length >= 2 ? scored(useful.map((x) => quote(x.t)).join(' AND ')) : [];
    // Drawers with every useful term. A term in no more drawers than these is in these alone (each of
    // them has it): its row ids are theirs, so they are not read again (words always said together).
    const everyTerm = useful.length >= 2 ? exact.length / 2 : -1;
    const addTerm = (t: string, df: number) => {
      const w = idf(df);
      if (df === everyTerm) for (let j = 0; j < exact.length; j += 2) partial.add(exact[j]!, w);
      else partial.addAll(rowids(t), w);
    };
    const partial = new Accumulator(maxRid());
    const selective: string[] = [];
    let spent = 0;
    let i = 0;
    for (; i < useful.length && spent + useful[i]!.df <= budgets.selective; i++) {
      selective.push(useful[i]!.t);
      spent += useful[i]!.df;
    }
    if (selective.length) partial.addPairs(scored(matchExpression(selective)));
    let commonSpent = 0;
    for (; i < useful.length; i++) {
      const { t, df } = useful[i]!;
      if (df > budgets.commonMaxShare * N || commonSpent + df > budgets.common) {
        if (selective.length === 0 && commonSpent === 0) {
          // A single common useful term: presence, newest first (an exact scan would cost df µs).
          addTerm(t, df);
        }
        break;
      }
      addTerm(t, df);
      commonSpent += df;
    }
    for (let j = 0; j < exact.length; j += 2) partial.raise(exact[j]!, exact[j + 1]!);
    return { acc: partial, fallback: useful.map((x) => x.t) };
  }
}
