/**
 * @module store/sqlite/drawer-store.test
 * The storage contract on SQLite, and the query plans that keep room sizes and room listings fast at scale.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { runStoreContract } from '../../testing/store-contract.js';
import { openDatabase } from './driver.js';
import { createSqliteStore } from './drawer-store.js';
import { latestVersion } from './migrations.js';
import { listStamps, STAMP_SQL, type RawQuery } from './source-rows.js';
import { lazyStatements } from './statements.js';
import type { SourceStamp } from '../ports.js';

const dir = mkdtempSync(join(tmpdir(), 'loci-store-'));
after(() => rmSync(dir, { recursive: true, force: true }));

runStoreContract({
  name: 'sqlite',
  make: async () => {
    const path = join(dir, 'palace.db');
    return createSqliteStore(openDatabase(path), { path });
  },
});

/** The SQL of every statement `db` prepares from now on. */
function recordPrepares(db: ReturnType<typeof openDatabase>): string[] {
  const seen: string[] = [];
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => (seen.push(sql), prepare(sql))) as typeof db.prepare;
  return seen;
}

test('room sizes are read from the covering index; listings of a room keep the (wing, room) index', async () => {
  const path = join(dir, 'plans.db');
  const db = openDatabase(path);
  const seen = recordPrepares(db);
  const store = createSqliteStore(db, { path });
  await store.put([{ wing: 'w', room: 'r', text: 'héllo' }]);
  assert.deepEqual(await store.roomSizes(), [{ wing: 'w', room: 'r', count: 1, bytes: 6 }]);
  await store.list({ wing: 'w', room: 'r' }, { limit: 50 });
  const plan = (sql: string, params: Record<string, unknown>) =>
    (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[]).map((r) => r.detail).join(' | ');
  const sizes = seen.find((s) => /GROUP BY wing, room/.test(s) && /AS bytes/.test(s))!;
  assert.match(plan(sizes, {}), /USING COVERING INDEX drawers_room_bytes\b/);
  const list = seen.find((s) => /^SELECT d\.\* FROM drawers d WHERE .*ORDER BY d\.rid DESC/.test(s))!;
  assert.equal(
    plan(list, { fw0: 'w', fr0: 'r', limit: 50, offset: 0 }),
    'SEARCH d USING INDEX drawers_wing_room (wing=? AND room=?)',
  );
  await store.close();
});

test('a palace of schema 4 gets the room sizes index when it next opens', async () => {
  const path = join(dir, 'v4.db');
  const old = openDatabase(path);
  await createSqliteStore(old, { path }).put([{ wing: 'w', room: 'r', text: 'naïve' }]);
  old.exec('DROP INDEX drawers_room_bytes');
  old.pragma('user_version = 4');
  old.close();
  const db = openDatabase(path);
  assert.equal(db.pragma('user_version', { simple: true }), latestVersion());
  assert.ok(db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'drawers_room_bytes'").get());
  assert.deepEqual(await createSqliteStore(db, { path }).roomSizes(), [{ wing: 'w', room: 'r', count: 1, bytes: 6 }]);
  db.close();
});

test('opening prepares no statement and builds no vocabulary table; a search prepares what it runs', async () => {
  const path = join(dir, 'lazy.db');
  const db = openDatabase(path);
  const seen = recordPrepares(db);
  const vocab = () =>
    db.prepare("SELECT count(*) FROM temp.sqlite_schema WHERE name = 'drawers_fts_vocab'").pluck().get();
  const store = createSqliteStore(db, { path });
  assert.equal(seen.length, 0, 'nothing prepared at open');
  assert.equal(vocab(), 0, 'no vocabulary table at open');
  await store.put([{ wing: 'w', room: 'r', text: 'redis limiter window' }]);
  assert.ok(!seen.some((s) => s.includes('MATCH')), 'writing prepares no search statement');
  assert.equal((await store.searchLexical(['redi'], undefined, 5)).length, 1);
  assert.equal(vocab(), 1, 'the first search builds the vocabulary table');
  const n = seen.length;
  await store.searchLexical(['window'], undefined, 5);
  assert.equal(seen.length, n, 'a second search prepares nothing new');
  await store.close();
});

test('source stamps are listed in chunks that continue after the last path of the one before', async () => {
  const path = join(dir, 'stamps.db');
  const db = openDatabase(path);
  const store = createSqliteStore(db, { path });
  const state = (source: string, i: number) => ({
    source,
    wing: i === 4 ? 'other' : 'w',
    kind: 'project',
    root: '/t',
    size: i,
    mtimeMs: 1700000000000 + i / 3,
    hash: 'h',
    offset: 0,
    prefixHash: null,
    config: 'c',
    state: {},
    minedAt: '2026-01-01T00:00:00.000Z',
  });
  const names = ['/t', '/t/a', '/t/a b', '/t/a/b', '/t/a/b/c', '/t/é', '/t/z', '/t\\w', '/t0', '/t-'];
  for (const [i, n] of names.entries()) await store.replaceSource(state(n, i), []);
  const s = lazyStatements(db, STAMP_SQL);
  const q: RawQuery = {
    get: (k, p) => s[k].raw().get(...p) as unknown[],
    all: (k, p) => s[k].raw().all(...p) as unknown[][],
  };
  const sorted = (l: SourceStamp[]) => [...l].sort((a, b) => (a.source < b.source ? -1 : 1));
  const all = sorted(await store.listSourceStamps('/t'));
  assert.deepEqual(
    all.map((x) => x.source),
    names.slice(0, 8).sort(),
  );
  for (const chunk of [1, 2, 3, 100]) assert.deepEqual(sorted(listStamps(q, '/t', chunk)), all, `chunks of ${chunk}`);
  // One range of the primary key, not the `sources_kind` index and a table seek per row.
  const plan = db.prepare(`EXPLAIN QUERY PLAN ${STAMP_SQL.stampChunk}`).all('/t/', '/t0', 'w', 'project', 'c', 5);
  assert.ok(
    (plan as { detail: string }[]).some((r) => /USING PRIMARY KEY \(source>\? AND source<\?\)/.test(r.detail)),
    JSON.stringify(plan),
  );
  assert.deepEqual(
    all.find((x) => x.source === '/t/a/b/c'),
    { source: '/t/a/b/c', wing: 'other', kind: 'project', size: 4, mtimeMs: 1700000000000 + 4 / 3, config: 'c' },
  );
  db.close();
});
