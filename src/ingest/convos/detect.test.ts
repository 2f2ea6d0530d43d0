/** @module ingest/convos/detect.test */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { detectFormat, isConvoCompanion, isSlackExportRoot, type ConvoFormat } from './index.js';

const FIX = fileURLToPath(new URL('../../../test/fixtures/convos/', import.meta.url));
const head = (p: string) => readFileSync(join(FIX, p), 'utf8').slice(0, 65536);
const S = '5f0c2e1a-8b7d-4c3e-9a21-3f6d0b9e4c10';

const CASES: [string, ConvoFormat | null][] = [
  [`claude-code/projects/-home-dev-acme-api/${S}.jsonl`, 'claude-code'],
  [`claude-code/projects/-home-dev-acme-api/${S}/subagents/agent-a1b2c3d.jsonl`, 'claude-code'],
  ['claude-code/projects/-home-dev-acme-api/agent-9e8d7c6b.jsonl', 'claude-code'],
  ['claude-code/projects/-home-dev-weird/9d8c7b6a-5555-4666-8777-888899990000.jsonl', 'claude-code'],
  ['claude-code/history.jsonl', 'claude-history'],
  ['chatgpt/conversations.json', 'chatgpt'],
  ['chatgpt/single-conversation.json', 'chatgpt'],
  ['claude-ai/conversations.json', 'claude-ai'],
  ['claude-ai/flat.json', 'claude-ai'],
  ['slack/eng-backend/2024-03-04.json', 'slack'],
  ['slack/users.json', null],
  ['slack/channels.json', null],
  ['codex/sessions/2025/05/20/rollout-2025-05-20T09-14-03-0196f2a1-7c3e-7d10-9b2a-5e8f4c1d2a3b.jsonl', 'codex'],
  ['codex/sessions/2025/01/08/rollout-2025-01-08-legacy.jsonl', 'codex'],
  ['gemini/tmp/8c1f0e2d/chats/session-2025-07-01T10-00-9f8e7d6c.json', 'gemini'],
  ['gemini/chat-2025-07-02.jsonl', 'gemini'],
  ['gemini/checkpoint-auth-refactor.json', 'gemini'],
  ['gemini/tmp/8c1f0e2d/logs.json', 'gemini'],
  ['chat-text/quoted-transcript.md', 'chat-text'],
  ['chat-text/human-assistant.txt', 'chat-text'],
  ['chat-text/user-ai.txt', 'chat-text'],
  ['chat-text/team-chat.txt', 'chat-text'],
  ['chat-text/meeting-notes.md', 'chat-text'],
  ['chat-text/not-a-chat.md', null],
];

describe('detectFormat', () => {
  for (const [p, f] of CASES) {
    it(`${p} → ${f}`, () => assert.equal(detectFormat(join(FIX, p), head(p)), f));
  }

  it('recognises a Claude Code session whose first line is longer than the 64 KiB head', () => {
    const line = JSON.stringify({
      parentUuid: null,
      sessionId: 's1',
      type: 'user',
      uuid: 'u1',
      message: { role: 'user', content: 'x'.repeat(100_000) },
    });
    assert.equal(detectFormat('/p/s1.jsonl', line.slice(0, 65536)), 'claude-code');
  });

  it('says null for project files', () => {
    assert.equal(detectFormat('/p/src/a.ts', 'export const a = 1;\n'), null);
    assert.equal(detectFormat('/p/package.json', '{"name":"x","version":"1.0.0"}'), null);
    assert.equal(detectFormat('/p/data.jsonl', '{"id":1,"v":2}\n{"id":2,"v":3}\n'), null);
    assert.equal(detectFormat('/p/README.md', '# Title\n\nSome prose about the project.\n'), null);
    // a changelog of `Label: value` lines is not a dialogue
    const changelog =
      '## 1.2.0\nAdded: export to CSV\nFixed: crash on empty input\nAdded: dark mode\nFixed: typo\nChanged: defaults\n';
    assert.equal(detectFormat('/p/CHANGES.md', changelog), null);
    // code with `Name: value` lines is never read as chat (extension)
    assert.equal(detectFormat('/p/a.py', 'Alice: hi\nBob: hello\nAlice: bye\nBob: ok\n'), null);
  });
});

describe('companions', () => {
  it('flags tool-result sidecars, session memory and subagent meta files', () => {
    assert.equal(isConvoCompanion(`/c/projects/p/${S}/tool-results/toolu_1.txt`), true);
    assert.equal(isConvoCompanion(`/c/projects/p/${S}/session-memory/summary.md`), true);
    assert.equal(isConvoCompanion(`/c/projects/p/${S}/subagents/agent-1.meta.json`), true);
    assert.equal(isConvoCompanion(`/c/projects/p/${S}.jsonl`), false);
    assert.equal(isConvoCompanion(`C:\\c\\projects\\p\\${S}\\tool-results\\toolu_1.txt`), true);
    assert.equal(isConvoCompanion(`/c/projects/p/${S}/subagents/agent-1.jsonl`), false);
    assert.equal(isConvoCompanion('/c/src/tool-results.ts'), false);
    assert.equal(detectFormat(`/c/projects/p/${S}/tool-results/x.txt`, 'Human: a\nAssistant: b\n'), null);
  });

  it('recognises the root of a Slack export', () => {
    assert.equal(isSlackExportRoot(['users.json', 'channels.json', 'general']), true);
    assert.equal(isSlackExportRoot(['users.json', 'src']), false);
    assert.equal(isSlackExportRoot(['Users.JSON', 'DMS.json']), true);
    assert.equal(isSlackExportRoot(['groups.json', 'channels.json']), false);
  });
});
