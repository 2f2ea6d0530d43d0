/**
 * @module test/e2e/mcp-limits
 * Oversized MCP arguments never end the session (issue 11, defect 2), with the real SDK client over
 * stdio against the built `loci mcp`: every text argument of every tool, given 1 MB, gets a short
 * one-line `isError` result (a prefix of the value, not the value three times); a 4 MB drawer is
 * refused the same way; a 12 MB request (past the SDK's own 10 MiB line buffer) is answered with
 * MCP_MESSAGE_TOO_LARGE; and the session still works afterwards. Also: every string argument
 * advertises a maxLength and every array a maxItems, and random argument objects give one-line
 * errors and no crash (fast-check, in process).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { openPalace, type Palace } from '../../src/internal.js';
import { createLociMcpServer } from '../../src/mcp/index.js';
import { BIN, ROOT } from '../helpers/cli.js';

const built = existsSync(join(ROOT, 'dist', 'cli', 'main.js'));
const skip = built ? false : 'dist/ is missing: run `npm run build` (npm test builds first)';
const MB = 1_000_000;

type JsonSchema = {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  maxLength?: number;
  maxItems?: number;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
};

/** A placeholder of the right type for an argument that is not under test. */
function filler(s: JsonSchema): unknown {
  if (s.enum) return s.enum[0];
  return s.type === 'number' || s.type === 'integer'
    ? 1
    : s.type === 'boolean'
      ? false
      : s.type === 'array'
        ? []
        : s.type === 'object'
          ? {}
          : 'x';
}

interface Reply {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: { error?: { code: string } };
}

function assertShortOneLineError(r: Reply, what: string, code?: string): void {
  assert.equal(r.isError, true, what);
  const size = JSON.stringify(r).length;
  assert.ok(size < 4000, `${what}: a ${size}-character reply`);
  const text = r.content[0]?.text ?? '';
  assert.match(text, /^loci: [^\n]+ \[[A-Z_]+\]$/, `${what}: ${text.slice(0, 200)}`);
  if (code) assert.equal(r.structuredContent?.error?.code, code, what);
}

