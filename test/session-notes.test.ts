/**
 * @module test/session-notes
 * Session notes: the thresholds (first at 10K tokens, then 5K tokens plus three tool calls), the
 * cap, extractive notes without a model, model notes through a loopback OpenAI-compatible server,
 * and Claude Code's own `session-memory/summary.md`.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { isLociError } from '../src/core/errors.js';
import {
  claudeSessionSummary,
  NOTES_SECTIONS,
  NOTES_THRESHOLDS,
  readSessionNotes,
  updateSessionNotes,
} from '../src/extract/index.js';
import { createLlmProvider } from '../src/providers/index.js';
import { startLoopback, type Loopback } from './helpers/loopback.js';
import { fakeTranscript, openaiText, type FakeTurn } from './helpers/session.js';

let server: Loopback;
let root: string;
let home: string;
let t: ReturnType<typeof fakeTranscript>;
before(async () => {
  server = await startLoopback();
});
after(() => server.close());
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'loci-notes-'));
  home = join(root, 'home');
  t = fakeTranscript(join(root, 'sess-n.jsonl'), 'sess-n', '/work/app');
});
after(() => rmSync(root, { recursive: true, force: true }));

/** About `tokens` tokens of prose (4 characters each). */
const prose = (tokens: number, at = '2026-03-04T10:00:00Z'): FakeTurn => ({
  assistant: `${'Working through the change step by step. '.repeat(Math.ceil((tokens * 4) / 41))}`.slice(0, tokens * 4),
  at,
});
const call = (n: number): FakeTurn[] =>
  Array.from({ length: n }, (_, i) => ({
    tool: 'Bash',
    input: { command: `npm test -- part${i}` },
    result: i === 0 ? 'Error: 2 tests failed' : 'ok',
    error: i === 0,
    at: '2026-03-04T10:05:00Z',
  }));

describe('session notes', () => {
  it('first written at about 10K tokens, then every 5K tokens plus three tool calls', async () => {
    t.write([{ user: 'Refactor the login flow to use sessions', at: '2026-03-04T09:00:00Z' }, prose(9_000)]);
    let r = await updateSessionNotes({ home, transcript: t.path });
    assert.equal(r.updated, false);
    assert.match(r.reason, /first notes at 10000/);
    assert.equal(readSessionNotes(home, 'sess-n'), undefined);

    t.append([
      {
        tool: 'Edit',
        input: { file_path: '/work/app/src/login.ts', old_string: 'a', new_string: 'b' },
        result: 'ok',
        at: '2026-03-04T09:30:00Z',
      },
      prose(1_500),
    ]);
    r = await updateSessionNotes({ home, transcript: t.path });
    assert.equal(r.updated, true, r.reason);
    assert.equal(r.mode, 'extractive');
    const notes = readSessionNotes(home, 'sess-n')!;
    for (const s of NOTES_SECTIONS) assert.match(notes, new RegExp(`^# ${s}$`, 'm'));
    assert.match(notes, /^_Built without a model \(extractive\)/);
    assert.match(notes, /# Session Title\nRefactor the login flow to use sessions/);
    assert.match(notes, /- src\/login\.ts \(edited\)/);

    t.append([prose(6_000), ...call(2)]);
    r = await updateSessionNotes({ home, transcript: t.path });
    assert.equal(r.updated, false);
    assert.match(r.reason, /and 2 tool calls since the last update; updates need 5000 and 3/);
    t.append(call(1));
    r = await updateSessionNotes({ home, transcript: t.path });
    assert.equal(r.updated, true, r.reason);
    assert.match(r.notes!, /# Workflow\n- `npm test -- part0`/);
    assert.match(r.notes!, /# Errors & Corrections\n- \[error\] Error: 2 tests failed/);
    // Nothing new: no update, the same notes.
    r = await updateSessionNotes({ home, transcript: t.path });
    assert.equal(r.updated, false);
  });

  it('stays under the cap of about 12K tokens', async () => {
    const turns: FakeTurn[] = [];
    for (let i = 0; i < 600; i++) turns.push({ user: `step ${i}: ${'x'.repeat(110)}`, at: '2026-03-04T10:00:00Z' });
    t.write([...turns, prose(20_000)]);
    const r = await updateSessionNotes({ home, transcript: t.path });
    assert.equal(r.updated, true);
    assert.ok(r.notes!.length <= NOTES_THRESHOLDS.cap * 4, `${r.notes!.length}`);
    assert.match(r.notes!, /step 599/);
    assert.doesNotMatch(r.notes!, /- 2026-03-04 10:00 step 3:/);
  });

  it('with a model: every section is required (one corrective retry)', async () => {
    t.write([{ user: 'Add rate limiting', at: '2026-03-04T09:00:00Z' }, prose(10_500)]);
    const good = NOTES_SECTIONS.map((s) => `# ${s}\n${s === 'Session Title' ? 'Rate limiting' : '- x'}`).join('\n\n');
    server.reply('openai.chat', openaiText('# Session Title\nRate limiting'), openaiText(good));
    const provider = createLlmProvider({ provider: 'openai', baseUrl: server.url, maxRetries: 0 }, { env: {} });
    const r = await updateSessionNotes({ home, transcript: t.path, provider });
    assert.equal(r.mode, 'model');
    assert.equal(r.updated, true);
    assert.match(readSessionNotes(home, 'sess-n')!, /# Session Title\nRate limiting/);
    const retry = server.requestsTo('openai.chat').at(-1)!.body.messages;
    assert.match(retry.at(-1).content, /lack the section\(s\) Current State/);

    server.reply('openai.chat', openaiText('nothing'), openaiText('still nothing'));
    await assert.rejects(updateSessionNotes({ home, transcript: t.path, provider, force: true }), (e) =>
      isLociError(e, 'EXTRACT_ANSWER_INVALID'),
    );
    assert.match(readSessionNotes(home, 'sess-n')!, /Rate limiting/);
  });

  it("reads Claude Code's own session-memory/summary.md when present", () => {
    t.write([{ user: 'hi', at: '2026-03-04T09:00:00Z' }]);
    assert.equal(claudeSessionSummary(t.path, 'sess-n'), undefined);
    mkdirSync(join(root, 'sess-n', 'session-memory'), { recursive: true });
    writeFileSync(join(root, 'sess-n', 'session-memory', 'summary.md'), '# Session Title\nOld notes\n');
    assert.equal(claudeSessionSummary(t.path, 'sess-n')!.text, '# Session Title\nOld notes\n');
    assert.equal(readFileSync(t.path, 'utf8').length > 0, true);
  });
});
