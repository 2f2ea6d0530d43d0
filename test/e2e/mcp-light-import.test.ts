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
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../helpers/cli.js';

const built = existsSync(join(ROOT, 'dist', 'index.js'));

function resolvedBy(script: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'loci-mcp-light-'));
  try {
    const log = join(dir, 'resolved.log');
    writeFileSync(log, '');
    writeFileSync(
      join(dir, 'hooks.mjs'),
      `import { appendFileSync } from 'node:fs';\n` +
        'export async function resolve(s, c, next) {\n' +
        `  const r = await next(s, c); appendFileSync(${JSON.stringify(log)}, r.url + '\\n'); return r;\n` +
        '}\n',
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
  'importing the library, the CLI and the MCP door loads neither the MCP SDK nor zod',
  { skip: built ? false : 'dist/ is missing: run `npm run build`' },
  () => {
    const entries = ['dist/index.js', 'dist/internal.js', 'dist/cli/main.js', 'dist/mcp/index.js'];
    const urls = resolvedBy(
      entries.map((e) => `await import(${JSON.stringify(pathToFileURL(join(ROOT, e)).href)});`).join(' '),
    );
    assert.ok(
      urls.some((u) => u.endsWith('/dist/mcp/index.js')),
      'the MCP door itself was loaded (the probe is not vacuous)',
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
        `const m = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist/mcp/index.js')).href)}); ` +
          `const s = await m.createLociMcpServer({ home: ${JSON.stringify(home)} }); await s.close();`,
      );
      assert.ok(heavy(urls).some((u) => u.includes('/@modelcontextprotocol/sdk/')));
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  },
);
