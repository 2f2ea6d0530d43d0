/**
 * @module hooks/protocol.test
 * Tolerant input parsing, event names, trivial prompts and the answer shape.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isLociError } from '../internal.js';
import { contextAnswer, HOOK_EVENTS, isTrivialPrompt, parseHookEvent, parseHookInput } from './protocol.js';

describe('hook protocol', () => {
  it('parses the documented fields, ignores unknown ones and wrong types', () => {
    const i = parseHookInput(
      'stop',
      '\uFEFF  {"session_id":"s","transcript_path":"/t.jsonl","cwd":"/p","hook_event_name":"Stop",' +
        '"stop_hook_active":true,"prompt":42,"background_tasks":[],"effort":{"level":"high"}}\n',
    );
    assert.deepEqual(i, {
      stopHookActive: true,
      sessionId: 's',
      transcriptPath: '/t.jsonl',
      cwd: '/p',
      eventName: 'Stop',
    });
    assert.equal(parseHookInput('stop', '{}').stopHookActive, false);
    assert.equal(parseHookInput('post-compact', '{"compact_summary":"S","trigger":"manual"}').compactSummary, 'S');
  });

  it('rejects what is not a JSON object with HOOK_INPUT_INVALID', () => {
    for (const bad of ['', '   ', 'not json', '[1,2]', '"text"', 'null', '{"a":']) {
      assert.throws(
        () => parseHookInput('stop', bad),
        (e) => isLociError(e, 'HOOK_INPUT_INVALID'),
      );
    }
  });

  it('keeps the HOOK_INPUT_INVALID message one short line when the input has line breaks', () => {
    for (const bad of ['x\ry', 'a\nb\u2028c', `${'z'.repeat(5000)}\n{`]) {
      assert.throws(
        () => parseHookInput('session-start', bad),
        (e) => isLociError(e, 'HOOK_INPUT_INVALID') && !/[\r\n\u2028\u2029]/.test(e.message) && e.message.length < 400,
      );
    }
  });

  it('accepts kebab-case and Claude Code event names; unknown names fail with HOOK_EVENT_UNKNOWN', () => {
    for (const e of HOOK_EVENTS) assert.equal(parseHookEvent(e), e);
    assert.equal(parseHookEvent('UserPromptSubmit'), 'user-prompt-submit');
    assert.throws(
      () => parseHookEvent('pre-tool-use'),
      (e) => isLociError(e, 'HOOK_EVENT_UNKNOWN'),
    );
  });

  it('skips slash commands, shell escapes, memory shortcuts and one-word prompts', () => {
    for (const p of ['', '  ', '/clear', '/compact keep decisions', '!ls', '# remember this', 'thanks', 'continue'])
      assert.equal(isTrivialPrompt(p), true, p);
    for (const p of ['fix the test', 'why does /login fail?']) assert.equal(isTrivialPrompt(p), false, p);
    // Scripts written without spaces are not one word (issue 10, point 8).
    for (const p of [
      '钩子如何注入记忆',
      'フックはどうやって記憶を注入するの',
      'ทำไมการทดสอบล้มเหลว',
      '为什么 npm test 失败',
    ])
      assert.equal(isTrivialPrompt(p), false, p);
    for (const p of ['好的', '继续', 'はい', '!!!']) assert.equal(isTrivialPrompt(p), true, p);
  });

  it('skips small talk that names no topic (recall found only noise for it)', () => {
    for (const p of ['ok thanks', 'yes please do that', 'sounds good, go ahead', "great, what's next?", 'try again'])
      assert.equal(isTrivialPrompt(p), true, p);
    for (const p of ['continue with the migration', 'yes, use redis for the cache'])
      assert.equal(isTrivialPrompt(p), false, p);
  });

  it('answers with hookSpecificOutput, or nothing for an empty text', () => {
    assert.deepEqual(JSON.parse(contextAnswer('session-start', 'x')), {
      hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'x' },
    });
    assert.equal(contextAnswer('user-prompt-submit', ''), '');
  });
});
