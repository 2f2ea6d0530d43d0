/**
 * @module team/client.test
 * The team client against a loopback HTTP server: a 503 (busy, restarting) is sent again after the
 * server's Retry-After, a few times, and then reported; other failures are not retried.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { isLociError } from '../core/errors.js';
import { createTeamClient } from './client.js';

let server: Server;
let url = '';
/** The statuses the next requests get, in order; then 200. */
let script: number[] = [];
let seen = 0;

before(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen++;
      const status = script.shift() ?? 200;
      const body =
        status === 200
          ? { ok: true }
          : { error: { code: 'PG_BUSY', message: 'busy', details: { url: 'x', connections: 1, seconds: 1 } } };
      res.writeHead(status, { 'content-type': 'application/json', ...(status === 503 ? { 'retry-after': '0' } : {}) });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((r) => server.close(() => r())));

test('a 503 is sent again after Retry-After, and the answer that follows is returned', async () => {
  script = [503, 503];
  seen = 0;
  const client = createTeamClient({ url, token: 't' });
  assert.deepEqual(await client.call('status'), { ok: true });
  assert.equal(seen, 3);
});

test('a server that stays busy is reported after five retries, with its own error', async () => {
  script = [503, 503, 503, 503, 503, 503, 503];
  seen = 0;
  const client = createTeamClient({ url, token: 't' });
  await assert.rejects(client.call('status'), (e) => isLociError(e) && e.code === 'PG_BUSY');
  assert.equal(seen, 6);
  script = [];
});

test('other failures are not retried', async () => {
  script = [500];
  seen = 0;
  const client = createTeamClient({ url, token: 't' });
  await assert.rejects(client.call('status'), (e) => isLociError(e) && e.code === 'PG_BUSY');
  assert.equal(seen, 1);
});
