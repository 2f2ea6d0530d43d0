/**
 * @module test/e2e/hooks-install.test
 * `loci hooks install` through the built bin: merging into settings that already hold other hooks
 * and keys, idempotence, in-place replacement of an older Loci handler, `--uninstall`, `--print`,
 * scopes, a broken file, and the installed command actually running as Claude Code would run it
 * (through a shell). Needs `npm run build`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import {
  hookInput,
  hookWorld,
  lociInWorld,
  logLines,
  NEEDS_BUILD,
  until,
  type HookWorld,
} from '../fixtures/hooks/support.js';
import { BIN } from '../helpers/cli.js';

let w: HookWorld;
let settings: string;
beforeEach(() => {
  w = hookWorld({ LOCI_HOOK_WORKER: '0' });
  mkdirSync(join(w.project, '.git'));
  mkdirSync(join(w.project, '.claude'));
  settings = join(w.project, '.claude', 'settings.local.json');
});
afterEach(() => w.cleanup());

const notifier = { type: 'command', command: 'npx turn-notifier --sound', timeout: 3 };
const ORIGINAL = {
  permissions: { allow: ['Bash(npm test)'], deny: [] },
  env: { FOO: 'bar' },
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard-bash.sh' }] }],
    SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: 'echo hello' }] }],
    Stop: [{ hooks: [notifier, { type: 'command', command: 'loci hook stop' }] }],
  },
  model: 'sonnet',
};

type Settings = {
  hooks: Record<string, { matcher?: string; hooks: { type: string; command: string; timeout?: number }[] }[]>;
} & Record<string, unknown>;
function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // already gone
  }
}
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
const read = () => JSON.parse(readFileSync(settings, 'utf8')) as Settings;
const isLoci = (c: string) => c.includes('hooks/main.js') || /\bloci(?:\.js)?'? hook /.test(c);

describe('loci hooks install', { skip: NEEDS_BUILD }, () => {
  test('merges into existing settings, other hooks and keys untouched; idempotent; uninstall restores', async () => {
    writeFileSync(settings, `${JSON.stringify(ORIGINAL, null, 2)}\n`);
    const r = await lociInWorld(w, ['hooks', 'install']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /installed the Loci hooks in .*settings\.local\.json/);
    const text = readFileSync(settings, 'utf8');
    const s = read();
    assert.equal(text, `${JSON.stringify(s, null, 2)}\n`, '2-space JSON with a final newline');
    assert.deepEqual(Object.keys(s), Object.keys(ORIGINAL), 'key order kept');
    assert.deepEqual([s['permissions'], s['env'], s['model']], [ORIGINAL.permissions, ORIGINAL.env, ORIGINAL.model]);
    assert.deepEqual(s.hooks['PreToolUse'], ORIGINAL.hooks.PreToolUse);
    assert.deepEqual(
      s.hooks['SessionStart']![0],
      ORIGINAL.hooks.SessionStart[0],
      'the other SessionStart group is untouched',
    );
    const expected: Record<string, [string, number]> = {
      SessionStart: ['session-start', 10],
      UserPromptSubmit: ['user-prompt-submit', 10],
      Stop: ['stop', 5],
      PreCompact: ['pre-compact', 5],
      PostCompact: ['post-compact', 5],
      SessionEnd: ['session-end', 5],
    };
    for (const [event, [name, timeout]] of Object.entries(expected)) {
      const handlers = s.hooks[event]!.flatMap((g) => g.hooks).filter((h) => isLoci(h.command));
      assert.equal(handlers.length, 1, `one Loci handler for ${event}`);
      assert.equal(handlers[0]!.timeout, timeout);
      assert.ok(handlers[0]!.command.startsWith(`node ${BIN} hook ${name}`), handlers[0]!.command);
      assert.match(
        handlers[0]!.command,
        new RegExp(`--home ${w.home.replace(/[/.]/g, '\\$&')}$`),
        'a non-default home is pinned',
      );
    }
    assert.deepEqual(
      s.hooks['Stop']!.length,
      1,
      'the older `loci hook stop` handler was replaced in place, in its group',
    );
    assert.deepEqual(s.hooks['Stop']![0]!.hooks[0], notifier);
    const mtime = statSync(settings).mtimeMs;
    const again = await lociInWorld(w, ['hooks', 'install']);
    assert.match(again.stdout, /already installed/);
    assert.equal(readFileSync(settings, 'utf8'), text);
    assert.equal(statSync(settings).mtimeMs, mtime, 'not rewritten');
    const un = await lociInWorld(w, ['hooks', 'install', '--uninstall']);
    assert.equal(un.code, 0, un.stderr);
    assert.match(un.stdout, /removed the Loci hooks/);
    const { Stop: _s, ...otherHooks } = ORIGINAL.hooks;
    assert.deepEqual(read(), { ...ORIGINAL, hooks: { ...otherHooks, Stop: [{ hooks: [notifier] }] } });
    assert.match((await lociInWorld(w, ['hooks', 'install', '--uninstall'])).stdout, /no Loci hooks to remove/);
  });

  test('--print shows the merged file without writing; --json reports the handlers', async () => {
    writeFileSync(settings, `${JSON.stringify(ORIGINAL, null, 2)}\n`);
    const before = readFileSync(settings, 'utf8');
    const p = await lociInWorld(w, ['hooks', 'install', '--print']);
    assert.equal(p.code, 0, p.stderr);
    const printed = JSON.parse(p.stdout) as Settings;
    assert.ok(printed.hooks['UserPromptSubmit']!.some((g) => g.hooks.some((h) => isLoci(h.command))));
    assert.equal(readFileSync(settings, 'utf8'), before);
    const j = JSON.parse((await lociInWorld(w, ['hooks', 'install', '--print', '--json'])).stdout) as {
      action: string;
      handlers: Record<string, unknown>;
    };
    assert.equal(j.action, 'printed');
    assert.equal(Object.keys(j.handlers).length, 6);
  });

  test('scopes: project → .claude/settings.json, user → $CLAUDE_CONFIG_DIR/settings.json (created)', async () => {
    assert.equal((await lociInWorld(w, ['hooks', 'install', '--scope', 'project'])).code, 0);
    assert.ok(existsSync(join(w.project, '.claude', 'settings.json')));
    const u = await lociInWorld(w, ['hooks', 'install', '--scope', 'user']);
    assert.equal(u.code, 0, u.stderr);
    const user = JSON.parse(readFileSync(join(w.claude, 'settings.json'), 'utf8')) as Settings;
    assert.equal(Object.keys(user.hooks).length, 6);
    assert.equal(existsSync(settings), false, 'local scope untouched');
    assert.match((await lociInWorld(w, ['hooks', 'install', '--scope', 'nowhere'])).stderr, /INVALID_ARGUMENT/);
  });

  test('a settings file that is not JSON is refused and left as it is', async () => {
    writeFileSync(settings, '{ "hooks": { oops');
    const r = await lociInWorld(w, ['hooks', 'install']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /\[HOOKS_SETTINGS_INVALID\]/);
    assert.equal(readFileSync(settings, 'utf8'), '{ "hooks": { oops');
  });

  test('the installed commands run through a shell as Claude Code runs them, with the pinned home', async () => {
    await lociInWorld(w, ['hooks', 'install']);
    const s = read();
    const command = (event: string) => s.hooks[event]!.flatMap((g) => g.hooks).find((h) => isLoci(h.command))!.command;
    const env = { ...w.env, LOCI_HOME: '', LOCI_HOOK_SAVE_EVERY: '1' };
    const stop = spawnSync('/bin/sh', ['-c', command('Stop')], {
      cwd: w.project,
      input: hookInput('stop.json', w),
      encoding: 'utf8',
      env,
    });
    assert.deepEqual([stop.status, stop.stdout, stop.stderr], [0, '', '']);
    assert.equal(
      readdirSync(join(w.home, 'queue')).filter((n) => n.endsWith('.json')).length,
      1,
      'the job went to the pinned home',
    );
    const start = spawnSync('/bin/sh', ['-c', command('SessionStart')], {
      cwd: w.project,
      input: hookInput('session-start.json', w),
      encoding: 'utf8',
      env,
    });
    assert.equal(start.status, 0);
    assert.equal(start.stderr, '');
  });

  test('survives a Node upgrade: no absolute node in the commands; `node` is found on PATH at run time', async () => {
    await lociInWorld(w, ['hooks', 'install']);
    const commands = Object.values(read().hooks)
      .flatMap((gs) => gs.flatMap((g) => g.hooks))
      .map((h) => h.command)
      .filter(isLoci);
    assert.equal(commands.length, 6);
    for (const c of commands) assert.ok(!c.includes(process.execPath) && c.startsWith('node '), c);
    // "Upgrade": the only node is now another file in another folder.
    const newNode = join(w.root, 'node-v99', 'bin');
    mkdirSync(newNode, { recursive: true });
    copyFileSync(process.execPath, join(newNode, 'node'));
    const env = { ...w.env, PATH: `${newNode}:/bin`, LOCI_HOOK_SAVE_EVERY: '1' };
    const stop = spawnSync('/bin/sh', ['-c', commands.find((c) => / hook stop/.test(c))!], {
      cwd: w.project,
      input: hookInput('stop.json', w),
      encoding: 'utf8',
      env,
    });
    assert.deepEqual([stop.status, stop.stderr], [0, '']);
    assert.equal(readdirSync(join(w.home, 'queue')).filter((n) => n.endsWith('.json')).length, 1);
  });

  test('a project that depends on Loci gets "$CLAUDE_PROJECT_DIR"/node_modules/.bin/loci, which runs', async () => {
    // What `npm i -D loci` leaves: node_modules/.bin/loci → ../loci/bin/loci.js (here: this build).
    mkdirSync(join(w.project, 'node_modules', '.bin'), { recursive: true });
    symlinkSync(BIN, join(w.project, 'node_modules', '.bin', 'loci'));
    const r = await lociInWorld(w, ['hooks', 'install', '--scope', 'project']);
    assert.equal(r.code, 0, r.stderr);
    const s = JSON.parse(readFileSync(join(w.project, '.claude', 'settings.json'), 'utf8')) as Settings;
    const stop = s.hooks['Stop']![0]!.hooks[0]!.command;
    assert.equal(stop, `"$CLAUDE_PROJECT_DIR"/node_modules/.bin/loci hook stop --home ${w.home}`);
    assert.doesNotMatch(r.stderr, /npm run build|re-install|again/, r.stderr);
    // Claude Code runs it from a sub-folder with CLAUDE_PROJECT_DIR set; `loci` is not on PATH.
    mkdirSync(join(w.project, 'src'));
    const env = {
      ...w.env,
      PATH: `${dirname(process.execPath)}:/bin`,
      CLAUDE_PROJECT_DIR: w.project,
      LOCI_HOOK_SAVE_EVERY: '1',
    };
    const run = spawnSync('/bin/sh', ['-c', stop], {
      cwd: join(w.project, 'src'),
      input: hookInput('stop.json', w),
      encoding: 'utf8',
      env,
    });
    assert.deepEqual([run.status, run.stderr], [0, '']);
    assert.equal(readdirSync(join(w.home, 'queue')).filter((n) => n.endsWith('.json')).length, 1);
  });

  test('a settings.local.json Loci creates is git-ignored, once; one it did not create is left alone', async () => {
    rmSync(join(w.project, '.git'), { recursive: true });
    spawnSync('git', ['init', '-q', w.project]);
    const r = await lociInWorld(w, ['hooks', 'install']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /added settings\.local\.json to .*\.claude\/\.gitignore/);
    assert.equal(spawnSync('git', ['check-ignore', '-q', settings], { cwd: w.project }).status, 0, 'git ignores it');
    const ignore = readFileSync(join(w.project, '.claude', '.gitignore'), 'utf8');
    await lociInWorld(w, ['hooks', 'install', '--uninstall']);
    rmSync(settings);
    await lociInWorld(w, ['hooks', 'install']);
    assert.equal(readFileSync(join(w.project, '.claude', '.gitignore'), 'utf8'), ignore, 'added once');
    // A file that existed before (Claude Code's or the user's) is theirs to ignore or commit.
    rmSync(join(w.project, '.claude', '.gitignore'));
    await lociInWorld(w, ['hooks', 'install', '--uninstall']);
    writeFileSync(settings, '{}\n');
    await lociInWorld(w, ['hooks', 'install']);
    assert.equal(existsSync(join(w.project, '.claude', '.gitignore')), false);
  });

  test('the first hooks on a fresh machine (no Loci home, no palace) log no error or warning', async () => {
    const fresh = join(w.root, 'fresh-home');
    // As on a real machine: the detached worker and the hook server are on.
    const env = { ...w.env, LOCI_HOME: fresh, LOCI_HOOK_SAVE_EVERY: '1', LOCI_HOOK_WORKER: '', LOCI_HOOK_SERVER: '' };
    const r = spawnSync(process.execPath, [BIN, 'hooks', 'install'], { cwd: w.project, env, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(existsSync(fresh), false, 'installing creates no home');
    const s = read();
    const inputs: [string, string][] = [
      ['SessionStart', 'session-start.json'],
      ['UserPromptSubmit', 'user-prompt-submit.json'],
      ['Stop', 'stop.json'],
      ['PreCompact', 'pre-compact.json'],
      ['PostCompact', 'post-compact.json'],
      ['SessionEnd', 'session-end.json'],
    ];
    for (const [event, input] of inputs) {
      const command = s.hooks[event]!.flatMap((g) => g.hooks).find((h) => isLoci(h.command))!.command;
      const run = spawnSync('/bin/sh', ['-c', command], {
        cwd: w.project,
        input: hookInput(input, w),
        encoding: 'utf8',
        env: { ...env, LOCI_HOME: '' },
      });
      assert.deepEqual([event, run.status, run.stderr], [event, 0, '']);
    }
    const log = join(fresh, 'logs', 'hooks.log');
    // Let the detached worker finish what the hooks queued, then read every line it and they wrote.
    await until(
      () => logLines(log).some((l) => l['message'] === 'hook worker: transcript archived' && l['flush'] === true),
      'the worker to archive the session end',
    );
    const bad = logLines(log).filter((l) => l['level'] === 'error' || l['level'] === 'warn');
    assert.deepEqual(bad, []);
    // The hook server started by the first hook stops with the world (it would idle for 15 min);
    // the world is removed only once it and the worker have exited (they write on the way out).
    const children = new Set(
      logLines(log)
        .filter((l) => l['event'] === 'hook-server' || l['event'] === 'hook-worker')
        .map((l) => l['pid'] as number),
    );
    for (const l of logLines(log)) if (l['message'] === 'hook server listening') killQuietly(l['pid'] as number);
    await until(() => [...children].every((pid) => !alive(pid)), 'the hook server and worker to exit');
    assert.equal(existsSync(join(w.env['TMPDIR']!, 'loci-hooks.log')), false, 'nothing went to the fallback log');
  });
});
