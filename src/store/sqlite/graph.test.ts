/**
 * @module store/sqlite/graph.test — the graph and tunnel contracts on real SQLite (a temp palace file), migration and
 * reopen.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createSqliteGraphStore } from '../../kg/index.js';
import { runGraphContract } from '../../testing/graph-contract.js';
import { runTunnelContract } from '../../testing/tunnel-contract.js';
import { createSqliteTunnelStore, openDatabase } from '../index.js';

const dir = mkdtempSync(join(tmpdir(), 'loci-kg-'));
const db = openDatabase(join(dir, 'palace.db'));
after(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

runGraphContract({
  name: 'sqlite',
  make: async () => {
    const g = createSqliteGraphStore(db);
    await g.init();
    return g;
  },
});
runTunnelContract({
  name: 'sqlite',
  make: async () => {
    const t = createSqliteTunnelStore(db);
    await t.init();
    return t;
  },
});

test('the graph lives in the palace file (migration 2) and survives a reopen', async () => {
  const path = join(dir, 'reopen.db');
  const a = openDatabase(path);
  assert.ok((a.pragma('user_version', { simple: true }) as number) >= 2);
  const g = createSqliteGraphStore(a, { ownsDatabase: true });
  await g.init();
  await g.addFact({
    subject: 'Maya',
    predicate: 'assigned_to',
    object: 'auth-migration',
    validFrom: '2026-01-15',
    sources: ['d1'],
  });
  await g.close();
  assert.equal(a.open, false);
  const b = openDatabase(path);
  const h = createSqliteGraphStore(b);
  const [f] = await h.query('maya', { asOf: '2026-02-01' });
  assert.deepEqual([f?.object, f?.sources], ['auth_migration', ['d1']]);
  b.close();
});

test('init creates the tables on a database opened without the migration runner', async () => {
  const path = join(dir, 'bare.db');
  const { default: Database } = await import('better-sqlite3');
  const bare = new Database(path);
  const g = createSqliteGraphStore(bare, { ownsDatabase: true });
  await g.init();
  await g.init();
  await g.addFact({ subject: 'a', predicate: 'p', object: 'b' });
  assert.equal((await g.stats()).facts, 1);
  await g.close();
});
