/**
 * @module test/e2e/memory-cli
 * `loci memory …` in-process through the CLI's entry function (`lociIn`, and `runCli` with a
 * hand-made IO): where, add (flags and stdin), list --json, show, edit, forget, index, errors.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../src/cli/main.js';
import type { CliIO } from '../../src/cli/context.js';
import { tempDir } from '../helpers/cli.js';
import { lociIn } from '../helpers/cli-in-process.js';

/** Environment that isolates Claude Code's and Loci's homes. */
function envFor(base: string): NodeJS.ProcessEnv {
  return {
    HOME: join(base, 'home'),
    CLAUDE_CONFIG_DIR: '',
    CLAUDE_CODE_PROJECT_DIR_NAME: '',
    CLAUDE_CODE_DISABLE_AUTO_MEMORY: '',
    LOCI_HOME: join(base, 'loci'),
  };
}

function gitRepo(dir: string, remote: string): void {
  mkdirSync(dir, { recursive: true });
  execFileSync('git', ['init', '-q', dir]);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', remote]);
}

describe('loci memory (CLI)', () => {
  let work: { dir: string; cleanup: () => void };
  let base: string;
  let proj: string;
  const run = (args: string[], input = '') => lociIn(['memory', ...args], { cwd: proj, env: envFor(base), input });
  before(() => {
    work = tempDir();
    base = realpathSync(work.dir);
    proj = join(base, 'widget');
    gitRepo(proj, 'git@example.com:acme/widget.git');
  });
  after(() => work.cleanup());

  test('where: Loci own directory first, Claude Code directory once it exists', async () => {
    const w = await run(['where', '--json']);
    assert.equal(w.code, 0, w.stderr);
    const j = JSON.parse(w.stdout);
    assert.equal(j.kind, 'loci');
    assert.match(j.projectId, /^widget-[0-9a-f]{8}$/);
    assert.equal(j.dir, join(base, 'loci', 'projects', j.projectId, 'memory'));
    assert.equal(j.projectRoot, proj);
    assert.match(j.reason, /no memory directory/);
    const claudeDir = join(base, 'home', '.claude', 'projects', proj.replace(/[^a-zA-Z0-9]/g, '-'), 'memory');
    assert.equal(j.claudeDir, claudeDir);
    assert.equal(JSON.parse((await run(['where', '--json', '--claude'])).stdout).kind, 'claude');
    const text = await run(['where']);
    assert.match(text.stdout, /kind\s+loci/);
    const other = await lociIn(['--home', join(base, 'other'), 'memory', 'where', '--json'], {
      cwd: proj,
      env: envFor(base),
    });
    assert.ok(JSON.parse(other.stdout).dir.startsWith(join(base, 'other', 'projects')), '--home is honoured');
  });

  test("add, list --json, show, edit, forget, index in Claude Code's directory", async () => {
    const claude = JSON.parse((await run(['where', '--json'])).stdout).claudeDir as string;
    mkdirSync(claude, { recursive: true });
    const a = await run([
      'add',
      '--type',
      'feedback',
      '--name',
      'No Mocks',
      '--description',
      'integration tests hit a real DB',
      '--body',
      'Use a real database.',
      '--why',
      'mocks hid a bug',
      '--how',
      'open SQLite in a temp dir',
    ]);
    assert.equal(a.code, 0, a.stderr);
    assert.match(a.stdout, /saved feedback memory no-mocks/);
    assert.ok(existsSync(join(claude, 'feedback_no-mocks.md')));
    const s = await run(
      ['add', '--type', 'project', '--name', 'release freeze', '--description', 'freeze 2026-03-05..09'],
      'Merges frozen 2026-03-05 to 2026-03-09.\n',
    );
    assert.equal(s.code, 0, s.stderr);
    assert.match(
      readFileSync(join(claude, 'project_release-freeze.md'), 'utf8'),
      /Merges frozen 2026-03-05 to 2026-03-09\.\n\n\*\*Why:\*\* \(not recorded\)/,
    );

    const l = await run(['list', '--json']);
    assert.equal(l.code, 0, l.stderr);
    const parsed = JSON.parse(l.stdout);
    assert.deepEqual(Object.keys(parsed), ['memories']);
    assert.equal(parsed.memories.length, 2);
    for (const m of parsed.memories) {
      for (const k of ['name', 'type', 'description', 'file', 'modified']) assert.ok(k in m, k);
      assert.ok(!Number.isNaN(Date.parse(m.modified)));
    }
    assert.deepEqual(parsed.memories.map((m: { file: string }) => m.file).sort(), [
      'feedback_no-mocks.md',
      'project_release-freeze.md',
    ]);
    assert.deepEqual(
      JSON.parse((await run(['list', '--json', '--type', 'project'])).stdout).memories.map(
        (m: { name: string }) => m.name,
      ),
      ['release-freeze'],
    );

    const show = JSON.parse((await run(['show', 'No Mocks', '--json'])).stdout);
    assert.match(show.memory.body, /\*\*How to apply:\*\* open SQLite in a temp dir/);
    assert.match((await run(['show', 'feedback_no-mocks.md'])).stdout, /^---\nname: no-mocks\n/m);

    const e = await run(['edit', 'no-mocks', '--description', 'never mock the database', '--pinned']);
    assert.equal(e.code, 0, e.stderr);
    const index = readFileSync(join(claude, 'MEMORY.md'), 'utf8');
    assert.equal(index.split('\n')[0], '- [no-mocks](feedback_no-mocks.md) — never mock the database');
    const body = await run(['edit', 'release-freeze'], 'Freeze moved to 2026-03-12..16.\n');
    assert.equal(body.code, 0, body.stderr);
    assert.match(readFileSync(join(claude, 'project_release-freeze.md'), 'utf8'), /Freeze moved to 2026-03-12\.\.16\./);

    const f = await run(['forget', 'release-freeze', '--json']);
    assert.equal(f.code, 0, f.stderr);
    assert.equal(JSON.parse(f.stdout).forgotten.file, 'project_release-freeze.md');
    assert.ok(!existsSync(join(claude, 'project_release-freeze.md')));

    writeFileSync(
      join(claude, 'reference_extra.md'),
      '---\nname: extra\ndescription: written by hand\nmetadata:\n  type: reference\n---\nx\n',
    );
    const i = await run(['index', '--json']);
    assert.equal(i.code, 0, i.stderr);
    const stats = JSON.parse(i.stdout);
    assert.deepEqual([stats.index.entries, stats.loaded.truncated], [2, false]);
    assert.match(readFileSync(join(claude, 'MEMORY.md'), 'utf8'), /\(reference_extra\.md\) — written by hand/);
  });

  test('errors: exit 2 with a code on stderr', async () => {
    const nf = await run(['show', 'no-mock']);
    assert.equal(nf.code, 2);
    assert.match(nf.stderr, /did you mean "no-mocks"\? \[MEMORY_NOT_FOUND\]/);
    const bad = await run(['add', '--type', 'note', '--name', 'x', '--description', 'd', '--body', 'b']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /\[MEMORY_INVALID_TYPE\]/);
    const dup = await run(['add', '--type', 'user', '--name', 'no mocks', '--description', 'd', '--body', 'b']);
    assert.equal(dup.code, 2);
    assert.match(dup.stderr, /\[MEMORY_EXISTS\]/);
    const priv = await run([
      'add',
      '--type',
      'user',
      '--name',
      'me',
      '--description',
      'd',
      '--body',
      'b',
      '--privacy',
      'team',
    ]);
    assert.match(priv.stderr, /\[MEMORY_PRIVACY_INVALID\]/);
  });

  test('bad frontmatter (a YAML alias) is skipped with a one-line warning; the folder still works', async () => {
    const m = join(base, 'm');
    mkdirSync(m, { recursive: true });
    writeFileSync(join(m, 'user_x.md'), '---\nname: x\ndescription: d\ntype: user\nb: *x\n---\nbody\n');
    writeFileSync(join(m, 'user_ok.md'), '---\nname: ok\ndescription: fine\ntype: user\n---\nbody\n');
    const list = await run(['list', '--dir', m]);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /ok\s+\S+\s+fine/);
    const warnings = list.stderr.trim().split('\n');
    assert.equal(warnings.length, 1, list.stderr);
    assert.match(warnings[0]!, /^loci: warning: skipped .*user_x\.md: its frontmatter cannot be read \(.*alias.*\)/i);
    assert.doesNotMatch(list.stderr, /unexpected error| {4}at /);
    assert.equal((await run(['index', '--dir', m])).code, 0);
    assert.equal((await run(['show', '--dir', m, 'user_x'])).code, 0);
  });
});

