/**
 * @module dream/dream.test
 * A whole consolidation of a Claude Code–format memory folder with a scripted model on the
 * loopback server (Anthropic, OpenAI-compatible and Ollama wire protocols): rules and model
 * together, contradictions, CLAUDE.md untouched, team memories, gates under a moving clock,
 * idempotence, undo, dry runs and the model-less path.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { startLoopback, type Loopback } from '../../test/helpers/loopback.js';
import {
  anthropicAnswer,
  CLAUDE_MD,
  FIXTURE_ACTIONS,
  filesOf,
  ollamaAnswer,
  openaiAnswer,
  playground,
  type Playground,
} from '../../test/fixtures/dream/support.js';
import { fixedClock } from '../core/clock.js';
import { listMemories, loadMemoryIndex } from '../memdir/index.js';
import { createLlmProvider, type LlmProvider } from '../providers/index.js';
import { runDream, undoDream, type DreamOptions } from './index.js';
import { stateDir } from './state.js';

let server: Loopback;
let p: Playground;
before(async () => {
  server = await startLoopback();
});
after(() => server.close());
beforeEach(() => {
  p = playground();
});
afterEach(() => p.cleanup());

const env = { ANTHROPIC_API_KEY: 'sk-ant-test', OPENAI_API_KEY: 'sk-test' };
const llm = (provider: 'anthropic' | 'openai' | 'ollama'): LlmProvider =>
  createLlmProvider({ provider, baseUrl: server.url, maxRetries: 0 }, { env });
const T0 = Date.parse('2026-03-10T12:00:00Z');
const HOUR = 3_600_000;

function opts(extra: Partial<DreamOptions> = {}): DreamOptions {
  return {
    dir: p.dir,
    home: p.home,
    projectRoot: p.projectRoot,
    env: { HOME: p.root, CLAUDE_CONFIG_DIR: join(p.root, 'claude') },
    clock: fixedClock(T0),
    ...extra,
  };
}

describe('a whole consolidation of the fixture folder', () => {
  it('merges, dates, deletes the contradicted, reports CLAUDE.md conflicts, spares team memories', async () => {
    p.addSessions(5, T0 - HOUR);
    const claudeBefore = readFileSync(p.claudeMdPath, 'utf8');
    server.reply('anthropic.messages', anthropicAnswer(JSON.stringify(FIXTURE_ACTIONS)));
    const queries: string[] = [];
    const archive = {
      search: async (q: string) => {
        queries.push(q);
        return [{ text: 'We parse configs with parseConfig() in src/config/parse.ts now', date: '2026-02-25' }];
      },
    };
    const r = await runDream(opts({ llm: llm('anthropic'), archive }));
    assert.equal(r.ran, true, r.reason);
    assert.match(r.reason, /5 new sessions/);
    // Gather: narrow archive searches for the drifted memory only.
    assert.deepEqual(queries, ['The config parser lives in the legacy module']);
    assert.equal(r.model, 'used');
    const files = filesOf(p.dir);
    // Rules: the exact duplicate is folded into the newest copy.
    assert.equal(files['feedback_testing_copy.md'], undefined);
    assert.ok(files['feedback_testing.md']);
    // Rules: relative dates reckoned from when the memory was written (Wednesday 2026-03-04).
    assert.match(files['project_release.md']!, /starts on Friday 2026-03-06; only fixes/);
    assert.match(files['project_release.md']!, /description: .*starts on Friday 2026-03-06/);
    // Model: the contradicted memory is gone, with the reason kept in the report.
    assert.equal(files['project_db_choice.md'], undefined);
    const del = r.changes.find((c) => c.file === 'project_db_choice.md')!;
    assert.equal(del.action, 'delete');
    assert.match(del.reason, /contradicted by project_db_switch\.md: the queue moved/);
    // CLAUDE.md wins and is never written; the conflict is reported.
    assert.equal(files['feedback_indent.md'], undefined);
    assert.equal(readFileSync(p.claudeMdPath, 'utf8'), claudeBefore);
    assert.equal(claudeBefore, CLAUDE_MD);
    assert.deepEqual(
      r.conflicts.map((c) => [c.file, c.outcome]),
      [['feedback_indent.md', 'memory-loses']],
    );
    // Team memories: the model's delete is refused and left for the user.
    assert.ok(files['team/reference_ci.md']);
    assert.match(r.refused.find((x) => x.file === 'team/reference_ci.md')!.reason, /team memory/);
    // Prune and index: MEMORY.md lists exactly the files left, within the limits.
    const listed = listMemories(p.dir, { limit: Infinity }).map((m) => m.file);
    const index = loadMemoryIndex(p.dir);
    for (const f of listed) assert.ok(index.text.includes(`(${f})`), `${f} is indexed`);
    for (const gone of ['project_db_choice.md', 'feedback_indent.md', 'feedback_testing_copy.md'])
      assert.ok(!index.text.includes(gone), `${gone} left the index`);
    assert.ok(index.lines <= 200 && index.bytes <= 25_000);
    // The report is readable and says what ran and why.
    assert.ok(r.report && existsSync(r.report));
    const report = readFileSync(r.report, 'utf8');
    assert.match(report, /## What ran/);
    assert.match(report, /project_legacy_parser\.md`: file `src\/legacy\/parser\.ts`/);
    assert.match(report, /Conflicts with CLAUDE\.md/);
    // The model saw the memories, the sessions and CLAUDE.md.
    const sent = JSON.stringify(server.requestsTo('anthropic.messages').at(-1)!.body);
    const expected = ['project_db_switch.md', 'Please look at task', 'Indent with 2 spaces', 'src/legacy/parser.ts'];
    for (const s of [...expected, 'src/config/parse.ts now']) assert.ok(sent.includes(s), `prompt holds ${s}`);
    assert.ok(r.tokensSent > 0);
  });

  it('speaks the OpenAI-compatible and Ollama protocols too', async () => {
    server.reply('openai.chat', openaiAnswer('{"actions": []}'));
    const a = await runDream(opts({ llm: llm('openai'), force: true }));
    assert.equal(a.model, 'used');
    assert.equal(a.tokensSent, 900);
    server.reply(
      'ollama.chat',
      ollamaAnswer('```json\n{"actions": [{"action": "delete", "file": "user_role.md", "reason": "wrong"}]}\n```'),
    );
    const b = await runDream(opts({ llm: llm('ollama'), force: true, clock: fixedClock(T0 + HOUR) }));
    assert.equal(b.model, 'used');
    assert.ok(!existsSync(join(p.dir, 'user_role.md')));
  });
});

describe('gates under a moving clock', () => {
  it('24 h, 10-minute scans and 5 new sessions; --force skips the first and last', async () => {
    const clock = fixedClock(T0);
    const first = await runDream(opts({ clock }));
    assert.equal(first.ran, false);
    assert.match(first.reason, /0 new sessions so far \(no consolidation yet\); it needs 5/);
    clock.t += 5 * 60_000;
    const throttled = await runDream(opts({ clock }));
    assert.match(throttled.reason, /scanned 5 min ago/);
    p.addSessions(5, clock.t - 1000);
    clock.t += 6 * 60_000;
    const ran = await runDream(opts({ clock }));
    assert.equal(ran.ran, true, ran.reason);
    clock.t += 2 * HOUR;
    p.addSessions(6, clock.t - 1000);
    const tooSoon = await runDream(opts({ clock }));
    assert.match(tooSoon.reason, /2\.0 h ago; it runs at most every 24 h/);
    const forced = await runDream(opts({ clock, force: true }));
    assert.equal(forced.ran, true);
    assert.match(forced.reason, /forced/);
    clock.t += 25 * HOUR; // a forced run is a run: the next one waits 24 h from it

    const fewNew = await runDream(opts({ clock }));
    assert.match(fewNew.reason, /0 new sessions since/, 'sessions before the forced run are not new any more');
    clock.t += 11 * 60_000;
    p.addSessions(5, clock.t - 1000);
    assert.equal((await runDream(opts({ clock }))).ran, true);
  });
});

describe('idempotence, undo and dry runs', () => {
  it('a second run with nothing new changes nothing', async () => {
    p.addSessions(5, T0 - HOUR);
    const first = await runDream(opts());
    assert.ok(first.changes.length > 0);
    const after1 = filesOf(p.dir);
    const clock = fixedClock(T0 + 25 * HOUR);
    p.addSessions(5, clock.t - HOUR);
    server.reply('anthropic.messages', anthropicAnswer('{"actions": []}'));
    const second = await runDream(opts({ clock, llm: llm('anthropic') }));
    assert.equal(second.ran, true);
    assert.deepEqual(second.changes, []);
    assert.deepEqual(filesOf(p.dir), after1);
  });

  it('undo puts every file back, leaves later edits alone, and runs out', async () => {
    p.addSessions(5, T0 - HOUR);
    const before0 = filesOf(p.dir);
    server.reply('anthropic.messages', anthropicAnswer(JSON.stringify(FIXTURE_ACTIONS)));
    const r = await runDream(opts({ llm: llm('anthropic') }));
    assert.ok(r.changes.length >= 4);
    const u = undoDream({ dir: p.dir, home: p.home });
    assert.equal(u.runId, r.runId);
    assert.deepEqual(u.skipped, []);
    assert.deepEqual(filesOf(p.dir), before0);
    assert.throws(() => undoDream({ dir: p.dir, home: p.home }), { code: 'DREAM_NOTHING_TO_UNDO' });

    // A file edited after the run is not rolled back.
    const again = await runDream(opts({ force: true, clock: fixedClock(T0 + HOUR) }));
    assert.ok(again.changes.some((c) => c.file === 'project_release.md'));
    writeFileSync(join(p.dir, 'project_release.md'), 'edited by hand\n');
    const u2 = undoDream({ dir: p.dir, home: p.home });
    assert.deepEqual(
      u2.skipped.map((s) => s.file),
      ['project_release.md'],
    );
    assert.equal(readFileSync(join(p.dir, 'project_release.md'), 'utf8'), 'edited by hand\n');
    assert.ok(existsSync(join(p.dir, 'feedback_testing_copy.md')), 'the merged duplicate is back');
  });

  it('an undone run no longer counts as the last consolidation for the time gate', async () => {
    p.addSessions(5, T0 - HOUR);
    const r = await runDream(opts());
    assert.equal(r.ran, true, r.reason);
    undoDream({ dir: p.dir, home: p.home, clock: fixedClock(T0 + HOUR / 2) });
    const later = fixedClock(T0 + HOUR);
    const again = await runDream(opts({ clock: later, dryRun: true }));
    assert.equal(again.ran, true, again.reason);
    assert.match(again.reason, /so far \(no consolidation yet\)/);
  });

  it('a dry run writes nothing: no memory file, no state, no report', async () => {
    p.addSessions(5, T0 - HOUR);
    const before0 = filesOf(p.dir);
    const r = await runDream(opts({ dryRun: true }));
    assert.equal(r.ran, true);
    assert.equal(r.report, null);
    assert.ok(r.changes.some((c) => c.action === 'merge'));
    assert.match(r.reportText, /dry run/);
    assert.deepEqual(filesOf(p.dir), before0);
    assert.ok(!existsSync(stateDir(p.home, p.dir)));
  });
});

describe('without a working model', () => {
  it('runs the deterministic steps and says what ran', async () => {
    p.addSessions(5, T0 - HOUR);
    const r = await runDream(opts({ llmMissingReason: 'no model configured (set LOCI_LLM_PROVIDER)' }));
    assert.equal(r.model, 'none');
    assert.deepEqual([...new Set(r.changes.map((c) => c.action))].sort(), ['index', 'merge', 'rewrite-dates']);
    assert.ok(r.notes.some((n) => /skipped: no model configured .*duplicates, dates/.test(n)));
    assert.ok(existsSync(join(p.dir, 'project_db_choice.md')), 'no contradiction is judged without a model');
  });

  it('an invalid answer is asked again once, then given up; nothing of it is written', async () => {
    p.addSessions(5, T0 - HOUR);
    server.reply(
      'anthropic.messages',
      anthropicAnswer('{"actions": [{"action": "delete", "file": "user_role.md"}]}'),
      anthropicAnswer('Sure! I would delete user_role.md.'),
    );
    const r = await runDream(opts({ llm: llm('anthropic') }));
    assert.equal(r.model, 'failed');
    assert.ok(
      r.notes.some((n) => /invalid answer twice .*not JSON/.test(n)),
      r.notes.join('\n'),
    );
    const retry = JSON.stringify(server.requestsTo('anthropic.messages').at(-1)!.body);
    assert.match(retry, /action 1: \\"reason\\" is missing/);
    assert.ok(existsSync(join(p.dir, 'user_role.md')));
    assert.ok(
      r.changes.some((c) => c.action === 'merge'),
      'the rules still ran',
    );
  });
});
