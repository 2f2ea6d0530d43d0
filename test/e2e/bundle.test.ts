/**
 * @module test/e2e/bundle
 * The start-up bundles of `scripts/build-bundles.mjs` (issue 12, point 8): `npm run build` makes
 * `dist/bundle/cli.js`, `dist/bundle/hooks.js` and the entries of `loci search` and `loci mine`;
 * `bin/loci.js` and the installed hook entry `dist/hooks/main.js` run them; what they load stands for
 * the same modules as the tsc output (`--help` still no library module), and paths computed from
 * `import.meta.url` in bundled code are those of the tsc files. Needs `npm run build`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { BIN, ROOT } from '../helpers/cli.js';
import { modulesLoaded } from '../helpers/modules.js';

const dist = join(ROOT, 'dist');
const bundle = join(dist, 'bundle');
const skip = existsSync(join(dist, 'cli', 'main.js')) ? false : 'dist/ is missing: run `npm run build`';

describe('start-up bundles', { skip }, () => {
  it('are made by the build, with the modules of each file listed', () => {
    for (const f of ['cli.js', 'hooks.js', 'inputs.json']) assert.ok(existsSync(join(bundle, f)), `dist/bundle/${f}`);
    const inputs = JSON.parse(readFileSync(join(bundle, 'inputs.json'), 'utf8')) as Record<string, string[]>;
    assert.ok(inputs['cli.js']!.includes('dist/cli/main.js'));
    assert.ok(inputs['hooks.js']!.includes('dist/hooks/process.js'));
    // Every dynamic import stays a chunk of its own: the entry of `--help` holds no command module.
    assert.deepEqual(
      inputs['cli.js']!.filter((m) => m.startsWith('dist/cli/commands/') && m !== 'dist/cli/commands/index.js'),
      [],
    );
  });

  it('make loci search one file whose dynamic imports are modules of the tsc output', () => {
    const inputs = JSON.parse(readFileSync(join(bundle, 'inputs.json'), 'utf8')) as Record<string, string[]>;
    assert.ok(inputs['search.js']!.includes('dist/cli/search-main.js'));
    assert.ok(inputs['search.js']!.includes('dist/search/hybrid.js'));
    const text = readFileSync(join(bundle, 'search.js'), 'utf8');
    const dynamic = [...text.matchAll(/\bimport\("([^"]+)"\)/g)].map((m) => m[1]!);
    assert.ok(dynamic.length > 0);
    for (const d of dynamic) {
      assert.match(d, /^\.\.\//, `${d} leaves dist/bundle`);
      assert.ok(existsSync(join(bundle, d)), `${d} is a tsc module`);
    }
  });

  it('run `loci mine <path>` from its own build: an unchanged re-mine loads no chunk of the CLI build', () => {
    const home = mkdtempSync(join(tmpdir(), 'loci-bundle-'));
    try {
      const tree = join(home, 'tree');
      mkdirSync(tree);
      writeFileSync(join(tree, 'notes.md'), '# Notes\n\nThe cache moved to Redis.\n');
      const env = { ...process.env, LOCI_HOME: join(home, 'palace'), LOCI_EMBEDDER: 'none' };
      const first = modulesLoaded([BIN, 'mine', tree, '--json'], { env });
      assert.equal(first.status, 0, first.stderr);
      assert.equal((JSON.parse(first.stdout) as { files_mined: number }).files_mined, 1);
      const again = modulesLoaded([BIN, 'mine', tree, '--json'], { env });
      assert.equal(again.status, 0, again.stderr);
      assert.equal((JSON.parse(again.stdout) as { files_unchanged: number }).files_unchanged, 1);
      const files = again.raw.filter((f) => f.startsWith(bundle)).map((f) => relative(bundle, f));
      assert.ok(files.includes('mine.js'), 'the bin runs the mine bundle');
      assert.deepEqual(
        files.filter((f) => !f.startsWith('mine')),
        [],
      );
      // A failure is reported as the CLI reports it (the catalogue error, exit 2 for a user error).
      const missing = spawnSync(process.execPath, [BIN, 'mine', join(home, 'nowhere')], { env, encoding: 'utf8' });
      assert.equal(missing.status, 2, missing.stderr);
      assert.match(missing.stderr, /^loci: .*\[PATH_NOT_FOUND\]/);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('run `loci --help` from the CLI bundle, loading no library module', () => {
    const r = modulesLoaded([BIN, '--help'], { env: { ...process.env, NO_COLOR: '1' } });
    assert.equal(r.status, 0, r.stderr);
    assert.ok(r.raw.includes(join(bundle, 'cli.js')), 'the bin runs the bundle');
    // What it stands for: the CLI entry, the environment leaf and commander (cli/startup.test.ts).
    const library = r.files.filter((f) => f.startsWith(dist) && !/[\\/](cli[\\/]|core[\\/]env\.js)/.test(f));
    assert.deepEqual(library, []);
    const version = modulesLoaded([BIN, '--version']);
    assert.deepEqual(
      version.raw.filter((f) => f.startsWith(dist)),
      [],
    );
  });

  it('run the installed hook entry from the hook bundle', () => {
    const home = mkdtempSync(join(tmpdir(), 'loci-bundle-'));
    try {
      const env = { ...process.env, LOCI_HOME: home, LOCI_HOOK_SERVER: '0', LOCI_HOOK_WORKER: '0' };
      const r = modulesLoaded([join(dist, 'hooks', 'main.js'), 'stop'], { env, input: '{}' });
      assert.equal(r.status, 0, r.stderr);
      assert.ok(r.raw.includes(join(bundle, 'hooks.js')), 'dist/hooks/main.js runs the bundle');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('are not run when a tsc build is newer (a stale bundle never runs)', () => {
    const info = join(dist, '.tsbuildinfo');
    if (!existsSync(info)) return;
    const was = statSync(info);
    const later = new Date(statSync(join(bundle, 'inputs.json')).mtimeMs + 60_000);
    try {
      utimesSync(info, later, later);
      const r = modulesLoaded([BIN, '--help'], { env: { ...process.env, NO_COLOR: '1' } });
      assert.equal(r.status, 0, r.stderr);
      assert.ok(r.raw.includes(join(dist, 'cli', 'main.js')) && !r.raw.some((f) => f.startsWith(bundle)));
      const home = mkdtempSync(join(tmpdir(), 'loci-bundle-'));
      try {
        const env = { ...process.env, LOCI_HOME: home, LOCI_HOOK_SERVER: '0', LOCI_HOOK_WORKER: '0' };
        const h = modulesLoaded([join(dist, 'hooks', 'main.js'), 'stop'], { env, input: '{}' });
        assert.ok(h.raw.includes(join(dist, 'hooks', 'process.js')) && !h.raw.some((f) => f.startsWith(bundle)));
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    } finally {
      utimesSync(info, was.atime, was.mtime);
    }
  });

  it('answer `loci mcp` with the version of package.json', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const home = mkdtempSync(join(tmpdir(), 'loci-bundle-'));
    try {
      const init = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      };
      const r = spawnSync(process.execPath, [BIN, 'mcp'], {
        input: `${JSON.stringify(init)}\n`,
        env: { ...process.env, LOCI_HOME: home },
        encoding: 'utf8',
      });
      assert.equal(r.status, 0, r.stderr);
      const answer = JSON.parse(r.stdout.split('\n')[0]!) as { result: { serverInfo: { version: string } } };
      assert.equal(answer.result.serverInfo.version, pkg.version);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
