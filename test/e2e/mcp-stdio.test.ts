/**
 * @module test/e2e/mcp-stdio
 * Lifecycle of the built `loci mcp` over stdio, driven by the SDK `Client` + `StdioClientTransport`
 * spawning `node bin/loci.js mcp`: initialize, list, mine, search, and a clean shutdown when the
 * client closes stdin or sends SIGTERM. Stdout carries only protocol messages (the client reports
 * anything else as an error); logs go to stderr. Needs `npm run build` (`npm test` builds first).
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN, ROOT } from '../helpers/cli.js';
import { FIXTURES } from '../fixtures/mcp/harness.js';

const built = existsSync(join(ROOT, 'dist', 'cli', 'main.js'));
const skip = built ? false : 'dist/ is missing: run `npm run build` (npm test builds first)';

interface Session {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  errors: Error[];
  exited: Promise<void>;
}

async function connect(home: string, cwd: string): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '--log-level', 'info'],
    cwd,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: join(home, '..', 'user'),
      LOCI_HOME: home,
      CLAUDE_CONFIG_DIR: join(home, '..', 'claude'),
      NO_COLOR: '1',
    },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((resolve) => {
    const prev = transport.onclose;
    transport.onclose = () => {
      prev?.();
      resolve();
    };
  });
  const client = new Client({ name: 'loci-stdio-test', version: '1.0.0' });
  const errors: Error[] = [];
  client.onerror = (e) => errors.push(e);
  await client.connect(transport);
  return { client, transport, stderr: () => err, errors, exited };
}

describe('loci mcp over stdio (built bin, SDK client)', { skip }, () => {
  let dir: string;
  let home: string;
  let project: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'loci-mcp-stdio-'));
    home = join(dir, 'home');
    project = join(dir, 'lantern');
    cpSync(join(FIXTURES, 'project'), project, { recursive: true });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('initialize, list, mine, search, then a clean exit when stdin closes', async () => {
    const s = await connect(home, project);
    assert.equal(s.client.getServerVersion()?.name, 'loci');
    const tools = (await s.client.listTools()).tools;
    assert.ok(tools.length >= 30, `${tools.length} tools`);
    assert.ok(tools.every((t) => t.outputSchema && t.annotations));

    const mined = await s.client.callTool({ name: 'loci_mine', arguments: { path: '.' } });
    assert.equal(mined.isError, undefined, JSON.stringify(mined.content));
    assert.equal((mined.structuredContent as { wing: string }).wing, 'lantern');
    const found = await s.client.callTool({
      name: 'loci_search',
      arguments: { query: 'blue-green deploy rollback', limit: 1 },
    });
    const hit = (found.structuredContent as { hits: { id: string; source: string }[] }).hits[0]!;
    assert.match(hit.source, /deploy\.md$/);
    const text = (found.content as { text: string }[])[0]!.text;
    assert.ok(text.includes(hit.id));
    const bad = await s.client.callTool({ name: 'loci_get_drawer', arguments: { drawer_id: 'missing' } });
    assert.equal(bad.isError, true);
    assert.equal((bad.structuredContent as { error: { code: string } }).error.code, 'DRAWER_NOT_FOUND');

    await s.client.close(); // closes stdin
    await s.exited;
    assert.deepEqual(
      s.errors.map((e) => e.message),
      [],
      'stdout carried only protocol messages',
    );
    const log = s.stderr();
    assert.match(log, /serving \d+ tools over stdio/);
    assert.match(log, /stdin closed; shutting down/);
    assert.match(log, /stopped; palace closed/);
    for (const line of log.trim().split('\n'))
      assert.match(line, /^loci (debug|info|warn|error): /, `stderr line is a log line: ${line}`);
  });

  test('SIGTERM closes the palace and exits', async () => {
    const s = await connect(home, project);
    const st = await s.client.callTool({ name: 'loci_status', arguments: {} });
    assert.ok(
      (st.structuredContent as { drawers: number }).drawers >= 4,
      'the palace mined by the previous session is reopened',
    );
    process.kill(s.transport.pid!, 'SIGTERM');
    await s.exited;
    assert.match(s.stderr(), /received SIGTERM/);
    assert.match(s.stderr(), /stopped; palace closed/);
    await s.client.close();
  });
});
