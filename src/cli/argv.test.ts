/**
 * @module cli/argv.test
 * The direct parser of the hot commands: the plain forms it reads, the ones it leaves to commander,
 * and that a search gives the same answer through it and through commander.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { lociIn } from '../../test/helpers/cli-in-process.js';
import { parseDirect, type OptionSpec } from './argv.js';

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
});

describe('loci search through the direct parser and through commander', () => {
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
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
