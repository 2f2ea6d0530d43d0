/**
 * @module test/integration/team-postgres
 * The team server's operations over a PostgreSQL palace: tokens created, authenticated and kept
 * across a reopen, a guarded write audited (see `test/helpers/postgres.ts` for the server; without
 * one the test skips with the reason, except in CI).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pgServer, withFreshSchema } from '../helpers/postgres.js';
import { openPalace } from '../../src/internal.js';
import { openTeam } from '../../src/team/index.js';

const server = await pgServer();

test('team store on PostgreSQL: tokens survive a reopen, writes are audited', { skip: server.skip }, async () => {
  const url = withFreshSchema(server.url!);
  const home = mkdtempSync(join(tmpdir(), 'loci-team-pg-'));
  try {
    const p = await openPalace({ databaseUrl: url, home, embedder: null });
    const team = await openTeam(p);
    const { token } = await team.createToken({ user: 'al', grants: [{ wing: 'w', right: 'write' }] });
    const who = await team.authenticate(`Bearer ${token}`);
    assert.equal(who?.user, 'al');
    const r = await team.guard(who!).addDrawer({ wing: 'w', room: 'r', text: 'hello from the team on postgres' });
    assert.deepEqual(
      (await team.auditLog()).map((e) => [e.user, e.action, e.target]),
      [['al', 'drawer.add', r.id]],
    );
    await p.close();
    const again = await openPalace({ databaseUrl: url, home, embedder: null });
    assert.equal((await (await openTeam(again)).authenticate(`Bearer ${token}`))?.user, 'al');
    await again.close();
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
