/**
 * @module test/e2e/hooks-server.test
 * The warm hook server: started detached by the first hook that needs the library, it answers
 * later user-prompt-submit and session-start hooks with exactly what the hook process would have
 * answered; it replaces a stale socket, refuses (and leaves) for another build, and exits when
 * idle or on SIGTERM, removing its socket. Needs `npm run build`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import {
  hookInput,
  hookWorld,
  lociInWorld,
  logLines,
  NEEDS_BUILD,
  runHookProcess,
  until,
  type HookWorld,
} from '../fixtures/hooks/support.js';
import { ROOT } from '../helpers/cli.js';

let w: HookWorld;
beforeEach(async () => {
  w = hookWorld({
    LOCI_HOOK_WORKER: '0',
    LOCI_HOOK_SERVER: '',
    LOCI_HOOK_SERVER_IDLE_MS: '120000',
    LOCI_HOOK_DEBUG: '1',
  });
  assert.equal(
    (
      await lociInWorld(w, [
        'memory',
        'add',
        '-t',
        'project',
        '-n',
        'redis limiter',
        '-d',
        'login rate limiting uses Redis, 5 attempts per minute per IP',
        '-b',
        'x',
      ])
    ).code,
    0,
  );
});
afterEach(async () => {
  for (const pid of serverPids()) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  await until(() => !existsSync(sock()), 'the server to stop', 10_000).catch(() => {});
  w.cleanup();
});

const sock = () => join(w.home, 'run', 'hooks.sock');
const log = () => logLines(join(w.home, 'logs', 'hooks.log'));
const serverPids = () => [
  ...new Set(
    log()
      .filter((l) => l['message'] === 'hook server listening')
      .map((l) => Number(l['pid'])),
  ),
];
const ups = (session: string, env: NodeJS.ProcessEnv = {}) =>
  runHookProcess(
    'user-prompt-submit',
    hookInput('user-prompt-submit.json', w, { session_id: session }),
    w,
    'main',
    env,
  );

function raw(line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    const s = connect(sock());
    s.on('connect', () => s.write(line));
    s.on('data', (d) => (data += d.toString()));
    s.on('end', () => resolve(data));
    s.on('error', reject);
  });
}

describe('warm hook server', { skip: NEEDS_BUILD }, () => {
  test('answers like the hook process once started, for prompts and stale wake-ups', async () => {
    const first = ups('s-1');
    assert.equal(first.code, 0);
    assert.match(first.stderr, /answering in the hook process \{"server":"absent"\}/);
    assert.match(first.stderr, /hook-server spawned/);
    await until(() => existsSync(sock()), 'the server socket');
    const served = ups('s-2');
    assert.match(served.stderr, /answered by the hook server/);
    const local = ups('s-3', { LOCI_HOOK_SERVER: '0' });
    assert.doesNotMatch(local.stderr, /hook server/);
    const strip = (s: string) => s.replace(/age_days="\d+"/g, '');
    assert.equal(strip(served.stdout), strip(local.stdout));
    assert.equal(strip(served.stdout), strip(first.stdout));
    assert.match(served.stdout, /"hookEventName":"UserPromptSubmit"/);
    const start = runHookProcess('session-start', hookInput('session-start.json', w), w, 'main');
    assert.match(start.stderr, /session-start: answered by the hook server/);
    assert.match(start.stdout, /"hookEventName":"SessionStart".*redis-limiter/);
    const cached = runHookProcess('session-start', hookInput('session-start.json', w), w, 'main');
    assert.match(cached.stderr, /cached wake-up/);
    assert.equal(cached.stdout, start.stdout);
    assert.equal(serverPids().length, 1);
    assert.ok(!log().some((l) => l['level'] === 'error'));
  });

  test('replaces a stale socket file; refuses a request of another build and exits', async () => {
    mkdirSync(join(w.home, 'run'), { recursive: true });
    writeFileSync(sock(), '');
    const r = ups('s-1');
    assert.match(r.stderr, /\{"server":"refused"\}/);
    await until(() => serverPids().length === 1, 'the server to listen');
    assert.match(ups('s-2').stderr, /answered by the hook server/);
    const reply = JSON.parse(
      await raw(
        JSON.stringify({ v: 1, build: 'another', event: 'user-prompt-submit', stdin: '{}', cwd: w.project, env: {} }) +
          '\n',
      ),
    ) as Record<string, unknown>;
    assert.deepEqual(reply, { ok: false, reason: 'build' });
    await until(() => !existsSync(sock()), 'the server to leave');
    assert.equal(JSON.parse(await raw('nonsense\n').catch(() => '{"ok":false,"reason":"gone"}'))['reason'], 'gone');
  });

  test('an upgrade after the server started is another build, even before its first request', async () => {
    // A copy of the installed package, so that "upgrading" it touches no file other tests run.
    const pkg = join(w.home, '..', 'pkg');
    cpSync(join(ROOT, 'dist'), join(pkg, 'dist'), { recursive: true, preserveTimestamps: true });
    copyFileSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
    symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
    const hook = (session: string) =>
      spawnSync(process.execPath, [join(pkg, 'dist', 'hooks', 'main.js'), 'user-prompt-submit'], {
        cwd: w.project,
        input: hookInput('user-prompt-submit.json', w, { session_id: session }),
        encoding: 'utf8',
        env: w.env,
      });
    assert.match(hook('s-1').stderr, /hook-server spawned/);
    await until(() => existsSync(sock()), 'the server socket');
    // A rebuild or an upgrade rewrites the package's files; then the server's first request comes.
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(pkg, 'dist', 'bundle', 'inputs.json'), later, later);
    const r = hook('s-2');
    assert.doesNotMatch(r.stderr, /answered by the hook server/);
    assert.match(r.stderr, /answering in the hook process \{"server":"build"\}/);
    assert.match(r.stdout, /"hookEventName":"UserPromptSubmit"/);
    await until(() => log().some((l) => l['message'] === 'hook server stopping'), 'the old server to leave');
    await until(() => serverPids().length === 2, "the new build's server"); // stopped by afterEach
  });

  test('exits after its idle time, removing the socket', async () => {
    const r = ups('s-1', { LOCI_HOOK_SERVER_IDLE_MS: '1500' });
    assert.equal(r.code, 0);
    // The log, not the socket, shows that it listened: under load the server may already have
    // idled out and removed its socket before a first poll would see it.
    await until(() => log().some((l) => l['message'] === 'hook server listening'), 'the server to listen');
    await until(() => !existsSync(sock()), 'the idle server to exit');
    assert.ok(log().some((l) => l['message'] === 'hook server stopping' && l['why'] === 'idle'));
  });
});
