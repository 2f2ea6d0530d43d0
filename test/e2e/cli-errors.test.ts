/**
 * @module test/e2e/cli-errors
 * Every CLI error is one line `loci: <message> [CODE]` (issue 11, defect 5): echoed values are
 * shortened and single-lined, commander's usage errors carry CLI_USAGE and a `--help` hint, dates
 * are checked against the calendar. The commands, then a property test over read-only
 * commands with random arguments, all through the in-process `runCli`.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { runCli } from '../../src/cli/main.js';
import type { CliIO } from '../../src/cli/context.js';
import { tempDir } from '../helpers/cli.js';
import { lociIn } from '../helpers/cli-in-process.js';

const ONE_LINE_ERROR = /^loci: [^\n]+ \[[A-Z_]+\]\n$/;

function assertOneLineError(stderr: string, code: string): void {
  assert.match(stderr, ONE_LINE_ERROR, `not one line: ${JSON.stringify(stderr.slice(0, 300))}`);
  assert.ok(stderr.endsWith(` [${code}]\n`), stderr);
}

describe('CLI errors are one line with a code', () => {
  let work: { dir: string; cleanup: () => void };
  let home: string;
  before(() => {
    work = tempDir();
    home = join(work.dir, 'home');
  });
  after(() => work.cleanup());

  test('a line break in a value is escaped, a 100 KB value is cut to a prefix', async () => {
    const r = await lociIn(['get', 'a\nb'], { home });
    assert.equal(r.code, 2);
    assertOneLineError(r.stderr, 'DRAWER_NOT_FOUND');
    assert.match(r.stderr, /id a\\nb /);
    const big = await lociIn(['get', 'x'.repeat(100_000)], { home });
    assertOneLineError(big.stderr, 'DRAWER_NOT_FOUND');
    assert.ok(big.stderr.length < 500, `${big.stderr.length} chars`);
    assert.match(big.stderr, /…\(100000 chars\)/);
  });

  test("commander's usage errors become CLI_USAGE with a --help hint for the command", async () => {
    const extra = await lociIn(['embed', 'x'], { home });
    assert.equal(extra.code, 2);
    assertOneLineError(extra.stderr, 'CLI_USAGE');
    assert.match(extra.stderr, /too many arguments.*run `loci embed --help` for usage/);
    const missing = await lociIn(['diary', 'read'], { home });
    assert.equal(missing.code, 2);
    assertOneLineError(missing.stderr, 'CLI_USAGE');
    assert.match(missing.stderr, /--agent.*`loci diary read --help`/);
    const typo = await lociIn(['serach', 'x'], { home });
    assertOneLineError(typo.stderr, 'CLI_USAGE');
    assert.match(typo.stderr, /Did you mean search\?/);
  });

  test('impossible dates are refused wherever the CLI takes a date', async () => {
    for (const args of [
      ['search', 'x', '--since', '2025-13-45'],
      ['search', 'x', '--until', '2025-02-30'],
      ['diary', 'read', '--agent', 'a', '--since', '2025-13-45'],
      ['kg', 'query', 'x', '--as-of', '2026-01-15T25:00Z'],
    ]) {
      const r = await lociIn(args, { home });
      assert.equal(r.code, 2, args.join(' '));
      assertOneLineError(r.stderr, 'INVALID_ARGUMENT');
    }
    assert.equal((await lociIn(['search', 'x', '--since', '2024-02-29'], { home })).code, 0);
  });

  test('property: read-only commands with random arguments never crash and fail on one line', async () => {
    const io = (out: { stderr: string }): CliIO => ({
      stdout: () => {},
      stderr: (s) => void (out.stderr += s),
      isTTY: false,
      readStdin: async () => '',
      env: { LOCI_HOME: home, NO_COLOR: '1', LOCI_EMBEDDER: 'none', LOCI_KG_EXTRACT: '0' },
      cwd: work.dir,
    });
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constantFrom('', '-', '--', '\n', '2025-13-45', '..', '\u202e'),
      fc.string({ maxLength: 3000 }),
    );
    const flag = fc.constantFrom(
      '--since',
      '--until',
      '--limit',
      '-n',
      '--wing',
      '--room',
      '--json',
      '--agent',
      '--as-of',
      '--context',
      '--bogus',
    );
    const cmd = fc.constantFrom(
      ['get'],
      ['search'],
      ['list'],
      ['list', 'drawers'],
      ['status'],
      ['kg', 'query'],
      ['kg', 'timeline'],
      ['kg', 'entities'],
      ['diary', 'read'],
      ['traverse'],
      ['nosuch'],
    );
    await fc.assert(
      fc.asyncProperty(cmd, fc.array(fc.oneof(text, flag), { maxLength: 6 }), async (c, rest) => {
        const out = { stderr: '' };
        const code = await runCli([...c, ...rest], io(out));
        assert.ok(code === 0 || code === 1 || code === 2, `exit ${code}`);
        const errors = out.stderr.split('\n').filter((l) => l.startsWith('loci:'));
        if (code !== 0) assert.equal(errors.length, 1, out.stderr.slice(0, 500));
        for (const l of errors) {
          assert.match(l, /^loci: .+ \[[A-Z_]+\]$/, l.slice(0, 300));
          assert.doesNotMatch(l, /\[INTERNAL\]$/, l.slice(0, 300));
          assert.ok(l.length < 2100, `${l.length} chars`);
        }
      }),
      { numRuns: 150 },
    );
  });
});
