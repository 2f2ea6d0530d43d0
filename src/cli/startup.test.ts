/**
 * @module cli/startup.test
 * Start-up of the CLI, counted in modules (never in milliseconds): `loci --version` and
 * `loci --help` load nothing under `dist/` beyond the CLI entry, and `loci search` loads neither the
 * miners, the knowledge graph, the embedders, the providers nor the redactor. Also checks that the
 * help lines listed in `commands/index.ts` (shown without loading the command modules) are the ones
 * the modules register, and how the invoked command is found in argv.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { Command, Help } from 'commander';
import { BIN, ROOT } from '../../test/helpers/cli.js';
import { modulesLoaded } from '../../test/helpers/modules.js';
import { COMMANDS } from './commands/index.js';
import { invokedCommand, runCli } from './main.js';
import { mineMain } from './mine-main.js';
import { searchMain } from './search-main.js';
import type { CliIO } from './context.js';

const built = existsSync(join(ROOT, 'dist', 'cli', 'main.js'));
const skip = built ? false : 'dist/ is missing: run `npm run build` (npm test builds first)';
const dist = join(ROOT, 'dist');

/** The files under dist/ that `loci <args>` loads, relative to dist/. */
function distModules(args: string[], env: NodeJS.ProcessEnv = process.env): string[] {
  const r = modulesLoaded([BIN, ...args], { env: { ...env, NO_COLOR: '1' } });
  assert.equal(r.status, 0, r.stderr);
  return r.files.filter((f) => f.startsWith(dist)).map((f) => relative(dist, f).split('\\').join('/'));
}

/**
 * The CLI entry: what every command loads before its own module (`--version` loads none of it).
 * `core/env.js` is the environment module (the one reader of `process.env`, a leaf of node
 * built-ins) that the entry hands to every command as `io.env`.
 */
const CLI_ENTRY = [
  'cli/main.js',
  'cli/argv.js',
  'cli/program.js',
  'cli/commands/index.js',
  'cli/context.js',
  'cli/process-io.js',
  'cli/version.js',
  'core/env.js',
];

