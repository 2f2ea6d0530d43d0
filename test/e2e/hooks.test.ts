/**
 * @module test/e2e/hooks.test
 * `loci hook <event>` as Claude Code runs it — a real process per event, the documented JSON on
 * stdin (test/fixtures/hooks) — through the built bin and the installed entry
 * (`dist/hooks/main.js`): answers per protocol, the 10,000-character cap, fail-open behaviour,
 * `stop_hook_active`, every-N counting of real human prompts, the nudge. Needs `npm run build`.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { openPalace } from '../../src/index.js';
import {
  appendNoise,
  appendTurns,
  hookInput,
  hookWorld,
  lociInWorld,
  logLines,
  NEEDS_BUILD,
  runHookProcess,
  type HookWorld,
} from '../fixtures/hooks/support.js';

let w: HookWorld;
beforeEach(() => {
  w = hookWorld({ LOCI_HOOK_WORKER: '0' });
});
afterEach(() => w.cleanup());

const hooksLog = () => join(w.home, 'logs', 'hooks.log');
const queued = () => {
  try {
    return readdirSync(join(w.home, 'queue')).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
};

/** Parses a context answer and checks the protocol invariants. */
function contextOf(stdout: string, eventName: string): string {
  assert.ok(stdout.length <= 10_000, `stdout is ${stdout.length} characters`);
  const j = JSON.parse(stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  assert.deepEqual(Object.keys(j), ['hookSpecificOutput']);
  assert.equal(j.hookSpecificOutput.hookEventName, eventName);
  assert.equal(typeof j.hookSpecificOutput.additionalContext, 'string');
  assert.ok(
    j.hookSpecificOutput.additionalContext.length > 0 && j.hookSpecificOutput.additionalContext.length <= 10_000,
  );
  return j.hookSpecificOutput.additionalContext;
}

async function addMemory(type: string, name: string, description: string, extra: string[] = []): Promise<void> {
  const r = await lociInWorld(w, [
    'memory',
    'add',
    '-t',
    type,
    '-n',
    name,
    '-d',
    description,
    '-b',
    `${description}.`,
    ...extra,
  ]);
  assert.equal(r.code, 0, r.stderr);
}

describe('hook answers', { skip: NEEDS_BUILD }, () => {
  test('session-start injects the wake-up (identity, pinned first), cached until something changes', async () => {
    mkdirSync(w.home, { recursive: true });
    writeFileSync(join(w.home, 'identity.md'), 'I am Ana, backend developer on acme-api.\n');
    await addMemory(
      'feedback',
      'tests run in band',
      'integration tests need --runInBand because they share one database',
      ['--pinned'],
    );
    await addMemory('project', 'redis limiter', 'login rate limiting uses Redis, 5 attempts per minute per IP');
    const first = runHookProcess('session-start', hookInput('session-start.json', w), w);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stderr, '');
    const ctx = contextOf(first.stdout, 'SessionStart');
    assert.match(ctx, /## Identity\nI am Ana/);
    assert.ok(ctx.indexOf('tests-run-in-band') < ctx.indexOf('redis-limiter'), 'pinned first');
    assert.match(ctx, /\(today · project_redis-limiter\.md\)/);
    assert.ok(Math.ceil(ctx.length / 4) <= 800);
    const cached = runHookProcess('session-start', hookInput('session-start.json', w), w, 'main', {
      LOCI_HOOK_DEBUG: '1',
    });
    assert.equal(cached.stdout, first.stdout);
    assert.match(cached.stderr, /cached wake-up/);
    await addMemory('reference', 'grafana board', 'latency dashboard of the login endpoint');
    const after = runHookProcess('session-start', hookInput('session-start.json', w), w, 'main', {
      LOCI_HOOK_DEBUG: '1',
    });
    assert.doesNotMatch(after.stderr, /cached wake-up/);
    assert.match(contextOf(after.stdout, 'SessionStart'), /grafana-board/);
  });

  test('session-start says nothing for an empty home, and creates no database', () => {
    const r = runHookProcess('session-start', hookInput('session-start.json', w), w);
    assert.deepEqual(r, { code: 0, stdout: '', stderr: '' });
    assert.throws(() => readFileSync(join(w.home, 'palace.db')));
  });

  test('user-prompt-submit injects memories and drawers (≤ 10,000 chars), records usage, keeps the cache', async () => {
    await addMemory(
      'project',
      'redis limiter',
      'login rate limiting uses Redis with a sliding window, 5 attempts per minute',
    );
    const palace = await openPalace({ home: w.home, embedder: null });
    const big = await palace.addDrawer({
      wing: 'acme-api',
      room: 'limits',
      hall: 'facts',
      text: `Rate limiting the login endpoint with Redis: ${'sliding window counters keyed by IP, '.repeat(400)}`,
    });
    for (let i = 0; i < 12; i++)
      await palace.addDrawer({
        wing: 'acme-api',
        room: 'limits',
        text: `Login endpoint rate limited with Redis, note ${i}: ${'the limiter keys, windows and TTLs. '.repeat(60)}`,
      });
    await palace.close();
    const wake = () =>
      runHookProcess('session-start', hookInput('session-start.json', w), w, 'main', { LOCI_HOOK_DEBUG: '1' });
    assert.match(wake().stderr, /wake-up computed/);
    const r = runHookProcess('user-prompt-submit', hookInput('user-prompt-submit.json', w), w);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    const ctx = contextOf(r.stdout, 'UserPromptSubmit');
    // Claude Code wraps hook context in its own reminder: no nested <system-reminder> (issue 10, point 9).
    assert.match(ctx, /^The following are stored memories/);
    assert.doesNotMatch(ctx, /system-reminder/);
    assert.match(ctx, /<memory file="project_redis-limiter\.md"/);
    assert.match(ctx, /<drawer id="d[0-9a-f]+"/);
    const injected = [...ctx.matchAll(/<drawer id="(d[0-9a-f]+)"/g)].map((m) => m[1]!);
    assert.ok(injected.length >= 2);
    const p = await openPalace({ home: w.home, embedder: null });
    try {
      const { readUsage } = await import('../../src/internal.js');
      const usage = await readUsage(
        p,
        [...injected, big.id].map((id) => `drawer:${id}`),
      );
      for (const id of injected) assert.equal(usage.get(`drawer:${id}`)?.uses, 1, `usage of ${id}`);
    } finally {
      await p.close();
    }
    // Usage went to the journal, not the palace: the next session-start still answers from its cache.
    assert.match(wake().stderr, /cached wake-up/);
    const session = JSON.parse(
      readFileSync(join(w.home, 'sessions', '7c1e9a52-3b4d-4f6e-8a90-1b2c3d4e5f60.json'), 'utf8'),
    ) as { drawers: string[]; turns: number };
    assert.deepEqual(session.drawers.sort(), [...injected].sort());
    assert.equal(session.turns, 1);
  });

  test('user-prompt-submit skips slash commands and one-word prompts', async () => {
    await addMemory('project', 'redis limiter', 'login rate limiting uses Redis');
    for (const input of [
      hookInput('user-prompt-submit-slash.json', w),
      hookInput('user-prompt-submit.json', w, { prompt: 'continue' }),
    ]) {
      assert.deepEqual(runHookProcess('user-prompt-submit', input, w), { code: 0, stdout: '', stderr: '' });
    }
  });
});

describe('hooks fail open', { skip: NEEDS_BUILD }, () => {
  const events = ['session-start', 'user-prompt-submit', 'stop', 'pre-compact', 'post-compact', 'session-end'];

  test('garbage stdin: exit 0, no output, a JSON error line in hooks.log', () => {
    for (const [i, event] of events.entries()) {
      const r = runHookProcess(event, i % 2 ? '{"session_id": ' : 'not json at all', w, i % 3 ? 'bin' : 'main');
      assert.deepEqual(r, { code: 0, stdout: '', stderr: '' }, event);
      const last = logLines(hooksLog()).at(-1)!;
      assert.equal(last['level'], 'error');
      assert.equal(last['event'], event);
      assert.equal(last['code'], 'HOOK_INPUT_INVALID');
    }
  });

  test('a missing transcript: exit 0, no output, the path in the log', () => {
    const input = hookInput('stop.json', { transcript: join(w.root, 'gone.jsonl'), project: w.project });
    for (const event of ['stop', 'pre-compact', 'session-end']) {
      assert.deepEqual(runHookProcess(event, input, w), { code: 0, stdout: '', stderr: '' });
      assert.match(String(logLines(hooksLog()).at(-1)!['error']), /gone\.jsonl/);
    }
  });

  test('an unusable palace or home: exit 0, no output, the error logged (in the home, else in TMPDIR)', async () => {
    mkdirSync(join(w.home, 'palace.db'), { recursive: true }); // a folder where the database should be
    await lociInWorld(w, [
      'memory',
      'add',
      '-t',
      'project',
      '-n',
      'redis limiter',
      '-d',
      'login rate limiting uses Redis',
      '-b',
      'x',
    ]);
    for (const event of ['user-prompt-submit', 'session-start']) {
      assert.deepEqual(runHookProcess(event, hookInput(`${event}.json`, w), w), { code: 0, stdout: '', stderr: '' });
      assert.equal(logLines(hooksLog()).at(-1)!['level'], 'error');
    }
    writeFileSync(join(w.root, 'file'), 'x');
    const broken = { ...w, env: { ...w.env, LOCI_HOME: join(w.root, 'file', 'home') } };
    assert.deepEqual(runHookProcess('stop', hookInput('stop.json', w), broken, 'main'), {
      code: 0,
      stdout: '',
      stderr: '',
    });
    const fallback = logLines(join(w.root, 'tmp', 'loci-hooks.log')).at(-1)!;
    assert.equal(fallback['level'], 'error');
    assert.equal(fallback['home'], join(w.root, 'file', 'home'));
  });

  test('an unknown event: exit 0, no output, HOOK_EVENT_UNKNOWN logged; LOCI_HOOK_DEBUG echoes to stderr', () => {
    assert.deepEqual(runHookProcess('pre-tool-use', '{}', w), { code: 0, stdout: '', stderr: '' });
    assert.equal(logLines(hooksLog()).at(-1)!['code'], 'HOOK_EVENT_UNKNOWN');
    const dbg = runHookProcess('pre-tool-use', '{}', w, 'main', { LOCI_HOOK_DEBUG: '1' });
    assert.equal(dbg.code, 0);
    assert.equal(dbg.stdout, '');
    assert.match(dbg.stderr, /unknown hook event/);
  });
});

describe(
  'stop: archives the turn that just ended; a checkpoint every N real human prompts, zero tokens',
  { skip: NEEDS_BUILD },
  () => {
    test('queues an archive job whenever the transcript grew; counts typed prompts only for checkpoints', () => {
      const env = { LOCI_HOOK_SAVE_EVERY: '3', LOCI_HOOK_NUDGE: '1' };
      const stop = () => runHookProcess('stop', hookInput('stop.json', w), w, 'main', env);
      const first = stop();
      assert.equal(first.code, 0);
      assert.match(
        contextOf(first.stdout, 'Stop'),
        /5 prompts since the last checkpoint/,
        'the fixture holds 5 human prompts ≥ 3: one checkpoint',
      );
      assert.equal(queued().length, 1);
      const job = JSON.parse(readFileSync(join(w.home, 'queue', queued()[0]!), 'utf8')) as Record<string, unknown>;
      assert.deepEqual(
        [job['event'], job['transcript'], job['cwd'], job['flush']],
        ['stop', w.transcript, w.project, false],
      );
      assert.deepEqual(stop(), { code: 0, stdout: '', stderr: '' });
      assert.equal(queued().length, 1, 'nothing new: nothing queued');
      appendNoise(w.transcript);
      assert.equal(stop().stdout, '', 'tool results and meta records are no checkpoint');
      assert.equal(queued().length, 2, 'but the grown turn is archived');
      appendTurns(w.transcript, 2, 3);
      assert.equal(stop().stdout, '', '2 new prompts < 3');
      assert.equal(queued().length, 3);
      appendTurns(w.transcript, 1, 1);
      assert.match(
        contextOf(stop().stdout, 'Stop'),
        /3 prompts since the last checkpoint/,
        'the third new prompt is the next checkpoint',
      );
      assert.equal(queued().length, 4);
    });

    test('does nothing while stop_hook_active is true', () => {
      const r = runHookProcess('stop', hookInput('stop-active.json', w), w, 'bin', {
        LOCI_HOOK_SAVE_EVERY: '1',
        LOCI_HOOK_NUDGE: '1',
      });
      assert.deepEqual(r, { code: 0, stdout: '', stderr: '' });
      assert.equal(queued().length, 0);
      assert.throws(() => readdirSync(join(w.home, 'hooks', 'state')));
    });

    test('nudge mode adds a short additionalContext when a checkpoint is queued, never decision: block', () => {
      const env = { LOCI_HOOK_SAVE_EVERY: '5', LOCI_HOOK_NUDGE: '1' };
      const r = runHookProcess('stop', hookInput('stop.json', w), w, 'bin', env);
      assert.equal(r.code, 0);
      const ctx = contextOf(r.stdout, 'Stop');
      assert.doesNotMatch(r.stdout, /"decision"/);
      assert.match(ctx, /5 prompts since the last checkpoint/);
      assert.ok(ctx.length < 600);
      assert.equal(
        runHookProcess('stop', hookInput('stop.json', w), w, 'bin', env).stdout,
        '',
        'no nudge until the next checkpoint',
      );
    });

    test('the default checkpoint is every 15 prompts', () => {
      const env = { LOCI_HOOK_NUDGE: '1' };
      assert.equal(runHookProcess('stop', hookInput('stop.json', w), w, 'main', env).stdout, '');
      appendTurns(w.transcript, 9);
      assert.equal(runHookProcess('stop', hookInput('stop.json', w), w, 'main', env).stdout, '', '14 prompts');
      appendTurns(w.transcript, 1);
      assert.match(
        contextOf(runHookProcess('stop', hookInput('stop.json', w), w, 'main', env).stdout, 'Stop'),
        /15 prompts/,
        '15 prompts',
      );
    });
  },
);
