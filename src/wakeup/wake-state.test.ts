/**
 * @module wakeup/wake-state.test
 * The wake-up answers "where are we?" (issue 10, point 7), on a real SQLite palace with fixtures
 * written for these tests in the conversation miner's drawer format: the latest session's
 * compaction summary whole (or its key sections), the last request and final words; never tool
 * output, file dumps or templates; no off-topic "preference"; an orientation for a wing of mined
 * files only; nothing Claude Code already loads from MEMORY.md; within 800 tokens.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { fixedClock, openPalace, type Palace } from '../internal.js';
import { wakeUp } from './wake-up.js';
import { condenseSummary } from './wake-sessions.js';
import { decisionSentences, proseLines, withoutClosingOffers } from './wake-prose.js';

const NOW = Date.parse('2025-06-20T12:00:00Z');
const at = (minutes: number) => new Date(NOW - 3 * 86_400_000 + minutes * 60_000).toISOString();
const SRC = '/logs/acme/s1.jsonl';

let root: string;
let palace: Palace;
let memDir: string;
beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'loci-wake-state-'));
  memDir = join(root, 'memory');
  mkdirSync(memDir, { recursive: true });
  palace = await openPalace({ home: join(root, 'home'), clock: fixedClock(NOW), embedder: null });
});
afterEach(async () => {
  await palace.close();
  rmSync(root, { recursive: true, force: true });
});

let chunk = 0;
/** One exchange of session `s`, split into parts as the miner does. */
async function exchange(
  s: string,
  n: number,
  parts: string[],
  minutes: number,
  hall = 'general',
  extra: Record<string, unknown> = {},
): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, text] of parts.entries()) {
    const r = await palace.addDrawer({
      wing: 'acme',
      room: 'general',
      hall,
      source: SRC,
      chunkIndex: chunk++,
      addedBy: 'loci-mine',
      contentDate: at(minutes),
      text,
      metadata: {
        sessionId: s,
        exchangeId: `${s}:${n}`,
        part: i,
        parts: parts.length,
        format: 'claude-code',
        ...extra,
      },
    });
    ids.push(r.id);
  }
  return ids;
}
const opts = (o: Record<string, unknown> = {}) => ({
  palace,
  home: join(root, 'home'),
  wing: 'acme',
  cwd: root,
  memoryDir: memDir,
  clock: fixedClock(NOW),
  ...o,
});

const SUMMARY = [
  'Summary: This session is being continued from a previous conversation that ran out of context. The summary ' +
    'below covers the earlier portion of the conversation.\n\nSummary:\n1. Primary Request and Intent:\n   The ' +
    'user asked to add rate limiting to the login endpoint.',
  '2. Key Technical Concepts:\n   - token bucket\n   - Redis INCR with expiry',
  '7. Pending Tasks:\n   - wire the limiter into the staging config\n8. Current Work:\n   Tests for the limiter ' +
    'pass; the staging config is not done yet.\n9. Optional Next Step:\n   Add REDIS_URL to staging.\nIf you ' +
    'need specific details from before compaction (like exact code snippets), read the full transcript at: ' +
    '/x.jsonl',
];

