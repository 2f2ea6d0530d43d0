/**
 * @module test/e2e/mcp-roots
 * MCP callers may mine only under the configured roots and cannot create unsafe names (issue 11,
 * defect 7): by default the server's project and the Claude Code folder; `LOCI_MINE_ROOTS` or the
 * `mineRoots` option replace them. In process, over the SDK's in-memory transport.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { openPalace, type Palace } from '../../src/internal.js';
import { createLociMcpServer, type LociMcpServerOptions } from '../../src/mcp/index.js';

interface Result {
  isError?: boolean;
  structuredContent?: { error?: { code: string; message: string }; files_mined?: number };
}

describe('loci_mine roots and names over MCP', () => {
  let dir: string;
  let palace: Palace;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'loci-mcp-roots-'));
    palace = await openPalace({ home: join(dir, 'home'), embedder: null });
    env = { HOME: join(dir, 'user'), CLAUDE_CONFIG_DIR: join(dir, 'claude'), PATH: process.env['PATH'] ?? '' };
    for (const d of ['project', 'claude/projects/p', 'elsewhere']) mkdirSync(join(dir, d), { recursive: true });
    writeFileSync(join(dir, 'project', 'notes.md'), '# Notes\n\nproject notes\n');
    writeFileSync(join(dir, 'claude', 'projects', 'p', 'notes.md'), '# Claude\n\nconfig folder notes\n');
    writeFileSync(join(dir, 'elsewhere', 'notes.md'), '# Elsewhere\n\nnot for remote callers\n');
  });
  after(async () => {
    await palace.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function session(extra: Partial<LociMcpServerOptions> = {}) {
    const mcp = await createLociMcpServer({ palace, cwd: join(dir, 'project'), env, ...extra });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await mcp.server.connect(a);
    const client = new Client({ name: 'roots', version: '1' });
    await client.connect(b);
    const call = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as Result;
    return { call, close: async () => (await client.close(), await mcp.close()) };
  }

  test('by default: the project and the Claude Code folder, nothing else (not /etc/passwd)', async () => {
    const s = await session();
    try {
      for (const path of [
        '/etc/passwd',
        join(dir, 'elsewhere'),
        join(dir, 'project', '..', 'elsewhere'),
        '../elsewhere',
      ]) {
        const r = await s.call('loci_mine', { path });
        assert.equal(r.structuredContent?.error?.code, 'MINE_OUTSIDE_ROOTS', path);
      }
      assert.equal((await s.call('loci_mine', { path: '.' })).structuredContent?.files_mined, 1);
      assert.equal(
        (await s.call('loci_mine', { path: join(dir, 'claude', 'projects', 'p', 'notes.md'), mode: 'projects' }))
          .isError,
        undefined,
      );
    } finally {
      await s.close();
    }
  });

  test('LOCI_MINE_ROOTS and the mineRoots option replace the defaults', async () => {
    const viaEnv = await session({ env: { ...env, LOCI_MINE_ROOTS: join(dir, 'elsewhere') } });
    try {
      assert.equal((await viaEnv.call('loci_mine', { path: join(dir, 'elsewhere') })).isError, undefined);
      assert.equal(
        (await viaEnv.call('loci_mine', { path: '.' })).structuredContent?.error?.code,
        'MINE_OUTSIDE_ROOTS',
      );
    } finally {
      await viaEnv.close();
    }
    const viaOption = await session({ mineRoots: [] });
    try {
      assert.equal(
        (await viaOption.call('loci_mine', { path: '.' })).structuredContent?.error?.code,
        'MINE_OUTSIDE_ROOTS',
      );
    } finally {
      await viaOption.close();
    }
  });

  test('unsafe wing and room names are refused with NAME_INVALID', async () => {
    const s = await session();
    try {
      for (const [wing, room] of [
        ['..', 'r'],
        ['w', 'gpj.\u202Eexe'],
        ['w\u0007', 'r'],
      ]) {
        const r = await s.call('loci_add_drawer', { wing, room, content: 'text' });
        assert.equal(r.structuredContent?.error?.code, 'NAME_INVALID', JSON.stringify([wing, room]));
        assert.doesNotMatch(r.structuredContent!.error!.message, /[\n\u202e]/);
      }
      assert.equal(
        (await s.call('loci_mine', { path: '.', wing: '..' })).structuredContent?.error?.code,
        'NAME_INVALID',
      );
    } finally {
      await s.close();
    }
  });
});
