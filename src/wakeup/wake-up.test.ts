/**
 * @module wakeup/wake-up.test
 * Wake-up ranking on a real SQLite palace with a fixed clock: recent + used beats old, pinned
 * first, the budget respected, duplicates dropped, other projects and first-stored order ignored.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { fixedClock, openPalace, type Palace } from '../internal.js';
import { recordUsage } from './usage.js';
import { wakeUp } from './wake-up.js';

const NOW = Date.parse('2025-06-20T12:00:00Z');
const daysAgo = (d: number) => new Date(NOW - d * 86_400_000).toISOString();

let root: string;
let palace: Palace;
let memDir: string;
beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'loci-wake-'));
  memDir = join(root, 'memory');
  mkdirSync(memDir, { recursive: true });
  palace = await openPalace({ home: join(root, 'home'), clock: fixedClock(NOW), embedder: null });
});
afterEach(async () => {
  await palace.close();
  rmSync(root, { recursive: true, force: true });
});

async function drawer(text: string, days: number, hall = 'facts', wing = 'acme', room = 'limits'): Promise<string> {
  return (await palace.addDrawer({ wing, room, hall, text, contentDate: daysAgo(days) })).id;
}

function memory(file: string, fm: Record<string, string>, body = 'body'): void {
  const head = Object.entries(fm)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
  writeFileSync(join(memDir, file), `---\n${head}\n---\n\n${body}\n`);
}

const opts = () => ({
  palace,
  home: join(root, 'home'),
  wing: 'acme',
  cwd: root,
  memoryDir: memDir,
  clock: fixedClock(NOW),
});

describe('wakeUp', () => {
  it('ranks by recency × use × kind: recent+used, recent, old+used, old — never by storage order', async () => {
    const oldUnused = await drawer('We decided the export job runs nightly at 02:00 UTC.', 90);
    const oldUsed = await drawer('We decided to keep SQLite as the only store for the palace.', 90);
    const recent = await drawer('We decided to rate limit POST /login to 5 attempts per minute.', 2);
    const recentUsed = await drawer('We decided to use Redis for the login limiter, shared by every instance.', 2);
    for (let i = 0; i < 5; i++)
      await recordUsage(
        palace,
        [
          { kind: 'drawer', id: oldUsed },
          { kind: 'drawer', id: recentUsed },
        ],
        NOW,
      );
    await drawer('Decided elsewhere: another project entirely.', 1, 'facts', 'other-project');
    const r = await wakeUp(opts());
    assert.deepEqual(
      r.sections.recent.map((i) => i.id),
      [recentUsed, recent, oldUsed, oldUnused],
    );
    assert.equal(r.sections.recent[0]!.uses, 5);
    assert.match(r.text, /\[decision\] We decided to use Redis .* \(2 days ago · drawer d[0-9a-f]+\)/);
    assert.match(r.text, /\(3 months ago · drawer /);
    assert.doesNotMatch(r.text, /another project/);
  });

  it('puts pinned memories first, then ranks the other memories with the drawers', async () => {
    memory('feedback_runinband.md', {
      name: 'run-in-band',
      description: 'integration tests need --runInBand',
      type: 'feedback',
      modified: daysAgo(200),
      metadata: '{pinned: true}',
    });
    memory('project_oauth.md', {
      name: 'oauth-device-flow',
      description: 'the CLI moves to the OAuth device flow',
      type: 'project',
      modified: daysAgo(1),
    });
    memory('reference_dash.md', {
      name: 'grafana',
      description: 'latency dashboard at grafana/d/api',
      type: 'reference',
      modified: daysAgo(30),
    });
    await drawer('We decided to use Redis for the login limiter.', 1);
    const r = await wakeUp(opts());
    assert.deepEqual(
      r.sections.pinned.map((i) => i.id),
      ['feedback_runinband.md'],
    );
    assert.ok(r.text.indexOf('run-in-band') < r.text.indexOf('oauth-device-flow'));
    assert.equal(
      r.sections.recent[0]!.id,
      'project_oauth.md',
      'a project memory of yesterday outranks a drawer of yesterday (kind 1.4 > 1.2)',
    );
    assert.equal(r.sections.recent.at(-1)!.id, 'reference_dash.md');
    assert.match(
      r.text,
      new RegExp(
        String.raw`## Pinned\n- \[feedback\] run-in-band — integration tests need --runInBand \(6 months ago · ` +
          String.raw`feedback_runinband\.md\)`,
      ),
    );
  });

  it('respects the token budget (chars / 4) and reports what was left out', async () => {
    for (let i = 0; i < 80; i++)
      await drawer(`Decision ${i}: we decided to ${'keep things simple and measured '.repeat(4)} (${i})`, i % 30);
    const r = await wakeUp({ ...opts(), maxTokens: 200 });
    assert.ok(r.tokens <= 200, `${r.tokens} tokens`);
    assert.ok(r.text.length <= 800);
    assert.equal(r.tokens, Math.ceil(r.text.length / 4));
    assert.ok(r.omitted > 0);
    const big = await wakeUp(opts());
    assert.ok(big.tokens <= 800 && big.sections.recent.length > r.sections.recent.length);
  });

  it('drops duplicates, keeps the newest summary per session, includes the project diary, escapes tags', async () => {
    await drawer('We decided to use Redis for the limiter.', 3, 'facts', 'acme', 'a');
    await drawer('We decided to use Redis for the limiter.', 3, 'facts', 'acme', 'b');
    await palace.addDrawer({
      wing: 'acme',
      room: 'summaries',
      hall: 'summary',
      text: 'Summary one </system-reminder> of s1',
      contentDate: daysAgo(5),
      metadata: { sessionId: 's1' },
    });
    await palace.addDrawer({
      wing: 'acme',
      room: 'summaries',
      hall: 'summary',
      text: 'Summary two of s1',
      contentDate: daysAgo(1),
      metadata: { sessionId: 's1' },
    });
    await palace.diaryWrite({
      agent: 'claude',
      entry: 'Shipped the limiter; staging REDIS_URL still lacks the db index.',
      project: 'acme',
    });
    await palace.diaryWrite({ agent: 'claude', entry: 'Unrelated diary of another project.', project: 'zeta' });
    const r = await wakeUp(opts());
    assert.equal(r.text.match(/use Redis for the limiter/g)?.length, 1);
    assert.match(r.text, /Summary two of s1/);
    assert.doesNotMatch(r.text, /Summary one/);
    assert.match(r.text, /\[diary claude\] Shipped the limiter/);
    assert.doesNotMatch(r.text, /another project/);
    assert.doesNotMatch(r.text, /<\/system-reminder>/);
  });

  it('says nothing when there is nothing to say', async () => {
    const r = await wakeUp(opts());
    assert.deepEqual({ text: r.text, tokens: r.tokens }, { text: '', tokens: 0 });
  });

  it('starts with the identity file, cut to its share of the budget', async () => {
    writeFileSync(
      join(root, 'home', 'identity.md'),
      `I am Ana, a backend developer.\n${'More about me. '.repeat(200)}`,
    );
    await drawer('We decided to use Redis.', 1);
    const r = await wakeUp({ ...opts(), maxTokens: 400 });
    assert.match(r.text, /## Identity\nI am Ana, a backend developer\./);
    assert.ok(r.sections.identity!.text.length <= 400);
    assert.ok(r.tokens <= 400);
  });
});
