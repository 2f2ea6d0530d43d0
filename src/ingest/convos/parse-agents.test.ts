/** @module ingest/convos/parse-agents.test — Codex CLI and Gemini CLI logs. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseConversations, type Conversation } from './index.js';

const FIX = fileURLToPath(new URL('../../../test/fixtures/convos/', import.meta.url));
const parse = (p: string) => parseConversations(join(FIX, p), readFileSync(join(FIX, p), 'utf8'));
const texts = (c: Conversation) => c.messages.map((m) => m.text);

describe('Codex CLI', () => {
  it('reads a rollout: event messages once, tool calls and outputs, session facts', () => {
    const { conversations, warnings } = parse(
      'codex/sessions/2025/05/20/rollout-2025-05-20T09-14-03-0196f2a1-7c3e-7d10-9b2a-5e8f4c1d2a3b.jsonl',
    );
    assert.deepEqual(warnings, ['unknown Codex record type "telemetry_blob" skipped (1×)']);
    const c = conversations[0]!;
    assert.equal(c.id, '0196f2a1-7c3e-7d10-9b2a-5e8f4c1d2a3b');
    assert.equal(c.cwd, '/home/dev/ledger');
    assert.equal(c.gitBranch, 'main');
    assert.equal(c.meta.version, '0.36.0');
    assert.equal(c.meta.model, 'gpt-5-codex');
    assert.deepEqual(texts(c), [
      'Why is the monthly balance report off by one cent in March?',
      "[shell] rg -n 'toFixed\\(2\\)' src",
      '→ src/report.ts:42:  return (sum / 100).toFixed(2);',
      'The report sums floats and rounds once at the end. March has 31 daily entries, and the float error crosses ' +
        'half a cent. Sum integer cents instead.',
      'Do it.',
      '[apply_patch] *** Begin Patch ⏎ *** Update File: src/report.ts ⏎ @@ ⏎ -  return (sum / 100).toFixed(2); ⏎ + ' +
        ' return formatCents(sumCents); ⏎ *** End Patch',
      '→ Success. Updated the following files: ⏎ M src/report.ts',
      '[shell] npm test',
      '→ [error] 1 failing: report › february totals',
      'Patched `src/report.ts` to sum cents. One February test still expects the old rounded value; I updated its ' +
        'fixture and all tests pass now.',
    ]);
    assert.ok(!texts(c).join().includes('environment_context'));
    assert.ok(!texts(c).join().includes('Inspecting rounding'));
    assert.ok(c.messages.every((m) => m.timestamp?.startsWith('2025-05-20T09:14')));
  });

  it('reads the older shape (bare items, no event messages)', () => {
    const [c] = parse('codex/sessions/2025/01/08/rollout-2025-01-08-legacy.jsonl').conversations;
    assert.equal(c!.id, '5e1d2c3b-4a59-4876-9a5b-4c3d2e1f0a9b');
    assert.deepEqual(texts(c!), [
      'Rename the `usr` variables to `user` in src/auth.',
      '[shell] rg -l usr src/auth',
      '→ src/auth/session.ts ⏎ src/auth/login.ts',
      'Renamed `usr` to `user` in src/auth/session.ts and src/auth/login.ts.',
    ]);
  });
});

describe('Codex CLI command output', () => {
  it('drops the exec header (chunk id, wall time, exit code, tokens) from a result; non-zero code: error', () => {
    const at = '2026-05-04T18:00:25.503Z';
    const line = (type: string, payload: object) => JSON.stringify({ timestamp: at, type, payload });
    const out = (code: number, body: string) =>
      line('response_item', {
        type: 'function_call_output',
        call_id: `c${code}`,
        output:
          `Chunk ID: 2cbd4e\nWall time: 0.0000 seconds\nProcess exited with code ${code}\n` +
          `Original token count: 26\nOutput:\n${body}`,
      });
    const content = [
      line('session_meta', { id: '019df425-ecb7-7d20-b980-1c2f3521fd65', cwd: '/w/app' }),
      line('event_msg', { type: 'user_message', message: 'check it' }),
      line('response_item', {
        type: 'function_call',
        name: 'exec_command',
        arguments: '{"cmd":"cat a"}',
        call_id: 'c0',
      }),
      out(0, 'prompted=yes\n'),
      out(2, 'cat: b: No such file'),
      line('response_item', {
        type: 'function_call_output',
        call_id: 'c3',
        output: 'Exit code: 0\nWall time: 1 s\nOutput:\nok',
      }),
    ].join('\n');
    const [c] = parseConversations(
      '/x/rollout-2026-05-04T18-00-19-019df425-ecb7-7d20-b980-1c2f3521fd65.jsonl',
      content,
    ).conversations;
    assert.deepEqual(texts(c!).slice(2), ['→ prompted=yes', '→ [error] cat: b: No such file', '→ ok']);
  });
});

describe('Gemini CLI', () => {
  it('reads a chat file with tool calls, skipping info records and thoughts', () => {
    const { conversations, warnings } = parse('gemini/tmp/8c1f0e2d/chats/session-2025-07-01T10-00-9f8e7d6c.json');
    assert.deepEqual(warnings, []);
    const c = conversations[0]!;
    assert.equal(c.id, '9f8e7d6c-1a2b-4c3d-8e9f-0a1b2c3d4e5f');
    assert.equal(c.meta.projectHash, '8c1f0e2d4b6a8c0e2d4f6a8b0c2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a2b4c6d8e');
    assert.equal(c.startedAt, '2025-07-01T10:00:04.511Z');
    assert.deepEqual(texts(c), [
      'List the three biggest files under assets/.',
      '[run_shell_command] du -ah assets | sort -rh | head -n 3',
      '→ 48M\tassets/video/intro.mp4 ⏎ 12M\tassets/img/hero.png ⏎ 3.1M\tassets/fonts/Inter.woff2',
      'The biggest are intro.mp4 (48 MB), hero.png (12 MB) and Inter.woff2 (3.1 MB). The video should move to the CDN.',
      'Compress hero.png losslessly.',
      "I'll compress it with oxipng at level 4.",
      '[run_shell_command] oxipng -o 4 assets/img/hero.png',
      '→ assets/img/hero.png: 12.0MB → 9.8MB (18.3% smaller)',
      'Done: hero.png went from 12 MB to 9.8 MB with no quality loss.',
    ]);
  });

  it('reads JSONL with session_metadata, dropping thought parts and counting unknown records', () => {
    const { conversations, warnings } = parse('gemini/chat-2025-07-02.jsonl');
    const c = conversations[0]!;
    assert.equal(c.id, '2b3c4d5e-6f70-4819-a2b3-c4d5e6f70819');
    assert.deepEqual(texts(c), [
      'What does `set -euo pipefail` do?',
      '-e exits on error, -u fails on unset variables, -o pipefail makes a pipeline fail if any command in it fails.',
    ]);
    assert.deepEqual(warnings, ['unknown Gemini message type "sparkle" skipped (1×)']);
  });

  it('keeps an API error reply, drops CLI notices (issue 10)', () => {
    const chat = {
      sessionId: 's-err',
      projectHash: 'h',
      startTime: '2025-12-03T08:28:00.000Z',
      messages: [
        { id: '1', timestamp: '2025-12-03T08:28:01.000Z', type: 'user', content: 'Summarise the log.' },
        {
          id: '2',
          timestamp: '2025-12-03T08:28:02.000Z',
          type: 'error',
          content: '[API Error: quota exceeded for model]',
        },
        { id: '3', timestamp: '2025-12-03T08:28:03.000Z', type: 'info', content: 'Request cancelled.' },
        {
          id: '4',
          timestamp: '2025-12-03T08:28:04.000Z',
          type: 'error',
          content: 'Automatic update failed. Please try updating manually',
        },
      ],
    };
    const { conversations } = parseConversations('/x/session-err.json', JSON.stringify(chat));
    assert.deepEqual(
      conversations[0]!.messages.map((m) => [m.role, m.text]),
      [
        ['user', 'Summarise the log.'],
        ['assistant', '[API Error: quota exceeded for model]'],
      ],
    );
  });

  it('reads an API-content checkpoint with function calls and responses', () => {
    const [c] = parse('gemini/checkpoint-auth-refactor.json').conversations;
    assert.deepEqual(
      c!.messages.map((m) => [m.role, m.kind]),
      [
        ['user', 'message'],
        ['assistant', 'message'],
        ['assistant', 'tool'],
        ['tool', 'tool'],
        ['assistant', 'message'],
      ],
    );
    assert.equal(c!.messages[2]!.text, '[read_file /home/dev/app/src/auth.ts]');
  });

  it('reads logs.json as user prompts per session', () => {
    const { conversations } = parse('gemini/tmp/8c1f0e2d/logs.json');
    assert.deepEqual(
      conversations.map((c) => [c.id, c.messages.length]),
      [
        ['9f8e7d6c-1a2b-4c3d-8e9f-0a1b2c3d4e5f', 2],
        ['aa11bb22-cc33-4d44-8e55-ff6677889900', 1],
      ],
    );
    assert.ok(conversations[0]!.source.endsWith('logs.json#9f8e7d6c-1a2b-4c3d-8e9f-0a1b2c3d4e5f'));
  });
});
