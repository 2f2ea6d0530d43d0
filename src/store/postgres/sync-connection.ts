/**
 * @module store/postgres/sync-connection
 * A synchronous PostgreSQL connection, for the one port that is synchronous by design: the graph
 * tables (the rules of `src/kg/` run a whole batch inside one transaction, call by call). A worker
 * thread owns one node-postgres client; {@link SyncConnection.query} posts the statement to it and
 * blocks this thread with `Atomics.wait` until the worker has answered on a message port (the
 * technique of `synckit`). The worker is `unref`ed: it never keeps a process alive.
 */
import { createRequire } from 'node:module';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { createError } from '../../core/errors.js';
import { mapPgError, type PgTarget } from './connect.js';

/** A blocking connection. */
export interface SyncConnection {
  /** Runs one statement (several separated by `;` when `params` is empty) and returns its rows. */
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): { rows: R[]; rowCount: number };
  /** Ends the connection and the worker. */
  close(): void;
}

/** The worker: CommonJS source evaluated in the thread, so that it runs from `dist/` and under tsx alike. */
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { port, flag, pgPath, config } = workerData;
// A failure to load the driver must still answer every call (the caller is blocked until it does).
let pg, bootError;
try { pg = require(pgPath); } catch (e) { bootError = e; }
const types = { getTypeParser: (oid, f) => (oid === 20 || oid === 1700 ? Number : pg.types.getTypeParser(oid, f)) };
// inTx: the connection holds an open transaction (BEGIN answered, no COMMIT/ROLLBACK yet).
let client, ready, lost = false, inTx = false;
const BEGINS = /^\\s*(BEGIN|START\\s+TRANSACTION)\\b/i;
const ENDS = /^\\s*(COMMIT|END|ROLLBACK|ABORT)\\s*;?\\s*$/i;
// A dead client may still emit 'error' after its replacement connected: only the current client's
// events mark the connection lost (a late one would fail the new connection's transaction).
const connect = () => {
  const c = new pg.Client({ ...config, types });
  const mine = () => { if (client === c) lost = true; };
  // The old client is closed, not awaited: its socket may already be gone.
  if (client) client.end().catch(() => {});
  client = c;
  lost = false;
  c.on('error', mine);
  ready = c.connect();
  ready.catch(mine);
};
if (!bootError) connect();
let pending = false;
const answer = (m) => { pending = false; port.postMessage(m); Atomics.store(flag, 0, 1); Atomics.notify(flag, 0); };
const fail = (e) => {
  if (pending) answer({ error: { message: 'graph connection worker: ' + String(e && e.message) } });
};
process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);
port.on('message', async (m) => {
  pending = true;
  if (bootError) {
    answer({ error: { message: 'cannot load pg: ' + String(bootError && bootError.message) } });
    return;
  }
  // A connection that died (server restart, terminated backend) is replaced on the next statement that
  // does not belong to a transaction it held: the server rolled that transaction back, so each later
  // statement of it fails (it must not run on the new connection outside any transaction) until the
  // caller ends it (ROLLBACK) or begins another.
  if (lost && !m.close) {
    if (inTx && !BEGINS.test(m.sql)) {
      const rollback = /^\\s*(ROLLBACK|ABORT)\\s*;?\\s*$/i.test(m.sql);
      if (ENDS.test(m.sql)) inTx = false;
      if (rollback) answer({ rows: [], rowCount: 0 });
      else answer({ error: { message: 'connection lost inside a transaction (rolled back)', code: '08006' } });
      return;
    }
    inTx = false;
    connect();
  }
  try {
    await ready;
    if (m.close) { await client.end(); answer({ rows: [], rowCount: 0 }); port.close(); return; }
    const r = await client.query(m.sql, m.params);
    if (BEGINS.test(m.sql)) inTx = true;
    else if (ENDS.test(m.sql)) inTx = false;
    const last = Array.isArray(r) ? r[r.length - 1] : r;
    answer({ rows: last ? last.rows : [], rowCount: last ? last.rowCount || 0 : 0 });
  } catch (e) {
    if (/terminat|ECONN|EPIPE|not queryable/i.test(String(e && e.message)) || String(e && e.code).startsWith('08'))
      lost = true;
    else if (ENDS.test(m.sql)) inTx = false;
    answer({ error: { message: String(e && e.message), code: e && e.code } });
  }
});
`;

/** How long one statement may take before the caller gives up (ms). */
const QUERY_TIMEOUT_MS = 600_000;

/** Opens a blocking connection on `target` (connects on the first query). */
export function openSyncConnection(target: PgTarget): SyncConnection {
  const pgPath = createRequire(import.meta.url).resolve('pg');
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      port: port2,
      flag,
      pgPath,
      config: {
        connectionString: target.connectionString,
        options: `-c search_path=${target.schema}`,
        application_name: `loci-graph:${target.schema}`,
      },
    },
    transferList: [port2 as unknown as MessagePort],
  });
  worker.unref();
  worker.on('error', () => {});
  let closed = false;

  const call = (msg: object): { rows: unknown[]; rowCount: number } => {
    if (closed) throw createError('INTERNAL', { what: 'graph connection used after close' });
    Atomics.store(flag, 0, 0);
    port1.postMessage(msg);
    if (Atomics.wait(flag, 0, 0, QUERY_TIMEOUT_MS) === 'timed-out') {
      throw createError('TIMEOUT', { operation: 'a PostgreSQL graph query', ms: QUERY_TIMEOUT_MS });
    }
    const got = receiveMessageOnPort(port1)?.message as
      { rows: unknown[]; rowCount: number; error?: { message: string; code?: string } } | undefined;
    if (!got) throw createError('INTERNAL', { what: 'the graph connection worker did not answer' });
    if (got.error) {
      const e = Object.assign(new Error(got.error.message), { code: got.error.code });
      throw mapPgError(e, target);
    }
    return got;
  };

  return {
    query<R>(sql: string, params: readonly unknown[] = []) {
      return call({ sql, params }) as { rows: R[]; rowCount: number };
    },
    close() {
      if (closed) return;
      try {
        call({ close: true });
      } catch {
        /* already gone */
      }
      closed = true;
      port1.close();
      void worker.terminate();
    },
  };
}
