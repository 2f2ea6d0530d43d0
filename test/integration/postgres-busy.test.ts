/**
 * @module test/integration/postgres-busy
 * A PostgreSQL palace whose pooled connections all stay taken: a query waits its limit, then fails
 * with PG_BUSY (what the team server answers 503 with Retry-After), and works again once a
 * connection is free. Real PostgreSQL (see `test/helpers/postgres.ts`; skips with the reason
 * without one, except in CI).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isLociError } from '../../src/core/errors.js';
import { openPool, parseDatabaseUrl, readQuery } from '../../src/store/postgres/connect.js';
import { pgServer, withFreshSchema } from '../helpers/postgres.js';

const server = await pgServer();

test(
  'every connection busy: PG_BUSY after the wait, naming the pool and how to widen it',
  { skip: server.skip },
  async () => {
    const target = parseDatabaseUrl(withFreshSchema(server.url!));
    const pool = await openPool(target, 1, 200);
    try {
      const held = await pool.connect();
      await assert.rejects(readQuery(pool, target, 'SELECT 1'), (e) => {
        assert.ok(isLociError(e) && e.code === 'PG_BUSY', String(e));
        assert.match(e.message, /every one of the 1 connections .* stayed busy for 0\.2 s: .*\(LOCI_PG_POOL\)/);
        return true;
      });
      held.release();
      assert.deepEqual(await readQuery(pool, target, 'SELECT 1 AS one'), [{ one: 1 }]);
    } finally {
      await pool.end();
    }
  },
);
