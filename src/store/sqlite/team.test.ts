/** @module store/sqlite/team.test — the team-store contract on real SQLite (a temp palace file), and a reopen. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { runTeamContract } from '../../testing/team-contract.js';
import { createSqliteTeamStore, openDatabase } from '../index.js';

const dir = mkdtempSync(join(tmpdir(), 'loci-team-'));
const db = openDatabase(join(dir, 'palace.db'));
after(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

runTeamContract({
  name: 'sqlite',
  make: async () => {
    const t = createSqliteTeamStore(db);
    await t.init();
    return t;
  },
});

test('team tables survive a reopen, and init() is idempotent', async () => {
  const path = join(dir, 'reopen.db');
  const a = openDatabase(path);
  const t = createSqliteTeamStore(a);
  await t.init();
  await t.init();
  await t.commitMemory({ project: 'p', file: 'x.md', text: 'x', author: 'u', at: '2026-01-15T12:00:00.000Z' }, 0);
  a.close();
  const b = openDatabase(path);
  const u = createSqliteTeamStore(b);
  await u.init();
  assert.equal((await u.latestMemory('p', 'x.md'))?.text, 'x');
  b.close();
});
