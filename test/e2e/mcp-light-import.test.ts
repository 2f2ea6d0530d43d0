/**
 * @module test/e2e/mcp-light-import
 * The MCP server is exported from the library without weighing on it: importing the built
 * library or CLI entry (every command but `loci mcp`) loads neither the MCP SDK nor zod, which
 * only `createLociMcpServer` / `serveMcp*` load on first call. Checked in a fresh process with a
 * resolve hook. Needs `npm run build`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../helpers/cli.js';
import { modulesLoaded } from '../helpers/modules.js';

const built = existsSync(join(ROOT, 'dist', 'index.js'));

function resolvedBy(script: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'loci-mcp-light-'));
  try {
    const log = join(dir, 'resolved.log');
    writeFileSync(log, '');
    writeFileSync(
      join(dir, 'hooks.mjs'),
      `import { appendFileSync } from 'node:fs';
export async function resolve(s, c, next) {
  const r = await next(s, c);
  appendFileSync(${JSON.stringify(log)}, r.url + '\\n');
  return r;
}\n`,
    );
    writeFileSync(
      join(dir, 'register.mjs'),
      `import { register } from 'node:module';\n` +
        `register(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});\n`,
    );
    const r = spawnSync(
      process.execPath,
      ['--import', pathToFileURL(join(dir, 'register.mjs')).href, '--input-type=module', '-e', script],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
    );
    assert.equal(r.status, 0, r.stderr);
    return readFileSync(log, 'utf8').split('\n').filter(Boolean);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const heavy = (urls: string[]) =>
  urls.filter((u) => /\/node_modules\/(@modelcontextprotocol\/|zod\/|zod-to-json-schema\/|ajv\/)/.test(u));

test(
  'importing the library and the CLI loads neither the MCP SDK nor zod',
  { skip: built ? false : 'dist/ is missing: run `npm run build`' },
  () => {
    const urls = resolvedBy(
      `await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist/index.js')).href)}); await ` +
        `import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist/cli/main.js')).href)});`,
    );
    assert.ok(
      urls.some((u) => u.endsWith('/dist/mcp/index.js')),
      'the MCP door itself is part of the library (the probe is not vacuous)',
    );
    assert.deepEqual(heavy(urls), []);
  },
);

test(
  'the first createLociMcpServer call loads them',
  { skip: built ? false : 'dist/ is missing: run `npm run build`' },
  () => {
    const home = mkdtempSync(join(tmpdir(), 'loci-mcp-light-home-'));
    try {
      const urls = resolvedBy(
        `const m = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist/index.js')).href)}); const s = ` +
          `await m.createLociMcpServer({ home: ${JSON.stringify(home)} }); await s.close();`,
      );
      assert.ok(heavy(urls).some((u) => u.includes('/@modelcontextprotocol/sdk/')));
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  },
);

test(
  '`loci mcp` answering its first call loads the doors its tools use, not the whole library',
  { skip: built ? false : 'dist/ is missing: run `npm run build`' },
  () => {
    const home = mkdtempSync(join(tmpdir(), 'loci-mcp-light-home-'));
    try {
      const input =
        [
          { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {} } },
          { jsonrpc: '2.0', method: 'notifications/initialized' },
          { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'loci_status', arguments: {} } },
        ]
          .map((m) => JSON.stringify(m))
          .join('\n') + '\n';
      const r = modulesLoaded([join(ROOT, 'bin', 'loci.js'), 'mcp'], {
        env: { ...process.env, LOCI_HOME: home, LOCI_EMBEDDER: '' },
        input,
      });
      assert.match(r.stdout, /"id":2/, 'the call was answered');
      const dist = r.files.filter((f) => f.startsWith(join(ROOT, 'dist'))).map((f) => relative(join(ROOT, 'dist'), f));
      assert.ok(dist.includes('mcp/server.js'), 'the probe sees the server (not vacuous)');
      const folders = new Set(dist.map((f) => f.split(sep)[0]));
      for (const absent of ['ingest', 'kg', 'embed', 'providers', 'bench', 'index.js', 'lazy.js'])
        assert.ok(!folders.has(absent), `${absent} loaded: ${dist.filter((f) => f.startsWith(absent)).join(', ')}`);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  },
);