describe('wake-up: where are we', () => {
  it('shows the newest compaction summary whole (no boilerplate), the last request and the final words', async () => {
    await exchange('s1', 0, ['User: please add a limiter\nAssistant: Sure.'], 0);
    await exchange('s1', 1, SUMMARY, 30, 'general', { kind: 'summary' });
    await exchange(
      's1',
      2,
      [
        'User: and the staging config?\nAssistant: Looking.\n[Bash] grep -r REDIS_URL config\n→ ' +
          'config/prod.env:REDIS_URL=redis://prod',
        '→ [error] command not found: rg\nAssistant: Done: staging now reads REDIS_URL from config/staging.env. ' +
          'Should I deploy it?',
      ],
      40,
    );
    await exchange(
      's1',
      3,
      [
        'User: Read the output file to retrieve the result: /tmp/tasks/b1.output\nAssistant: That background task ' +
          'finished earlier; nothing to do.',
      ],
      50,
    );
    const r = await wakeUp(opts());
    assert.match(r.text, /## Where we left off/);
    assert.match(r.text, /Compaction summary \(written before the last words below\):\n/, 'the session went on');
    assert.match(r.text, /Primary Request and Intent:\n\s+The user asked to add rate limiting/);
    assert.match(r.text, /Redis INCR with expiry/, 'the middle part of the summary is there: whole');
    assert.match(r.text, /Add REDIS_URL to staging/);
    assert.doesNotMatch(r.text, /continued from a previous conversation|If you need specific details/);
    assert.match(r.text, /Last request: and the staging config\?/);
    assert.doesNotMatch(
      r.text,
      /retrieve the result|nothing to do/,
      'an exchange opened by a harness notice is not where the work stands',
    );
    assert.match(r.text, /Open question \(assistant, last words\): .*Should I deploy it\?/);
    assert.doesNotMatch(r.text, /command not found|→|\[Bash\]/);
    assert.equal(r.sections.sessions.length, 1);
    assert.equal(r.sections.sessions[0]!.summary!.whole, true);
    assert.ok(r.tokens <= 800);
  });

  it('condenses a long summary to its key sections and stays within 800 tokens', async () => {
    const filler = (k: string) => `${k}:\n${'   - a detail that does not say where we are\n'.repeat(60)}`;
    const long =
      'Summary:\n1. Primary Request and Intent:\n   Ship the limiter.\n2. ' +
      `${filler('Key Technical Concepts')}3. ${filler('Files and Code Sections')}7. Pending Tasks:\n   - ` +
      'staging config\n8. Current Work:\n   Writing the staging config.\n9. Optional Next Step:\n   Deploy.';
    const c = condenseSummary(long, 600);
    assert.equal(c.whole, false);
    assert.ok(c.text.length <= 600);
    assert.match(c.text, /^Current Work: Writing the staging config\./);
    assert.match(c.text, /Pending Tasks:.*staging config/s);
    assert.match(c.text, /Next Step: Deploy/);
    assert.doesNotMatch(c.text, /a detail that does not say/);
    await exchange('s1', 0, [long.slice(0, 1500), long.slice(1500, 3000), long.slice(3000)], 10, 'general', {
      kind: 'summary',
    });
    const r = await wakeUp(opts());
    assert.ok(r.tokens <= 800, `${r.tokens} tokens`);
    assert.match(r.text, /Writing the staging config/);
  });

  it('never labels tool output, file dumps or templates as decisions; keeps a real decision sentence', async () => {
    await exchange(
      's1',
      0,
      ['User: find the ptz code\nAssistant: [Grep] ptz in src\n→ [error] (eval):1: command not found: rg decided'],
      1,
      'facts',
    );
    await exchange(
      's1',
      1,
      ['[Read README.md]\n→ 1 # Acme ⏎ 2 We decided to use Postgres for everything ⏎ 3 …'],
      2,
      'facts',
    );
    await exchange(
      's1',
      2,
      [
        'User: Your task is to create a detailed summary of the conversation so far. We decided the file format: ' +
          'sections 1 to 9.',
      ],
      3,
      'facts',
    );
    await exchange(
      's1',
      3,
      ['User: ok\nAssistant: We decided to keep the limiter in `src/limits.ts` and use Redis for it.'],
      4,
      'facts',
    );
    await exchange('s1', 4, ['User: thanks\nAssistant: You are welcome.'], 5);
    const r = await wakeUp(opts());
    const items = r.sections.recent.map((i) => i.text);
    assert.deepEqual(items, ['[decision] We decided to keep the limiter in `src/limits.ts` and use Redis for it.']);
  });

  it('drops Codex and Gemini tool calls (lower-case names) and closing offers from the final words', async () => {
    await exchange(
      's1',
      0,
      [
        'User: prepare the grant draft\nAssistant: Checking the repository history first.\n' +
          '[exec_command] git log --oneline -20\n[run_shell_command] ls -la\n[read_file docs/plan.md]\n' +
          '[mcp__github__list_commits] {"repo":"acme"}\n→ ok\nAssistant: The draft is in `grant.md`; it cites ' +
          'the last 20 commits. What else would you like me to do? Let me know if you need anything else!',
      ],
      10,
    );
    const r = await wakeUp(opts());
    assert.doesNotMatch(r.text, /exec_command|run_shell_command|read_file|mcp__github|git log/);
    assert.match(r.text, /Assistant, last words: .*The draft is in `grant\.md`; it cites the last 20 commits\./);
    assert.doesNotMatch(r.text, /Open question|What else|Let me know/);
    // A real question stays one, and a checkbox or a markdown link is prose.
    assert.deepEqual(
      withoutClosingOffers(proseLines('Assistant: Tests pass. Should I deploy it? Anything else?')).map((l) => l.text),
      ['Tests pass. Should I deploy it?'],
    );
    assert.equal(proseLines('[x] migrate the users table\n[docs](https://x.test) updated').length, 2);
  });

  it('names a session whose id is not a UUID by its whole id (two Slack channels differ)', async () => {
    await exchange('slack:general:2015-06-09', 0, ['alice: the venue is booked'], 1, 'general', { title: '#general' });
    await exchange('slack:get_feedback:2016-05-06', 0, ['bob: slides attached'], 2, 'general', { title: '#feedback' });
    const r = await wakeUp(opts());
    assert.match(r.text, /session slack:general:2015-06-09\)/);
    assert.match(r.text, /session slack:get_feedback:2016-05-06\)/);
  });

  it('a last request that names nothing ("commit!") shows the request before it', async () => {
    await exchange('s1', 0, ['User: add retries to the webhook sender\nAssistant: Retries added with backoff.'], 1);
    await exchange('s1', 1, ['User: commit!\nAssistant: Committed as 3f2a1b0.'], 2);
    const r = await wakeUp(opts());
    assert.match(r.text, /Last request: commit! \(after: add retries to the webhook sender\)/);
    assert.match(r.text, /Assistant, last words: Committed as 3f2a1b0\./);
  });

  it('classifies preferences conservatively: the user about the work, not a recipe or a poem', () => {
    const curry = proseLines(
      'User: I love Thai green curry and I prefer it very spicy with extra basil.\nAssistant: Noted, I always use ' +
        'fresh lemongrass in a curry.',
    );
    assert.deepEqual(decisionSentences(curry), []);
    const work = proseLines('User: I prefer small commits with tests in the same commit.\nAssistant: I prefer tabs.');
    assert.deepEqual(
      decisionSentences(work).map((d) => [d.kind, d.speaker]),
      [['preference', 'user']],
    );
  });

  it('gives a wing of mined files only a short orientation', async () => {
    for (let i = 0; i < 6; i++)
      await palace.addDrawer({
        wing: 'acme',
        room: i < 4 ? 'src' : 'docs',
        source: `/repo/f${i}.ts`,
        addedBy: 'loci-mine',
        text: `export const x${i} = ${i};`,
      });
    const r = await wakeUp(opts());
    assert.match(
      r.text,
      /## Archive\n6 drawers of mined files, last filed 2025-06-20\. Main rooms: src \(4\), docs \(2\)\./,
    );
    assert.ok(r.tokens < 200);
    const none = await wakeUp(opts({ wing: 'empty' }));
    assert.equal(none.text, '');
  });

  it('does not repeat memory files that Claude Code loads through MEMORY.md', async () => {
    const fm = (name: string, d: string) => `---\nname: ${name}\ndescription: ${d}\ntype: feedback\n---\n\nbody\n`;
    writeFileSync(join(memDir, 'feedback_tests.md'), fm('tests', 'run the integration tests in band'));
    writeFileSync(join(memDir, 'feedback_style.md'), fm('style', 'no default exports'));
    writeFileSync(join(memDir, 'MEMORY.md'), '- [tests](feedback_tests.md) — run the integration tests in band\n');
    const loaded = await wakeUp(opts({ indexLoaded: true }));
    assert.doesNotMatch(loaded.text, /integration tests in band/);
    assert.match(loaded.text, /no default exports/);
    const own = await wakeUp(opts({ indexLoaded: false }));
    assert.match(own.text, /integration tests in band/);
  });
});
