import { test } from 'node:test';
import assert from 'node:assert/strict';
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
