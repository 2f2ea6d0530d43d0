/**
 * @module test/e2e/mcp-project-dir
 * `loci mcp` started by Claude Code from a sub-folder (or anywhere) serves the project named in
 * `CLAUDE_PROJECT_DIR`: the memory directory is that project's, and relative paths resolve there.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { openPalace, selectMemoryDir } from '../../src/internal.js';
import { createLociMcpServer } from '../../src/mcp/index.js';

test('CLAUDE_PROJECT_DIR decides the project of the MCP server, not its working directory', async (t) => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'loci-mcp-projdir-')));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const project = join(dir, 'acme');
  const elsewhere = join(dir, 'elsewhere');
  mkdirSync(join(project, 'src'), { recursive: true });
  mkdirSync(elsewhere);
  const home = join(dir, 'home');
  const base: NodeJS.ProcessEnv = {
    HOME: join(dir, 'user'),
    LOCI_HOME: home,
    CLAUDE_CONFIG_DIR: join(dir, 'claude'),
    PATH: process.env['PATH'] ?? '',
  };
  const palace = await openPalace({ home });
  t.after(() => palace.close());
  const listDir = async (env: NodeJS.ProcessEnv) => {
    const server = await createLociMcpServer({ palace, cwd: elsewhere, env });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.server.connect(a);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(b);
    const r = await client.callTool({ name: 'loci_memory_list', arguments: {} });
    await client.close();
    await server.close();
    return (r.structuredContent as { dir: string }).dir;
  };
  const want = (cwd: string) => selectMemoryDir({ cwd, env: base, lociHome: home, readOnly: true }).dir;
  assert.notEqual(want(project), want(elsewhere));
  assert.equal(await listDir({ ...base, CLAUDE_PROJECT_DIR: project }), want(project));
  assert.equal(await listDir(base), want(elsewhere), 'without it, the working directory decides');
});