describe('oversized MCP arguments (built bin, SDK client over stdio)', { skip }, () => {
  let dir: string;
  let client: Client;
  let closedEarly = false;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'loci-mcp-limits-'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp'],
      cwd: dir,
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: join(dir, 'user'),
        LOCI_HOME: join(dir, 'home'),
        CLAUDE_CONFIG_DIR: join(dir, 'claude'),
        LOCI_EMBEDDER: 'none',
        NO_COLOR: '1',
      },
      stderr: 'pipe',
    });
    transport.onclose = () => (closedEarly = true);
    client = new Client({ name: 'loci-limits-test', version: '1.0.0' });
    await client.connect(transport);
  });
  after(async () => {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('every text argument of every tool: twice the largest maxLength gets a one-line isError', async () => {
    const { tools } = await client.listTools();
    let checked = 0;
    for (const tool of tools) {
      const props = (tool.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
      const required = (tool.inputSchema.required ?? []) as string[];
      for (const [name, schema] of Object.entries(props)) {
        const s = schema.anyOf?.find((x) => x.type === 'string') ?? schema;
        if (s.type !== 'string') continue;
        const args: Record<string, unknown> = {};
        for (const r of required) args[r] = filler(props[r]!);
        // Over every advertised maxLength (≤ 100,000, asserted below); the 4 MB and 12 MB tests cover huge ones.
        args[name] = 'é'.repeat(2 * 100_000);
        const reply = (await client.callTool({ name: tool.name, arguments: args })) as Reply;
        assertShortOneLineError(reply, `${tool.name}.${name}`);
        if (!s.enum)
          assert.ok(s.maxLength !== undefined && s.maxLength <= 100_000, `${tool.name}.${name} advertises a maxLength`);
        checked++;
      }
    }
    assert.ok(checked > 60, `${checked} text arguments checked`);
  });

  test('a 4 MB drawer and 1 MB of metadata are refused with INVALID_ARGUMENT naming the argument', async () => {
    const big = (await client.callTool({
      name: 'loci_add_drawer',
      arguments: { wing: 'w', room: 'r', content: 'q'.repeat(4 * MB) },
    })) as Reply;
    assertShortOneLineError(big, 'content', 'INVALID_ARGUMENT');
    assert.match(
      big.content[0]!.text,
      /invalid content: "q{20,}…\(4000000 chars\)" — expected at most 100000 characters/,
    );
    const meta = (await client.callTool({
      name: 'loci_add_drawer',
      arguments: { wing: 'w', room: 'r', content: 'ok', metadata: { note: 'm'.repeat(MB) } },
    })) as Reply;
    assertShortOneLineError(meta, 'metadata', 'INVALID_ARGUMENT');
  });

  test('a 12 MB request gets MCP_MESSAGE_TOO_LARGE and the session goes on', async () => {
    const huge = (await client.callTool({
      name: 'loci_add_drawer',
      arguments: { wing: 'w', room: 'r', content: 'h'.repeat(12 * MB) },
    })) as Reply;
    assertShortOneLineError(huge, 'a 12 MB request', 'MCP_MESSAGE_TOO_LARGE');
    const ok = await client.callTool({
      name: 'loci_add_drawer',
      arguments: { wing: 'w', room: 'r', content: 'still here' },
    });
    assert.equal(ok.isError, undefined);
    assert.equal(closedEarly, false, 'the transport stayed open');
  });
});

describe('MCP arguments (in process)', () => {
  let dir: string;
  let palace: Palace;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'loci-mcp-args-'));
    palace = await openPalace({ home: join(dir, 'home'), embedder: null });
  });
  after(async () => {
    await palace.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('every string argument has a maxLength and every array a maxItems', async () => {
    const mcp = await createLociMcpServer({ palace, cwd: dir, env: { HOME: join(dir, 'user') } });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await mcp.server.connect(a);
    const client = new Client({ name: 'audit', version: '1' });
    await client.connect(b);
    const missing: string[] = [];
    const walk = (s: JsonSchema | undefined, path: string) => {
      if (!s) return;
      for (const x of s.anyOf ?? []) walk(x, path);
      if (s.type === 'string' && !s.enum && s.maxLength === undefined) missing.push(`${path} (maxLength)`);
      if (s.type === 'array') {
        if (s.maxItems === undefined) missing.push(`${path} (maxItems)`);
        walk(s.items, `${path}[]`);
      }
      for (const [k, v] of Object.entries(s.properties ?? {})) walk(v, `${path}.${k}`);
    };
    for (const t of (await client.listTools()).tools) walk(t.inputSchema as JsonSchema, t.name);
    assert.deepEqual(missing, []);
    await client.close();
    await mcp.close();
  });

  test('property: random arguments to every tool give a result or a one-line error, never a crash', async () => {
    const mcp = await createLociMcpServer({
      palace,
      cwd: dir,
      env: { HOME: join(dir, 'user'), CLAUDE_CONFIG_DIR: join(dir, 'claude') },
    });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await mcp.server.connect(a);
    const client = new Client({ name: 'fuzz', version: '1' });
    await client.connect(b);
    const names = (await client.listTools()).tools
      .map((t) => t.name)
      .filter((n) => n !== 'loci_mine' && n !== 'loci_sync');
    const value = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 50 }),
      fc.string({ maxLength: 5000 }),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.constantFrom('..', '\u202e', '2025-13-45', 'a\nb'),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...names),
        fc.dictionary(
          fc.constantFrom(
            'query',
            'wing',
            'room',
            'content',
            'drawer_id',
            'name',
            'since',
            'agent',
            'entry',
            'entity',
            'bogus',
          ),
          value,
        ),
        async (name, args) => {
          const r = (await client.callTool({ name, arguments: args })) as Reply;
          if (!r.isError) return;
          const text = r.content[0]?.text ?? '';
          assert.match(text, /^loci: [^\n]+ \[[A-Z_]+\]$/, `${name}: ${text.slice(0, 200)}`);
          assert.notEqual(
            r.structuredContent?.error?.code,
            'INTERNAL',
            `${name} ${JSON.stringify(args).slice(0, 300)}: ${text}`,
          );
          assert.ok(text.length < 2100);
        },
      ),
      { numRuns: 200 },
    );
    await client.close();
    await mcp.close();
  });
});
