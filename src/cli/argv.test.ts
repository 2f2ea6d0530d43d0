/**
 * @module cli/argv.test
 * The direct parser of the hot commands: the plain forms it reads, the ones it leaves to commander,
 * and that a search gives the same answer through it and through commander.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { lociIn } from '../../test/helpers/cli-in-process.js';
import { Command } from 'commander';
import { parseDirect, type OptionSpec } from './argv.js';
import { COMMANDS } from './commands/index.js';

const OPTIONS: OptionSpec[] = [
  { flags: '-w, --wing <wing>', description: '' },
  { flags: '-n, --limit <k>', description: '' },
  { flags: '--dry-run', description: '' },
  { flags: '--json', description: '' },
];

describe('parseDirect', () => {
  it('reads words, value options in three forms, flags and a global --home before the command', () => {
    assert.deepEqual(parseDirect(['search', 'why', 'oauth', '-n', '3', '--wing=app', '--json'], 'search', OPTIONS), {
      args: ['why', 'oauth'],
      opts: { limit: '3', wing: 'app', json: true },
    });
    assert.deepEqual(parseDirect(['--home', '/h', 'search', 'x', '--dry-run', '--limit', '-1'], 'search', OPTIONS), {
      home: '/h',
      args: ['x'],
      opts: { dryRun: true, limit: '-1' },
    });
    assert.deepEqual(parseDirect(['--home=/h', 'search', '-', 'x'], 'search', OPTIONS), {
      home: '/h',
      args: ['-', 'x'],
      opts: {},
    });
  });

  it('leaves every other form to commander', () => {
    const declined = [
      ['search'],
      ['search', '--json'],
      ['search', 'x', '--help'],
      ['search', 'x', '--', '-y'],
      ['search', 'x', '-n3'],
      ['search', 'x', '--unknown'],
      ['search', 'x', '--json=1'],
      ['search', 'x', '--limit'],
      ['search', 'x', '--home', '/h'],
      ['search', '-5'],
      ['--json', 'search', 'x'],
      ['help', 'search'],
    ];
    for (const argv of declined) assert.equal(parseDirect(argv, 'search', OPTIONS), undefined, argv.join(' '));
  });

  it('reads a command without words when maxArgs is 0, and leaves it a word (a subcommand) to commander', () => {
    const level = [{ flags: '--log-level <level>', description: '' }];
    assert.deepEqual(parseDirect(['mcp'], 'mcp', level, 0), { args: [], opts: {} });
    assert.deepEqual(parseDirect(['--home', '/h', 'mcp', '--log-level', 'debug'], 'mcp', level, 0), {
      home: '/h',
      args: [],
      opts: { logLevel: 'debug' },
    });
    for (const argv of [
      ['mcp', 'install'],
      ['mcp', '--http'],
      ['mcp', '--help'],
    ])
      assert.equal(parseDirect(argv, 'mcp', level, 0), undefined, argv.join(' '));
  });
});

describe('the direct forms of the command modules', () => {
  it('read only options that the command also registers with commander, with the same flags', async () => {
    const io = { stdout: () => {}, stderr: () => {}, isTTY: false, readStdin: async () => '', env: {}, cwd: '.' };
    let seen = 0;
    for (const m of COMMANDS) {
      const mod = await m.load();
      if (!mod.direct) continue;
      seen++;
      const program = new Command('loci');
      mod.register(program, { io, globals: () => ({}), setExit: () => {} });
      const cmd = program.commands.find((c) => c.name() === mod.direct!.name);
      assert.ok(cmd, `${mod.direct.name} is registered`);
      const registered = new Set(cmd.options.map((o) => o.flags));
      for (const o of mod.direct.options) assert.ok(registered.has(o.flags), `${mod.direct.name} ${o.flags}`);
    }
    assert.ok(seen >= 3, 'search, mine and mcp have a direct form');
  });
});

describe('loci search and mine through the direct parser and through commander', () => {
  it('prints the same results and reports the same errors', async () => {
    const home = mkdtempSync(join(tmpdir(), 'loci-argv-'));
    try {
      const add = (text: string) => lociIn(['diary', 'write', '--agent', 'bench', text], { home });
      await add('the rate limiter uses a sliding window in redis');
      await add('login tokens expire after one hour');
      // `-n 2` is read directly; `-n2` (an attached value) goes through commander.
      const direct = await lociIn(['search', 'redis', 'window', '-n', '2', '--json'], { home });
      const viaCommander = await lociIn(['search', 'redis', 'window', '-n2', '--json'], { home });
      assert.equal(direct.code, 0, direct.stderr);
      const strip = (s: string) => s.replace(/"took_ms": [\d.]+/, '');
      assert.equal(strip(direct.stdout), strip(viaCommander.stdout));
      assert.match(direct.stdout, /sliding window/);
      const bad = await lociIn(['search', 'x', '-n', '0'], { home });
      const badCommander = await lociIn(['search', 'x', '-n0'], { home });
      assert.equal(bad.code, 2);
      assert.deepEqual([bad.code, bad.stderr], [badCommander.code, badCommander.stderr]);
      // loci mine: `mine <dir> --json` is read directly, `mine --json -- <dir>` by commander.
      const tree = join(home, 'tree');
      mkdirSync(tree);
      writeFileSync(join(tree, 'notes.md'), '# Notes\n\nThe limiter keeps a window per user.\n');
      const mined = await lociIn(['mine', '--json', '--', tree], { home });
      const again = await lociIn(['mine', tree, '--json'], { home });
      assert.equal(again.code, 0, again.stderr);
      const files = (r: { stdout: string }) => JSON.parse(r.stdout) as { files_mined: number; files_unchanged: number };
      assert.deepEqual([files(mined).files_mined, files(again).files_unchanged], [1, 1]);
      const two = await lociIn(['mine', tree, tree], { home });
      assert.equal(two.code, 2, 'a second path is a usage error (commander reports it)');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
