/**
 * @module test/helpers/pg-late-close-proxy
 * A TCP proxy in front of a PostgreSQL server that delays one thing: when the server closes a
 * connection (a terminated backend), the proxy forwards what the server sent (its FATAL error) at
 * once, but closes the client's side only when the next connection's first answer is due, and
 * forwards that answer only once the old socket is closed on both sides. The client therefore sees
 * the old connection end after it started the new one — the order a slow machine can produce, made
 * certain. The proxy runs in a worker thread, so that it keeps serving while the test's thread is
 * blocked in a synchronous graph call.
 */
import { Worker } from 'node:worker_threads';

const PROXY_SOURCE = `
const net = require('node:net');
const { workerData, parentPort } = require('node:worker_threads');
const held = [];
const server = net.createServer({ allowHalfOpen: true }, (down) => {
  const up = net.connect(workerData.port, workerData.host);
  down.on('error', () => {});
  up.on('error', () => {});
  down.on('data', (d) => up.write(d));
  down.on('end', () => up.end());
  // The server closed a connection the client had not closed (a terminated backend): hold the client's
  // side open until the next connection answers. A connection the client closed first ends at once.
  up.on('end', () => {
    if (down.readableEnded) down.end();
    else held.push(down);
  });
  let gate = Promise.resolve();
  let first = true;
  up.on('data', (d) => {
    if (first) {
      first = false;
      const old = held.splice(0);
      const closed = (s) => new Promise((r) => { if (s.destroyed) r(); else { s.once('close', r); s.end(); } });
      gate = gate.then(() => Promise.all(old.map(closed)));
    }
    gate = gate.then(() => { if (!down.destroyed) down.write(d); });
  });
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
`;

/** A running proxy: `url` is the server's URL through it. */
export interface LateCloseProxy {
  url: string;
  close(): Promise<void>;
}

/** Starts a proxy in front of the server of `url` (a postgres:// URL). */
export async function startLateCloseProxy(url: string): Promise<LateCloseProxy> {
  const target = new URL(url);
  const worker = new Worker(PROXY_SOURCE, {
    eval: true,
    workerData: { host: target.hostname, port: Number(target.port || 5432) },
  });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  const through = new URL(url);
  through.hostname = '127.0.0.1';
  through.port = String(port);
  return {
    url: through.toString(),
    async close() {
      await worker.terminate();
    },
  };
}
