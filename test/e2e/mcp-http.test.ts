/**
 * @module test/e2e/mcp-http
 * `loci mcp --http` over real HTTP with the SDK `Client` + `StreamableHTTPClientTransport`:
 * loopback by default (with DNS-rebinding protection), a token required to bind anywhere else,
 * 401 for every request without the right bearer token, sessions, and the built CLI end to end.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { fixedClock, isLociError, openPalace, type Palace } from '../../src/internal.js';
import { serveMcpHttp, type HttpServing } from '../../src/mcp/index.js';
import { BIN, ROOT, loci } from '../helpers/cli.js';

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** POSTs with an explicit Host header (fetch may not set it) and returns the status. */
function rawStatus(port: number, host: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { ...HEADERS, host } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function connect(url: string, token?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(
    new URL(url),
    token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {},
  );
  const client = new Client({ name: 'loci-http-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

describe('loci mcp --http', () => {
  let dir: string;
  let palace: Palace;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'loci-mcp-http-'));
    palace = await openPalace({ home: join(dir, 'home') });
    await palace.addDrawer({
      wing: 'lantern',
      room: 'deploy',
      text: 'Deploys use the blue-green pipeline with a router flip.',
    });
  });
  after(async () => {
    await palace.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('loopback without a token: tools work, sessions end, foreign Host headers are refused', async () => {
    const srv = await serveMcpHttp({ palace, port: 0, cwd: dir });
    try {
      assert.match(srv.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const client = await connect(srv.url);
      const r = await client.callTool({ name: 'loci_search', arguments: { query: 'blue-green router' } });
      const hits = (r.structuredContent as { hits: { id: string }[] }).hits;
      assert.equal(hits.length, 1);
      const second = await connect(srv.url);
      assert.equal(
        ((await second.callTool({ name: 'loci_status', arguments: {} })).structuredContent as { drawers: number })
          .drawers,
        1,
        'two sessions share one palace',
      );
      await second.close();
      await (client.transport as StreamableHTTPClientTransport).terminateSession();
      await client.close();

      assert.equal(
        await rawStatus(srv.port, 'evil.example', JSON.stringify(INIT)),
        403,
        'DNS rebinding: a foreign Host header',
      );
      const stale = await fetch(srv.url, {
        method: 'POST',
        headers: { ...HEADERS, 'mcp-session-id': 'no-such-session' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      });
      assert.equal(stale.status, 404);
      const wrongPath = await fetch(srv.url.replace('/mcp', '/other'), {
        method: 'POST',
        headers: HEADERS,
        body: JSON.stringify(INIT),
      });
      assert.equal(wrongPath.status, 404);
      const notJson = await fetch(srv.url, { method: 'POST', headers: HEADERS, body: '{oops' });
      assert.equal(notJson.status, 400);
      await assert.rejects(
        serveMcpHttp({ palace, port: srv.port }),
        (e: unknown) => isLociError(e, 'MCP_LISTEN_FAILED') && /in use/.test(e.message),
      );
    } finally {
      await srv.close();
    }
  });

  test('idle sessions are closed (an injected clock and the next initialize decide, never waiting)', async () => {
    const clock = fixedClock(1_000_000);
    const srv = await serveMcpHttp({ palace, port: 0, idleSessionMs: 60_000, clock });
    try {
      const client = await connect(srv.url);
      const sid = (client.transport as StreamableHTTPClientTransport).sessionId!;
      const list = () =>
        fetch(srv.url, {
          method: 'POST',
          headers: { ...HEADERS, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
        });
      clock.t += 59_000;
      const other = await connect(srv.url);
      assert.equal((await list()).status, 200, 'idle for 59 s of 60: kept');
      clock.t += 60_000;
      const third = await connect(srv.url);
      assert.equal((await list()).status, 404, 'the idle session is gone');
      await Promise.all([client.close(), other.close(), third.close()]);
    } finally {
      await srv.close();
    }
  });

  test('binding off loopback without LOCI_TOKEN is refused with MCP_TOKEN_REQUIRED', async () => {
    await assert.rejects(serveMcpHttp({ palace, host: '0.0.0.0', port: 0 }), (e: unknown) =>
      isLociError(e, 'MCP_TOKEN_REQUIRED'),
    );
    const cli = loci(['mcp', '--http', '--host', '0.0.0.0', '--port', '0'], {
      home: join(dir, 'cli-home'),
      env: { LOCI_TOKEN: '' },
    });
    assert.equal(cli.code, 2);
    assert.match(cli.stderr, /LOCI_TOKEN.*\[MCP_TOKEN_REQUIRED\]/);
    assert.equal(cli.stdout, '');
  });

  test('with a token, every request without the right bearer gets 401', async () => {
    const token = 'test-token-' + 'x'.repeat(24);
    let srv: HttpServing | undefined;
    try {
      srv = await serveMcpHttp({ palace, host: '0.0.0.0', port: 0, token });
      const url = `http://127.0.0.1:${srv.port}/mcp`;
      for (const auth of [undefined, 'Bearer wrong', `Basic ${token}`, token]) {
        const res = await fetch(url, {
          method: 'POST',
          headers: { ...HEADERS, ...(auth ? { authorization: auth } : {}) },
          body: JSON.stringify(INIT),
        });
        assert.equal(res.status, 401, `authorization ${auth ?? '(none)'}`);
        assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer/);
      }
      const get = await fetch(url, { method: 'GET', headers: { accept: 'text/event-stream' } });
      assert.equal(get.status, 401);
      await assert.rejects(connect(url), 'the SDK client without the token cannot connect');
      await assert.rejects(connect(url, 'wrong'));
      const client = await connect(url, token);
      assert.equal(
        (
          (await client.callTool({ name: 'loci_list_wings', arguments: {} })).structuredContent as {
            wings: { wing: string }[];
          }
        ).wings[0]!.wing,
        'lantern',
      );
      await client.close();
    } finally {
      await srv?.close();
    }
  });

  const built = existsSync(join(ROOT, 'dist', 'cli', 'main.js'));
  test(
    'the built CLI serves HTTP until SIGTERM',
    { skip: built ? false : 'dist/ is missing: run `npm run build`' },
    async () => {
      const child = spawn(process.execPath, [BIN, 'mcp', '--http', '--port', '0'], {
        env: { ...process.env, LOCI_HOME: join(dir, 'cli-http-home'), LOCI_TOKEN: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      const url = await new Promise<string>((resolve, reject) => {
        child.stderr.on('data', (d: Buffer) => {
          err += d.toString();
          const m = /serving at (http:\/\/[^\s;]+)/.exec(err);
          if (m) resolve(m[1]!);
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
      });
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      const client = await connect(url);
      assert.equal(
        ((await client.callTool({ name: 'loci_status', arguments: {} })).structuredContent as { drawers: number })
          .drawers,
        0,
      );
      await client.close();
      child.kill('SIGTERM');
      assert.equal(await exited, 0);
      assert.equal(out, '', 'nothing on stdout');
    },
  );
});