describe('loci memory (in-process runCli)', () => {
  let work: { dir: string; cleanup: () => void };
  before(() => {
    work = tempDir();
  });
  after(() => work.cleanup());

  function io(stdin = ''): CliIO & { out: string[]; err: string[] } {
    const out: string[] = [];
    const err: string[] = [];
    return {
      out,
      err,
      stdout: (s) => out.push(s),
      stderr: (s) => err.push(s),
      isTTY: false,
      readStdin: async () => stdin,
      env: envFor(work.dir),
      cwd: work.dir,
    };
  }

  test('add from stdin, list --json, forget, with --dir', async () => {
    const dir = join(work.dir, 'mem');
    const a = io('The user prefers small pull requests.\n');
    assert.equal(
      await runCli(['memory', 'add', '--dir', dir, '-t', 'user', '-n', 'PR size', '-d', 'prefers small PRs'], a),
      0,
      a.err.join(''),
    );
    assert.match(readFileSync(join(dir, 'user_pr-size.md'), 'utf8'), /The user prefers small pull requests\./);
    const l = io();
    assert.equal(await runCli(['memory', 'list', '--json', '--dir', dir], l), 0);
    const j = JSON.parse(l.out.join(''));
    assert.deepEqual(
      j.memories.map((m: { name: string; type: string; privacy: string }) => [m.name, m.type, m.privacy]),
      [['pr-size', 'user', 'private']],
    );
    const w = io();
    assert.equal(await runCli(['memory', 'where', '--json', '--dir', dir], w), 0);
    assert.deepEqual([JSON.parse(w.out.join('')).kind, JSON.parse(w.out.join('')).dir], ['explicit', dir]);
    const f = io();
    assert.equal(await runCli(['memory', 'forget', 'pr-size', '--dir', dir], f), 0);
    const nf = io();
    assert.equal(await runCli(['memory', 'forget', 'pr-size', '--dir', dir], nf), 2);
    assert.match(nf.err.join(''), /\[MEMORY_NOT_FOUND\]/);
  });
});
