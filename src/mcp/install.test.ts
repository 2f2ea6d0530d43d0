/**
 * @module mcp/install.test
 * Pieces of `loci mcp install`: shell quoting of the printed command, the printed `claude mcp add`
 * accepted by Claude Code's own option grammar, the run-time launcher (never an absolute Node), and
 * `CLAUDE_PROJECT_DIR` over the working directory.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Command } from 'commander';
import { lociBin, lociLaunch } from '../internal.js';
import { claudeMcpAddCommand, installMcp, shellQuote } from './install.js';
import { mcpProjectDir } from './project.js';

test('shellQuote leaves plain words and quotes the rest', () => {
  assert.equal(shellQuote('/usr/bin/node'), '/usr/bin/node');
  assert.equal(shellQuote('LOCI_HOME=/a b'), "'LOCI_HOME=/a b'");
  assert.equal(shellQuote("it's"), `'it'\\''s'`);
  assert.equal(shellQuote(''), "''");
});

/** Splits a POSIX command line of plain and single-quoted words (what {@link shellQuote} produces). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  const re = /'((?:[^']|'\\'')*)'|(\S+)/g;
  let word = '';
  let last = 0;
  for (let m = re.exec(line); m; m = re.exec(line)) {
    if (m.index > last && /\s/.test(line.slice(last, m.index)) && word) {
      words.push(word);
      word = '';
    }
    word += m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]!;
    last = re.lastIndex;
  }
  if (word) words.push(word);
  return words;
}

/**
 * Claude Code's `claude mcp add` grammar, as its `--help` prints it: `add [options] <name>
 * <commandOrUrl> [args...]` with `-s, --scope <scope>`, `-t, --transport <transport>`,
 * `-e, --env <env...>` and `-H, --header <header...>` (both variadic: anthropics/claude-code#62332,
 * "Invalid environment variable format: <name>" when the name follows `-e KEY=value`). Returns
 * what Claude Code would register, or throws as it would.
 */
function parseClaudeMcpAdd(line: string): {
  name: string;
  command: string;
  args: string[];
  scope: string;
  env: Record<string, string>;
} {
  const words = shellWords(line);
  assert.deepEqual(words.slice(0, 3), ['claude', 'mcp', 'add']);
  let out: ReturnType<typeof parseClaudeMcpAdd> | undefined;
  const add = new Command('add')
    .exitOverride()
    .configureOutput({ writeErr: () => {}, writeOut: () => {} })
    .argument('<name>')
    .argument('<commandOrUrl>')
    .argument('[args...]')
    .option('-s, --scope <scope>', 'scope', 'local')
    .option('-t, --transport <transport>')
    .option('-e, --env <env...>')
    .option('-H, --header <header...>')
    .action((name: string, command: string, args: string[], o: { scope: string; env?: string[] }) => {
      const env: Record<string, string> = {};
      for (const e of o.env ?? []) {
        const eq = e.indexOf('=');
        if (eq <= 0) throw new Error(`Invalid environment variable format: ${e}`);
        env[e.slice(0, eq)] = e.slice(eq + 1);
      }
      out = { name, command, args, scope: o.scope, env };
    });
  add.parse(words.slice(3), { from: 'user' });
  return out!;
}

test("every printed `claude mcp add` is accepted by Claude Code's grammar", () => {
  const cmd = { command: 'node', args: ['/opt/loci dir/bin/loci.js', 'mcp'] };
  for (const scope of ['local', 'user', 'project'] as const) {
    for (const env of [{}, { LOCI_HOME: '/my palace' }, { LOCI_HOME: "/it's", OTHER: 'x=y' }] as Record<
      string,
      string
    >[]) {
      const line = claudeMcpAddCommand(scope, 'loci', env, cmd);
      assert.deepEqual(parseClaudeMcpAdd(line), { name: 'loci', command: 'node', args: cmd.args, scope, env }, line);
    }
  }
  // The form printed before the fix is rejected exactly as Claude Code rejects it.
  assert.throws(
    () => parseClaudeMcpAdd("claude mcp add --scope local -e 'LOCI_HOME=/p' loci -- loci mcp"),
    /Invalid environment variable format: loci|missing required argument/,
  );
  const r = installMcp({ scope: 'local', env: { LOCI_HOME: '/p q', PATH: '' }, cwd: tmpdir() });
  assert.equal(
    r.claudeCommand.startsWith("claude mcp add --scope local loci -e 'LOCI_HOME=/p q' -- "),
    true,
    r.claudeCommand,
  );
  assert.equal(parseClaudeMcpAdd(r.claudeCommand).env['LOCI_HOME'], '/p q');
});

test('the launcher never pins the absolute Node binary; loci on PATH counts only when it is this package', (t) => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'loci-launch-')));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const bin = lociBin();
  const none = lociLaunch({ env: { PATH: join(dir, 'empty') } });
  assert.deepEqual(none, { kind: 'node', command: 'node', args: [bin], ephemeral: false });
  const other = join(dir, 'other');
  mkdirSync(other);
  writeFileSync(join(other, 'loci'), '#!/bin/sh\n');
  chmodSync(join(other, 'loci'), 0o755);
  assert.equal(lociLaunch({ env: { PATH: other } }).kind, 'node', 'another loci on PATH is not this one');
  const global = join(dir, 'global', 'bin');
  mkdirSync(global, { recursive: true });
  symlinkSync(bin, join(global, 'loci'));
  assert.deepEqual(lociLaunch({ env: { PATH: `${other}:${global}` } }), {
    kind: 'path',
    command: 'loci',
    args: [],
    ephemeral: false,
  });
  // npx puts the project's node_modules/.bin on PATH only while it runs: that does not count…
  const project = join(dir, 'project');
  mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(bin, join(project, 'node_modules', '.bin', 'loci'));
  assert.equal(lociLaunch({ env: { PATH: join(project, 'node_modules', '.bin') } }).kind, 'node');
  // …but a project that depends on Loci gets a command relative to $CLAUDE_PROJECT_DIR.
  assert.deepEqual(lociLaunch({ projectRoot: project, env: { PATH: '' } }), {
    kind: 'project',
    command: '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/loci',
    args: [],
    ephemeral: false,
  });
});

test('CLAUDE_PROJECT_DIR wins over the working directory when it is an existing absolute folder', (t) => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'loci-projdir-')));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const sub = join(dir, 'sub');
  mkdirSync(sub);
  assert.equal(mcpProjectDir(sub, { CLAUDE_PROJECT_DIR: dir }), dir);
  assert.equal(mcpProjectDir(sub, {}), sub);
  assert.equal(mcpProjectDir(sub, { CLAUDE_PROJECT_DIR: '' }), sub);
  assert.equal(mcpProjectDir(sub, { CLAUDE_PROJECT_DIR: 'relative' }), sub);
  assert.equal(mcpProjectDir(sub, { CLAUDE_PROJECT_DIR: join(dir, 'gone') }), sub);
});
