/**
 * @module test/e2e/mcp-inspector
 * A third-party client: the official MCP Inspector (dev dependency, pinned) in CLI mode drives the
 * built `loci mcp` over stdio — `--method tools/list` and a `tools/call` with string arguments it
 * coerces through our input schemas. Skipped with the reason when the Inspector or `dist/` is absent.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { BIN, ROOT, tempDir } from '../helpers/cli.js';

const INSPECTOR = join(ROOT, 'node_modules', '.bin', 'mcp-inspector');
const skip = !existsSync(INSPECTOR)
  ? // Not a pinned dev dependency: it needs Node >= 22.19, and its tree (vite 8) names an optional
    // package the registry does not serve, which breaks `npm ci` from the lockfile on this machine.
    '@modelcontextprotocol/inspector is not installed (needs Node >= 22.19; install it by hand with npm i -D ' +
    '@modelcontextprotocol/inspector to run this test)'
  : !existsSync(join(ROOT, 'dist', 'cli', 'main.js'))
    ? 'dist/ is missing: run `npm run build`'
    : false;

describe('MCP Inspector CLI against loci mcp', { skip }, () => {
  let work: { dir: string; cleanup: () => void };
  before(() => (work = tempDir('loci-mcp-inspector-')));
  after(() => work.cleanup());

  function inspect(...args: string[]): unknown {
    const r = spawnSync(process.execPath, [realpathSync(INSPECTOR), '--cli', process.execPath, BIN, 'mcp', ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: join(work.dir, 'user'),
        MCP_CATALOG_PATH: join(work.dir, 'catalog.json'),
        LOCI_HOME: join(work.dir, 'home'),
        CLAUDE_CONFIG_DIR: join(work.dir, 'claude'),
        NO_COLOR: '1',
      },
    });
    assert.equal(r.status, 0, `inspector failed: ${r.stderr}`);
    return JSON.parse(r.stdout);
  }

  test('tools/list shows every tool with its schemas and annotations', () => {
    const { tools } = inspect('--method', 'tools/list') as {
      tools: { name: string; outputSchema?: unknown; annotations?: Record<string, unknown> }[];
    };
    assert.ok(tools.length >= 30, `${tools.length} tools`);
    for (const t of tools) {
      assert.match(t.name, /^loci_/);
      assert.ok(t.outputSchema, t.name);
      assert.equal(t.annotations?.['openWorldHint'], false);
    }
  });

  test('tools/call with key=value arguments', () => {
    const r = inspect(
      '--method',
      'tools/call',
      '--tool-name',
      'loci_add_drawer',
      '--tool-arg',
      'wing=lantern',
      '--tool-arg',
      'room=deploy',
      '--tool-arg',
      'content=Blue-green deploys flip the router.',
    ) as {
      structuredContent: { drawer_id: string; added: boolean };
    };
    assert.equal(r.structuredContent.added, true);
    const s = inspect(
      '--method',
      'tools/call',
      '--tool-name',
      'loci_search',
      '--tool-arg',
      'query=router flip',
      '--tool-arg',
      'limit=3',
    ) as {
      structuredContent: { hits: { id: string }[] };
    };
    assert.equal(s.structuredContent.hits[0]?.id, r.structuredContent.drawer_id);
  });
});