describe('CLI start-up', () => {
  for (const args of [['--version'], ['-V'], ['--help'], ['help']]) {
    it(`loci ${args.join(' ')} loads no library module`, { skip }, () => {
      const loaded = distModules(args);
      if (args[0] !== '--version' && args[0] !== '-V')
        assert.ok(loaded.includes('cli/main.js'), 'the probe sees the CLI (it is not vacuous)');
      assert.deepEqual(
        loaded.filter((f) => !CLI_ENTRY.includes(f)),
        [],
      );
    });
  }

  it('loci search loads the store, search and palace, not the miners, graph, embedders or redactor', { skip }, () => {
    const home = mkdtempSync(join(tmpdir(), 'loci-startup-'));
    try {
      const loaded = distModules(['search', 'anything'], { ...process.env, LOCI_HOME: home, LOCI_EMBEDDER: '' });
      assert.ok(loaded.includes('cli/commands/search.js') && loaded.includes('search/hybrid.js'));
      const folders = new Set(loaded.map((f) => f.split('/')[0]));
      for (const absent of ['ingest', 'kg', 'embed', 'providers', 'redact', 'memdir', 'recall', 'mcp', 'hooks'])
        assert.ok(!folders.has(absent), `${absent}/ loaded: ${loaded.filter((f) => f.startsWith(absent)).join(', ')}`);
      assert.ok(!loaded.includes('index.js'), 'the whole library entry is not loaded');
      // The palace opens through the drawer door: no graph, tunnel, vector or in-memory adapter.
      const adapters = loaded.filter((f) =>
        /^store\/(index\.js|memory\/|sqlite\/(graph\.js|graph-rows|tunnels|vector))/.test(f),
      );
      assert.deepEqual(adapters, [], 'loci search loads only the SQLite drawer store');
      const cliModules = loaded.filter((f) => f.startsWith('cli/commands/') && f !== 'cli/commands/index.js');
      assert.deepEqual(cliModules, ['cli/commands/search.js'], 'only the search command module');
      // The plain argv forms run without commander (cli/argv.ts).
      const all = modulesLoaded([BIN, 'search', 'anything', '-n', '3'], {
        env: { ...process.env, LOCI_HOME: home, LOCI_EMBEDDER: '', NO_COLOR: '1' },
      });
      assert.equal(all.status, 0, all.stderr);
      assert.deepEqual(
        all.files.filter((f) => /[\\/]commander[\\/]/.test(f)),
        [],
        'loci search loads no commander module',
      );
      assert.ok(!loaded.includes('cli/program.js'));
      // Bundled, a plain search is one file of the bundles (its own entry): no chunks to resolve and read.
      if (existsSync(join(dist, 'bundle', 'search.js')))
        assert.deepEqual(
          all.raw.filter((f) => f.startsWith(join(dist, 'bundle'))).map((f) => relative(join(dist, 'bundle'), f)),
          ['search.js'],
        );
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it(
    're-mining an unchanged folder loads neither the graph nor the parts of the library mining never uses',
    { skip },
    () => {
      const home = mkdtempSync(join(tmpdir(), 'loci-startup-'));
      const tree = mkdtempSync(join(tmpdir(), 'loci-startup-tree-'));
      try {
        writeFileSync(join(tree, 'notes.md'), '# Notes\n\nWe moved the rate limiter to Redis because Alice asked.\n');
        writeFileSync(join(tree, 'app.ts'), 'export function limit(n: number): number {\n  return n * 2;\n}\n');
        const env = { ...process.env, LOCI_HOME: home, LOCI_EMBEDDER: '' };
        const first = distModules(['mine', tree], env);
        assert.ok(
          first.some((f) => f.startsWith('kg/')),
          'the first mine extracts the graph (the probe sees kg/)',
        );
        const again = distModules(['mine', tree], env);
        const withDeps = modulesLoaded([BIN, 'mine', tree], { env: { ...env, NO_COLOR: '1' } });
        assert.deepEqual(
          withDeps.files.filter((f) => /[\\/]commander[\\/]/.test(f)),
          [],
          'loci mine <path> loads no commander module',
        );
        const folders = new Set(again.map((f) => f.split('/')[0]));
        for (const absent of ['kg', 'memdir', 'recall', 'wakeup', 'providers', 'embed', 'mcp', 'hooks'])
          assert.ok(!folders.has(absent), `${absent}/ loaded: ${again.filter((f) => f.startsWith(absent)).join(', ')}`);
      } finally {
        rmSync(home, { recursive: true, force: true });
        rmSync(tree, { recursive: true, force: true });
      }
    },
  );
});

describe('the help lines of commands/index.ts', () => {
  it('are exactly the top-level commands each module registers', async () => {
    const io: CliIO = {
      stdout: () => {},
      stderr: () => {},
      isTTY: false,
      readStdin: async () => '',
      env: {},
      cwd: process.cwd(),
    };
    const help = new Help();
    for (const m of COMMANDS) {
      const program = new Command('loci');
      (await m.load()).register(program, { io, globals: () => ({}), setExit: () => {} });
      const registered = program.commands.map((c) => ({
        name: c.name(),
        term: help.subcommandTerm(c),
        description: c.description(),
        ...((c as unknown as { _hidden: boolean })._hidden ? { hidden: true } : {}),
      }));
      assert.deepEqual(registered, m.commands);
    }
  });

  it('make `loci --help` list every command', async () => {
    let out = '';
    const code = await runCli(['--help'], {
      stdout: (s) => (out += s),
      stderr: () => {},
      isTTY: false,
      readStdin: async () => '',
      env: {},
      cwd: process.cwd(),
    });
    assert.equal(code, 0);
    for (const m of COMMANDS)
      for (const c of m.commands) {
        if (c.hidden) assert.ok(!out.includes(`  ${c.term} `), c.name);
        else assert.match(out, new RegExp(`\\n  ${c.term.replace(/[.[\]|]/g, '\\$&')}\\s`), c.name);
      }
  });
});

describe('the start-up entry of loci search', () => {
  it('declines every form but a plain local search: the CLI runs those', async () => {
    const declined = async (argv: string[], env: NodeJS.ProcessEnv = {}) =>
      assert.equal(await searchMain(argv, env), undefined, `${argv.join(' ')} ${JSON.stringify(env)}`);
    await declined(['search']);
    await declined(['search', 'x', '--help']);
    await declined(['search', '-h']);
    await declined(['search', 'x', '--bogus']);
    await declined(['--server', 'http://127.0.0.1:1', 'search', 'x']);
    await declined(['--database-url', 'postgres://h/db', 'search', 'x']);
    await declined(['search', 'x'], { LOCI_SERVER: 'http://127.0.0.1:1' });
    await declined(['search', 'x'], { LOCI_DATABASE_URL: 'postgres://h/db' });
    await declined(['search', 'x'], { LOCI_EMBEDDER: 'hash' });
    await declined(['get', 'search']);
  });
});

describe('the start-up entry of loci mine', () => {
  it('declines every form but the direct form of mine: the CLI runs those', async () => {
    const declined = async (argv: string[]) => assert.equal(await mineMain(argv, {}), undefined, argv.join(' '));
    await declined(['mine']);
    await declined(['mine', 'x', '--help']);
    await declined(['mine', '-h']);
    await declined(['mine', 'x', '--no-redact']);
    await declined(['mine', 'x', '--ignore', '*.log']);
    await declined(['mine', 'x', 'y']);
    await declined(['--server', 'http://127.0.0.1:1', 'mine', 'x']);
    await declined(['search', 'mine']);
  });
});

describe('invokedCommand', () => {
  it('finds the command after the global options', () => {
    assert.equal(invokedCommand(['search', 'x']), 'search');
    assert.equal(invokedCommand(['--home', '/h', 'search', 'x']), 'search');
    assert.equal(invokedCommand(['--home=/h', 'kg', 'query']), 'kg');
    assert.equal(invokedCommand(['help', 'memory']), 'memory');
    assert.equal(invokedCommand(['help']), 'help');
    assert.equal(invokedCommand(['--help']), undefined);
    assert.equal(invokedCommand(['-V']), undefined);
    assert.equal(invokedCommand([]), undefined);
  });
});
