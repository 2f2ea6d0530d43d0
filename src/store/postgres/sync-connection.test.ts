/**
 * @module store/postgres/sync-connection.test
 * The graph's blocking connection when its server connection dies: a transaction it held is never
 * continued on a new connection outside any transaction, and a graph batch cut before COMMIT runs
 * again whole. Backends are terminated with `pg_terminate_backend`, as an administrator or a server
 * restart would; whether the worker sees the death before or during the next statement, the outcome
 * asserted is the same. The third test makes the old socket's close arrive after the new connection
 * started (through a proxy), which a slow machine can do on its own.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startLateCloseProxy } from '../../../test/helpers/pg-late-close-proxy.js';
import { pgServer, withFreshSchema } from '../../../test/helpers/postgres.js';
import { isLociError } from '../../core/errors.js';
import { openPostgresPalace } from './open.js';
import { openSyncConnection, type SyncConnection } from './sync-connection.js';

const server = await pgServer();
const unreachable = (e: unknown) => isLociError(e) && e.code === 'PG_UNREACHABLE';

/** Terminates the graph connections of `schema` but `admin`'s own, and waits until they are gone. */
function terminateGraphConnections(admin: SyncConnection, schema: string): void {
  const mine = 'application_name = $1 AND pid <> pg_backend_pid()';
  const killed = admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE ${mine}`, [
    `loci-graph:${schema}`,
  ]);
  assert.ok(killed.rowCount >= 1, 'a graph connection to terminate');
  // A guard against waiting forever, not a timing assertion: the backend exits as soon as it runs.
  const giveUp = Date.now() + 120_000;
  while (Date.now() < giveUp) {
    if (admin.query(`SELECT 1 FROM pg_stat_activity WHERE ${mine}`, [`loci-graph:${schema}`]).rowCount === 0) return;
  }
  assert.fail('the terminated backend did not exit within two minutes');
}

if (server.skip !== undefined) {
  test('PostgreSQL graph connection', { skip: server.skip }, () => {});
} else {
  const url = server.url;

  test('a transaction whose connection died fails to its end; no later statement of it runs', async () => {
    const p = await openPostgresPalace(withFreshSchema(url));
    const conn = openSyncConnection(p.target);
    const admin = openSyncConnection(p.target);
    try {
      conn.query('CREATE TABLE lost_tx (x int)');
      conn.query('BEGIN');
      conn.query('INSERT INTO lost_tx VALUES (1)');
      terminateGraphConnections(admin, p.target.schema);
      assert.throws(() => conn.query('INSERT INTO lost_tx VALUES (2)'), unreachable);
      assert.throws(() => conn.query('COMMIT'), unreachable);
      assert.deepEqual(conn.query('SELECT count(*)::int AS n FROM lost_tx').rows, [{ n: 0 }]);
    } finally {
      conn.close();
      admin.close();
      await p.store.close();
    }
  });

  const row = (id: string) => ({
    id,
    name: id,
    type: 'person',
    properties: {},
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  });

  /** Runs a two-entity graph batch whose connection is terminated in its middle, the first time only. */
  async function batchCutOnce(palaceUrl: string): Promise<void> {
    const p = await openPostgresPalace(withFreshSchema(palaceUrl));
    const graph = p.graph();
    const admin = openSyncConnection(p.target);
    let calls = 0;
    try {
      graph.write(() => {
        calls++;
        graph.insertEntity(row('maya'));
        if (calls === 1) terminateGraphConnections(admin, p.target.schema);
        graph.insertEntity(row('lee'));
      });
      assert.equal(calls, 2);
      assert.ok(graph.getEntity('maya') && graph.getEntity('lee'));
      assert.equal(graph.stats().entities, 2);
    } finally {
      admin.close();
      graph.close();
      await p.store.close();
    }
  }

  test('a graph batch whose connection died before COMMIT is applied whole, once, on a new connection', async () => {
    await batchCutOnce(url);
  });

  test('the dead connection closing late does not fail the batch on the connection that replaced it', async () => {
    const proxy = await startLateCloseProxy(url);
    try {
      await batchCutOnce(proxy.url);
    } finally {
      await proxy.close();
    }
  });
}
