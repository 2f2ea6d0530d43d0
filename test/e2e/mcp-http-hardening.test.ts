/**
 * @module test/e2e/mcp-http-hardening
 * `loci mcp --http` against hostile local clients (issue 11, defect 3): `Origin` is validated
 * (absent and loopback origins and configured ones pass; `null` and foreign ones get 403), a body
 * over the limit is read and answered 413 instead of a connection reset, and idle sessions expire
 * and yield their slot — driven by an injected clock, never by waiting.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fixedClock, openPalace, type Palace } from '../../src/internal.js';
import { serveMcpHttp } from '../../src/mcp/index.js';

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const LIST = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

interface Answer {
  status: number;
  session: string | undefined;
  body: string;
}

/** POSTs `body` (written in 64 KiB chunks) with extra headers; resolves with the answer or rejects on a reset. */
function post(url: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { ...HEADERS, ...headers } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          session: res.headers['mcp-session-id'] as string | undefined,
          body: text,
        }),
      );
    });
    req.on('error', reject);
    const buf = Buffer.from(body);
    for (let i = 0; i < buf.length; i += 65_536) req.write(buf.subarray(i, i + 65_536));
    req.end();
  });
}

async function initialize(url: string): Promise<string> {
  const r = await post(url, INIT);
  assert.equal(r.status, 200, r.body);
  assert.ok(r.session);
  await post(url, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), {
    'mcp-session-id': r.session,
    'mcp-protocol-version': '2025-06-18',
  });
  return r.session;
}

const listStatus = async (url: string, session: string) =>
  (await post(url, LIST, { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' })).status;

describe('loci mcp --http hardening', () => {
  let dir: string;
  let palace: Palace;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'loci-mcp-http-hard-'));
    palace = await openPalace({ home: join(dir, 'home'), embedder: null });
  });
  after(async () => {
    await palace.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('Origin: absent, loopback and configured origins pass; null and foreign origins get 403', async () => {
    const srv = await serveMcpHttp({ palace, port: 0, cwd: dir, allowedOrigins: ['https://app.example:8443'] });
    try {
      assert.equal((await post(srv.url, INIT)).status, 200, 'no Origin (a non-browser client)');
      for (const origin of [
        'http://localhost:5173',
        'http://127.0.0.1:3000',
        'http://[::1]:8080',
        'https://app.example:8443',
      ]) {
        assert.equal((await post(srv.url, INIT, { origin })).status, 200, origin);
      }
      for (const origin of [
        'http://evil.example',
        'null',
        'https://app.example',
        'file://',
        'http://localhost.evil.example',
      ]) {
        const r = await post(srv.url, INIT, { origin });
        assert.equal(r.status, 403, origin);
        assert.match(r.body, /forbidden origin/);
      }
    } finally {
      await srv.close();
    }
    await assert.rejects(
      serveMcpHttp({ palace, port: 0, allowedOrigins: ['https://app.example/path'] }),
      /invalid allowed origin/,
    );
  });

  test('a body over the limit is read and answered 413, and the server keeps serving', async () => {
    const srv = await serveMcpHttp({ palace, port: 0, cwd: dir });
    try {
      const big = Buffer.alloc(5 * 1024 * 1024, 0x20);
      const r = await post(srv.url, big);
      assert.equal(r.status, 413);
      assert.match(r.body, /MCP_MESSAGE_TOO_LARGE/);
      assert.ok(r.body.length < 1000);
      assert.equal((await post(srv.url, INIT)).status, 200);
    } finally {
      await srv.close();
    }
  });

  test('idle sessions expire after idleSessionMs; the least recently used idle one yields when full', async () => {
    const clock = fixedClock(1_000_000);
    const srv = await serveMcpHttp({ palace, port: 0, cwd: dir, maxSessions: 2, idleSessionMs: 60_000, clock });
    try {
      const a = await initialize(srv.url);
      clock.t += 1000;
      const b = await initialize(srv.url);
      clock.t += 1000;
      assert.equal(await listStatus(srv.url, a), 200, 'a is used again: b is now the least recently used');
      clock.t += 1000;
      const c = await initialize(srv.url);
      assert.equal(await listStatus(srv.url, b), 404, 'b yielded its slot to c');
      assert.equal(await listStatus(srv.url, a), 200);
      assert.equal(await listStatus(srv.url, c), 200);

      clock.t += 60_000;
      const d = await initialize(srv.url);
      assert.equal(await listStatus(srv.url, a), 404, 'a expired after 60 s idle');
      assert.equal(await listStatus(srv.url, c), 404, 'c expired after 60 s idle');
      assert.equal(await listStatus(srv.url, d), 200);
    } finally {
      await srv.close();
    }
  });
});
