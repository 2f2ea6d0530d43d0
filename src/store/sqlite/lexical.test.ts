import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from './driver.js';
import { createSqliteStore } from './drawer-store.js';
import { createLexicalSearcher } from './lexical.js';

test('budgeted BM25 matches exact ranking at the top and still finds drawers with only common terms', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'loci-lex-'));
  try {
    const path = join(dir, 'p.db');
    const db = openDatabase(path);
    const store = createSqliteStore(db, { path });
    const docs = [];
    for (let i = 0; i < 300; i++) {
      const words = ['filler', `w${i}`];
      if (i % 3 === 0) words.push('common');
      if (i % 5 === 0) words.push('frequent');
      if (i === 7 || i === 42) words.push('rare');
      docs.push({ wing: 'w', room: i % 2 ? 'odd' : 'even', text: words.join(' ') });
    }
    docs.push({ wing: 'w', room: 'odd', text: 'common frequent together only' });
    await store.put(docs);
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
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the same words searched again (other filter or limit, after a write) give what a fresh search does', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'loci-lex-'));
  try {
    const path = join(dir, 'p.db');
    const db = openDatabase(path);
    const store = createSqliteStore(db, { path });
    const docs = [];
    for (let i = 0; i < 300; i++) {
      const words = ['filler', `w${i}`];
      if (i % 3 === 0) words.push('common');
      if (i % 5 === 0) words.push('frequent');
      if (i % 7 === 0) words.push('rare');
      docs.push({ wing: i % 4 ? 'other' : 'mine', room: i % 2 ? 'odd' : 'even', text: words.join(' ') });
    }
    await store.put(docs);
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
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
