import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from './driver.js';
import { createSqliteStore } from './drawer-store.js';
import { createLexicalSearcher } from './lexical.js';

/** Runs `fn` on a fresh palace database holding `docs`, removed afterwards. */
async function withDb(
  docs: { wing: string; room: string; text: string }[],
  fn: (db: ReturnType<typeof openDatabase>, store: ReturnType<typeof createSqliteStore>, path: string) => Promise<void>,
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'loci-lex-'));
  try {
    const path = join(dir, 'p.db');
    const db = openDatabase(path);
    const store = createSqliteStore(db, { path });
    await store.put(docs);
    await fn(db, store, path);
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** 300 drawers: `filler`, `w<i>`, and `common` / `frequent` / `rare` in every 3rd / 5th / `rareEvery`-th. */
function corpus(rareEvery: (i: number) => boolean, wing: (i: number) => string = () => 'w') {
  const docs = [];
  for (let i = 0; i < 300; i++) {
    const words = ['filler', `w${i}`];
    if (i % 3 === 0) words.push('common');
    if (i % 5 === 0) words.push('frequent');
    if (rareEvery(i)) words.push('rare');
    docs.push({ wing: wing(i), room: i % 2 ? 'odd' : 'even', text: words.join(' ') });
  }
  return docs;
}

test('budgeted BM25 matches exact ranking at the top and still finds drawers with only common terms', async () => {
  const docs = corpus((i) => i === 7 || i === 42);
  docs.push({ wing: 'w', room: 'odd', text: 'common frequent together only' });
  await withDb(docs, async (db) => {
    const exact = createLexicalSearcher(db);
    const tight = createLexicalSearcher(db, { selective: 5, common: 1000, commonMaxShare: 0.5 });
    const q = ['rare', 'common', 'frequent'];
    const a = exact(q, undefined, 5).map((h) => h.id);
    const b = tight(q, undefined, 5).map((h) => h.id);
    assert.deepEqual(b.slice(0, 2).sort(), a.slice(0, 2).sort(), 'drawers with the rare term lead in both');
    const onlyCommon = tight(['common', 'frequent'], undefined, 300);
    assert.ok(onlyCommon.length > 100, 'drawers with only common terms are found');
    const filtered = tight(q, { room: 'odd' }, 5);
    assert.ok(filtered.length > 0 && filtered.every((h) => h.room === 'odd'));
  });
});

test('the same words searched again (other filter or limit, after a write) give what a fresh search does', async () => {
  const docs = corpus(
    (i) => i % 7 === 0,
    (i) => (i % 4 ? 'other' : 'mine'),
  );
  await withDb(docs, async (db, store, path) => {
    const budgets = { selective: 5, common: 1000, commonMaxShare: 0.5 };
    const kept = createLexicalSearcher(db, budgets);
    const fresh = (...a: Parameters<typeof kept>) => createLexicalSearcher(db, budgets)(...a);
    const q = ['rare', 'common', 'frequent'];
    const calls: Parameters<typeof kept>[] = [
      [q, { wing: ['mine'] }, 5],
      [q, undefined, 10],
      [q, { room: 'odd' }, 3],
      [q, undefined, 300],
    ];
    for (const c of calls) assert.deepEqual(kept(...c), fresh(...c));
    // A write by this connection, then by another: the kept scores are not used.
    await store.put([{ wing: 'mine', room: 'odd', text: 'rare common frequent rare common frequent' }]);
    for (const c of calls) assert.deepEqual(kept(...c), fresh(...c));
    const other = openDatabase(path);
    const otherStore = createSqliteStore(other, { path });
    await otherStore.put([{ wing: 'mine', room: 'even', text: 'rare rare rare common frequent frequent' }]);
    await otherStore.close();
    for (const c of calls) assert.deepEqual(kept(...c), fresh(...c));
    assert.equal(kept(q, { wing: ['mine'] }, 1)[0]?.room, 'even', 'the other connection’s drawer leads');
  });
});

/**
 * The planner as first written (before issue 12's start-up work): scores read by splitting the strings
 * SQLite builds, every common term's row ids read and added one by one. The searcher must give exactly
 * its hits and scores.
 */
function referenceSearcher(db: ReturnType<typeof openDatabase>, b: Parameters<typeof createLexicalSearcher>[1]) {
  const budgets = b!;
  db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.drawers_fts_vocab USING fts5vocab(main, 'drawers_fts', 'row')");
  const one = (sql: string, ...p: unknown[]) =>
    db
      .prepare(sql)
      .pluck()
      .get(...p);
  const quote = (t: string) => `"${t.replace(/"/g, '""')}"`;
  const ids = (m: string) =>
    String(one('SELECT group_concat(rowid) FROM drawers_fts WHERE drawers_fts MATCH ?', m) ?? '')
      .split(',')
      .filter(Boolean)
      .map(Number);
  const pairs = (m: string) =>
    String(one("SELECT group_concat(rowid || ':' || (-rank)) FROM drawers_fts WHERE drawers_fts MATCH ?", m) ?? '')
      .split(',')
      .filter(Boolean)
      .map((p) => p.split(':').map(Number) as [number, number]);
  return (tokens: string[], limit: number) => {
    const N = one('SELECT count(*) FROM drawers_fts_docsize') as number;
    const max = one('SELECT max(rid) FROM drawers') as number;
    const score = new Map<number, number>();
    const add = (rid: number, w: number) => rid <= max && score.set(rid, (score.get(rid) ?? 0) + w);
    const terms = [...new Set(tokens)]
      .map((t) => ({ t, df: (one('SELECT doc FROM temp.drawers_fts_vocab WHERE term = ?', t) as number) ?? 0 }))
      .filter((x) => x.df > 0)
      .sort((x, y) => x.df - y.df);
    if (terms.length === 0) return [];
    const idf = (df: number) => Math.max(1e-6, Math.log((N - df + 0.5) / (df + 0.5)));
    const or = (ts: string[]) => ts.map(quote).join(' OR ');
    if (terms.reduce((a, x) => a + x.df, 0) <= budgets.selective) {
      for (const [r, s] of pairs(or(terms.map((x) => x.t)))) add(r, s);
    } else {
      const useful = terms.filter((x) => x.df <= N / 2);
      if (useful.length === 0) for (const r of ids(quote(terms[0]!.t))) add(r, idf(terms[0]!.df));
      const exact = useful.length >= 2 ? pairs(useful.map((x) => quote(x.t)).join(' AND ')) : [];
      let i = 0;
      for (let spent = 0; i < useful.length && spent + useful[i]!.df <= budgets.selective; i++) spent += useful[i]!.df;
      if (i > 0) for (const [r, s] of pairs(or(useful.slice(0, i).map((x) => x.t)))) add(r, s);
      for (let common = 0; i < useful.length; i++) {
        const { t, df } = useful[i]!;
        if (df > budgets.commonMaxShare * N || common + df > budgets.common) {
          if (i === 0) for (const r of ids(quote(t))) add(r, idf(df));
          break;
        }
        for (const r of ids(quote(t))) add(r, idf(df));
        common += df;
      }
      for (const [r, s] of exact) if (r <= max && s > (score.get(r) ?? 0)) score.set(r, s);
    }
    return [...score]
      .sort((x, y) => y[1] - x[1] || y[0] - x[0])
      .slice(0, limit)
      .map(([rid, s]) => [one('SELECT id FROM drawers WHERE rid = ?', rid), s]);
  };
}

test('property: the searcher gives exactly the hits and scores of the planner as first written', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'loci-lex-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'reference.db');
  const db = openDatabase(path);
  const store = createSqliteStore(db, { path });
  // Words of every document frequency; 'rate limit redis' only ever together (a phrase), 'window' with them and alone.
  const words = ['alpha', 'beta', 'gamma', 'delta', 'the', 'and', 'rare'];
  const docs = [];
  for (let i = 0; i < 400; i++) {
    const w = ['filler', `w${i % 97}`];
    for (let j = 0; j < words.length; j++) if ((i * (j + 3)) % (j + 2) === 0 || (i + j) % 11 === 0) w.push(words[j]!);
    if (i % 6 === 0) w.push('rate limit redis window', i % 4 ? 'rate limit' : 'redis');
    if (i % 200 === 1) w.push('window');
    if (i % 3 === 0) w.push('the and', 'the');
    docs.push({ wing: 'w', room: 'r', text: w.join(' ') });
  }
  await store.put(docs);
  await store.delete([(await store.list(undefined, { limit: 1 })).drawers[0]!.id]);
  const tokens = fc.uniqueArray(
    fc.constantFrom(...words, 'rate', 'limit', 'redi', 'window', 'filler', 'w5', 'absent'),
    { minLength: 1, maxLength: 6 },
  );
  const budgets = fc.record({
    selective: fc.constantFrom(5, 50, 150, 400, 5000),
    common: fc.constantFrom(10, 200, 1000, 30_000),
    commonMaxShare: fc.constantFrom(0.1, 0.25, 0.5),
  });
  fc.assert(
    fc.property(tokens, budgets, fc.constantFrom(1, 10, 100), (q, b, limit) => {
      const got = createLexicalSearcher(db, b)(q, undefined, limit).map((h) => [h.id, h.score]);
      assert.deepEqual(got, referenceSearcher(db, b)(q, limit));
    }),
    { numRuns: 300 },
  );
  await store.close();
});
