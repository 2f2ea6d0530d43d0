/** @module ingest/convos/parse-claude-code.test */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chunkExchanges, parseConversations, type Conversation, type ParseOptions } from './index.js';

const FIX = fileURLToPath(new URL('../../../test/fixtures/convos/claude-code/', import.meta.url));
const S = '5f0c2e1a-8b7d-4c3e-9a21-3f6d0b9e4c10';
const SESSION = join(FIX, 'projects/-home-dev-acme-api', `${S}.jsonl`);
const sidecars = (file: string) => (name: string) => {
  try {
    return readFileSync(
      join(dirname(file), file.replace(/^.*\//, '').replace(/\.jsonl$/, ''), 'tool-results', name),
      'utf8',
    );
  } catch {
    return undefined;
  }
};
const parse = (file: string, opts: ParseOptions = {}) =>
  parseConversations(file, readFileSync(file, 'utf8'), { resolveSidecar: sidecars(file), ...opts });
const texts = (c: Conversation) => c.messages.map((m) => m.text);

describe('Claude Code session', () => {
  const { conversations, warnings } = parse(SESSION);
  const main = conversations[0]!;

  it('reads the session facts and the title', () => {
    assert.deepEqual(warnings, []);
    assert.equal(main.id, S);
    assert.equal(main.format, 'claude-code');
    assert.equal(main.source, SESSION);
    assert.equal(main.file, SESSION);
    assert.equal(main.cwd, '/home/dev/acme-api');
    assert.equal(main.gitBranch, 'feat/rate-limit');
    assert.equal(main.title, 'Login rate limiting'); // custom-title beats ai-title and summary
    assert.equal(main.meta.sessionId, S);
    assert.equal(main.meta.version, '2.1.98');
    assert.equal(main.meta.model, 'claude-sonnet-4-5-20250929');
    // the first record of the session (an injected isMeta caveat) marks its start
    assert.equal(main.startedAt, '2025-06-12T09:30:07.000Z');
    assert.equal(main.exchangeMode, 'user-turns');
  });

  it('keeps what was said, verbatim, with timestamps and uuids', () => {
    const first = main.messages.find((m) => m.role === 'user')!;
    assert.equal(
      first.text,
      'The login endpoint gets hammered by bots. Add rate limiting to POST /auth/login — max 5 attempts per minute ' +
        'per IP.\nWe already run Redis for sessions.',
    );
    assert.equal(first.uuid, '0a1b2c3d-0000-4000-8000-000000000002');
    assert.match(first.timestamp!, /^2025-06-12T09:30:\d\d\.000Z$/);
    assert.equal(first.speaker, 'user');
    assert.ok(
      texts(main).some((t) => t.startsWith('There is no limiter yet. Two options:\n\n1. `express-rate-limit`')),
    );
    for (const m of main.messages) if (m.kind === 'message') assert.ok(m.timestamp, `timestamp on ${m.text}`);
  });

  it('drops harness noise (isMeta, system-reminder, thinking, system records); keeps API error replies', () => {
    const all = texts(main).join('\n');
    assert.ok(all.includes('API Error'), 'an API error reply is what the user saw: kept');
    for (const gone of [
      'Caveat:',
      'system-reminder',
      'today is 2025-06-12',
      'check the router first',
      'turn_duration',
      'Conversation compacted',
      'malicious',
    ]) {
      assert.ok(!all.includes(gone), `${gone} should be dropped`);
    }
  });

  it('renders tool calls and results as short verbatim lines', () => {
    const t = texts(main);
    assert.ok(t.includes("[Grep] router.post\\('/auth/login' in src"));
    assert.ok(t.includes('[Read src/routes/auth.ts]'));
    assert.ok(t.includes('[Read package.json:1-40]'));
    assert.ok(t.includes('[Edit src/routes/auth.ts]'));
    assert.ok(t.includes('[Bash] npm install express-rate-limit rate-limit-redis'));
    assert.ok(t.includes('[Task code-reviewer] Review limiter config'));
    assert.ok(t.some((x) => x.startsWith('→ [error] <tool_use_error>String to replace not found')));
    for (const m of main.messages.filter((x) => x.kind === 'tool')) {
      assert.ok(!m.text.includes('\n'), 'tool lines are one line');
      if (m.role === 'tool') assert.ok(m.text.length <= 2 + 8 + 301, m.text);
    }
  });

  it('reads a tool-result sidecar through resolveSidecar, else keeps the preview', () => {
    const withSide = main.messages.find((m) => m.text.includes('login limiter blocks the 6th attempt'));
    assert.ok(withSide, 'sidecar text used');
    assert.equal(withSide.role, 'tool');
    const without = parseConversations(SESSION, readFileSync(SESSION, 'utf8')).conversations[0]!;
    assert.ok(without.messages.some((m) => m.text.includes('Output too large (48.1KB)')));
  });

  it('keeps parallel tool results that hang off the thread (siblings are not branches)', () => {
    assert.ok(texts(main).includes('→ added 2 packages, and audited 311 packages in 3s ⏎ found 0 vulnerabilities'));
    const i = main.messages.findIndex((m) => m.text.startsWith('→ added 2 packages'));
    const j = main.messages.findIndex((m) => m.text.startsWith('[Read package.json'));
    assert.ok(j < i, 'line order kept');
  });

  it('follows the rewind: the active thread skips the abandoned turn, archived as ~branch-1', () => {
    assert.ok(!texts(main).some((t) => t.includes('10 per minute')));
    assert.ok(texts(main).includes('Keep 5 per minute, but exempt the health-check range 10.0.0.0/8.'));
    assert.equal(main.meta.abandonedBranches, 1);
    const branch = conversations.find((c) => c.id === `${S}~branch-1`)!;
    assert.ok(branch);
    assert.equal(branch.source, `${SESSION}#${S}~branch-1`);
    assert.deepEqual(texts(branch), [
      'Actually, make it 10 per minute and return a Retry-After header.',
      'Changed the limit to 10 per minute; express-rate-limit sets Retry-After by itself when standardHeaders is on.',
    ]);
    assert.equal(branch.meta.branchOf, S);
    assert.equal(branch.meta.forkedFrom, '0a1b2c3d-0000-4000-8000-000000000019');
    assert.equal(conversations.length, 2);
  });

  it('crosses the compaction boundary (logicalParentUuid) and keeps the compact summary', () => {
    const summary = main.messages.find(
      (m) => m.kind === 'summary' && m.text.startsWith('This session is being continued'),
    )!;
    assert.ok(summary);
    assert.equal(summary.role, 'system');
    const before = main.messages.findIndex((m) => m.text.startsWith('Go with option 1'));
    const after = main.messages.findIndex((m) => m.text.startsWith('Now document the limiter'));
    assert.ok(before >= 0 && after > before);
    assert.ok(texts(main)[after]!.endsWith('[image]'));
  });

  it('keeps summary records and titles as their own messages and chunks', () => {
    const kinds = main.messages
      .filter((m) => m.kind === 'title' || m.kind === 'summary')
      .map((m) => `${m.kind}:${m.text.slice(0, 20)}`);
    assert.deepEqual(kinds, [
      'summary:Rate limiting for th',
      'title:Login rate limiting',
      'summary:This session is bein',
      'title:Add Redis-backed log',
    ]);
    const chunks = chunkExchanges(main);
    assert.deepEqual(
      chunks.filter((c) => c.kind !== 'exchange').map((c) => c.kind),
      ['summary', 'title', 'summary', 'title'],
    );
    assert.ok(chunks.every((c) => c.exchangeId === `${S}:${c.exchangeIndex}`));
  });

  it('turns off branches with includeBranches: false but still counts them', () => {
    const r = parse(SESSION, { includeBranches: false });
    assert.equal(r.conversations.length, 1);
    assert.equal(r.conversations[0]!.meta.abandonedBranches, 1);
  });

  it('honours toolResultChars and toolInputChars', () => {
    const r = parse(SESSION, { toolResultChars: 0, toolInputChars: 20 }).conversations[0]!;
    assert.ok(!r.messages.some((m) => m.role === 'tool'));
    const bash = r.messages.find((m) => m.text.startsWith('[Bash] npm install'))!;
    assert.equal(bash.text, '[Bash] npm install express-…');
  });
});

describe('Claude Code subagents', () => {
  it('reads a subagent file as its own conversation', () => {
    const file = join(FIX, 'projects/-home-dev-acme-api', S, 'subagents/agent-a1b2c3d.jsonl');
    const [c, ...rest] = parse(file).conversations;
    assert.equal(rest.length, 0);
    assert.equal(c!.id, `${S}/agent-a1b2c3d`);
    assert.equal(c!.source, file);
    assert.equal(c!.meta.isSidechain, true);
    assert.equal(c!.meta.agentId, 'a1b2c3d');
    assert.equal(c!.messages[0]!.text, 'Review the rate limiter configuration in src/routes/auth.ts for mistakes.');
    assert.equal(c!.messages.length, 4);
  });

  it('reads an older agent-<id>.jsonl beside the sessions (agent id from the file name)', () => {
    const file = join(FIX, 'projects/-home-dev-acme-api/agent-9e8d7c6b.jsonl');
    const [c] = parse(file).conversations;
    assert.equal(c!.id, '3c2b1a09-1111-4222-8333-444455556666/agent-9e8d7c6b');
    assert.equal(c!.gitBranch, null);
    assert.deepEqual(texts(c!).slice(-1), ['REDIS_URL is read in two places: src/redis.ts and src/config.ts.']);
  });
});

describe('Claude Code tolerance', () => {
  const file = join(FIX, 'projects/-home-dev-weird/9d8c7b6a-5555-4666-8777-888899990000.jsonl');

  it('turns malformed lines, unknown types and a truncated last line into warnings', () => {
    const { conversations, warnings } = parseConversations(file, readFileSync(file).toString('utf8'));
    assert.equal(conversations.length, 1);
    assert.deepEqual(
      texts(conversations[0]!).map((t) => t.slice(0, 20)),
      ['Why does the CSV imp', 'The file is Latin-1,', 'Thanks, that worked.'],
    );
    assert.ok(conversations[0]!.messages[0]!.text.includes('\uFFFD'), 'invalid UTF-8 decoded with U+FFFD');
    assert.ok(warnings.some((w) => w.startsWith('line 2: malformed JSON')));
    assert.ok(warnings.some((w) => w.startsWith('line 6: not a JSON object')));
    assert.ok(warnings.some((w) => w.startsWith('line 8: incomplete')));
    assert.ok(warnings.some((w) => w.includes('"hologram-frame"') && w.includes('(2×)')));
  });

  it('skips `//` and `#` comment lines silently: they are not malformed records', () => {
    const rec = (uuid: string, parentUuid: string | null, type: string, content: string) =>
      JSON.stringify({
        type,
        uuid,
        parentUuid,
        sessionId: 'c',
        timestamp: '2026-01-01T00:00:00Z',
        message: {
          role: type,
          content,
        },
      });
    const content = [
      '// Source: a gist (fixture header)',
      '# Demonstrates: comments before the records',
      rec('a', null, 'user', 'Hello there'),
      '  // an indented comment',
      rec('b', 'a', 'assistant', 'Hi!'),
      'not json',
    ].join('\n');
    const { conversations, warnings } = parseConversations('/x/c.jsonl', content + '\n');
    assert.deepEqual(texts(conversations[0]!), ['Hello there', 'Hi!']);
    assert.deepEqual(warnings, [
      'line 6: incomplete or malformed JSON (8 chars), skipped — a file still being ' + 'written ends like this',
    ]);
  });

  it('a sidechain whose parents live in the main session gives no "parent record missing" warning', () => {
    const rec = (uuid: string, parentUuid: string, type: string, content: string) =>
      JSON.stringify({
        type,
        uuid,
        parentUuid,
        isSidechain: true,
        agentId: 'acompact-1',
        sessionId: 's',
        timestamp: '2026-01-01T00:00:00Z',
        message: { role: type, content },
      });
    const content = [
      rec('a', 'in-main-1', 'user', 'Summarise the conversation'),
      rec('b', 'in-main-2', 'user', 'Please be detailed'),
      rec('c', 'b', 'assistant', 'Summary: we fixed the renderer.'),
    ].join('\n');
    const { conversations, warnings } = parseConversations('/x/s/subagents/agent-acompact-1.jsonl', content + '\n');
    assert.deepEqual(warnings, []);
    assert.deepEqual(texts(conversations[0]!), [
      'Summarise the conversation',
      'Please be detailed',
      'Summary: we fixed the renderer.',
    ]);
  });

  it("keeps a background task's notification (summary and result) as a tool result, not as user text", () => {
    const note =
      '<task-notification>\n<task-id>ac1</task-id>\n<status>completed</status>\n' +
      '<summary>Agent "Poem about curry" completed</summary>\n<result>Crimson river in a bowl of clay</result>\n' +
      '</task-notification>\nFull transcript available at: /tmp/x.output';
    const lines = [
      { type: 'user', uuid: 'a', parentUuid: null, message: { role: 'user', content: 'Write a poem in background' } },
      { type: 'assistant', uuid: 'b', parentUuid: 'a', message: { role: 'assistant', content: 'Started.' } },
      { type: 'user', uuid: 'c', parentUuid: 'b', message: { role: 'user', content: note } },
      { type: 'assistant', uuid: 'd', parentUuid: 'c', message: { role: 'assistant', content: 'Here it is.' } },
    ].map((r) => JSON.stringify({ ...r, sessionId: 't', timestamp: '2026-01-01T00:00:00Z' }));
    const { conversations, warnings } = parseConversations('/x/t.jsonl', lines.join('\n') + '\n');
    assert.deepEqual(warnings, []);
    const m = conversations[0]!.messages;
    assert.deepEqual(
      m.map((x) => `${x.role}: ${x.text}`),
      [
        'user: Write a poem in background',
        'assistant: Started.',
        'tool: → Agent "Poem about curry" completed ⏎ Crimson river in a bowl of clay',
        'assistant: Here it is.',
      ],
    );
  });

  it('reads a line longer than 1 MB', () => {
    const big = 'lorem ipsum dolor sit amet, '.repeat(40_000);
    const lines = [
      {
        type: 'user',
        uuid: 'a',
        parentUuid: null,
        sessionId: 'big',
        timestamp: '2025-01-01T00:00:00Z',
        message: { role: 'user', content: `Please summarise this log:\n${big}` },
      },
      {
        type: 'assistant',
        uuid: 'b',
        parentUuid: 'a',
        sessionId: 'big',
        timestamp: '2025-01-01T00:00:05Z',
        message: { id: 'm', role: 'assistant', content: [{ type: 'text', text: 'It repeats one sentence.' }] },
      },
    ].map((r) => JSON.stringify(r));
    assert.ok(lines[0]!.length > 1_000_000);
    const { conversations, warnings } = parseConversations('/p/big.jsonl', `${lines.join('\n')}\n`);
    assert.deepEqual(warnings, []);
    const c = conversations[0]!;
    assert.equal(c.messages[0]!.text.length, `Please summarise this log:\n${big}`.trim().length);
    const chunks = chunkExchanges(c);
    assert.ok(chunks.length > 600 && chunks.every((x) => x.text.length <= 1600 && x.exchangeId === 'big:0'));
  });

  it('never throws on garbage', () => {
    for (const junk of [
      '',
      '\n\n',
      'null\n',
      '{"type":"user"}\n',
      '{"type":"assistant","uuid":"x","parentUuid":"x"}\n',
      '\u0000\u0001{{{\n',
    ]) {
      assert.doesNotThrow(() => parseConversations('/p/s.jsonl', junk, { format: 'claude-code' }));
    }
    const cyc =
      '{"type":"user","uuid":"a","parentUuid":"b","message":{"content":"hi"}}\n' +
      '{"type":"assistant","uuid":"b","parentUuid":"a","message":{"content":[{"type":"text","text":"yo"}]}}\n';
    const r = parseConversations('/p/s.jsonl', cyc, { format: 'claude-code' });
    assert.ok(r.warnings.some((w) => w.includes('cycle')));
  });
});

describe('Claude Code current record types (issue 10)', () => {
  const sid = '9d1f7a00-0000-4000-8000-000000000000';
  const base = { sessionId: sid, cwd: '/home/dev/shop', version: '2.1.120', isSidechain: false };
  const rec = (u: string, p: string | null, type: string, extra: Record<string, unknown>) =>
    JSON.stringify({
      ...base,
      parentUuid: p,
      uuid: u,
      type,
      timestamp: `2026-01-05T10:00:0${u.slice(-1)}.000Z`,
      ...extra,
    });
  const lines = [
    JSON.stringify({ type: 'permission-mode', permissionMode: 'default', sessionId: sid }),
    JSON.stringify({ type: 'mode', mode: 'normal', sessionId: sid }),
    rec('u1', null, 'user', { message: { role: 'user', content: 'Which port does the shop API use?' } }),
    JSON.stringify({ type: 'ai-title', aiTitle: 'Shop API port', sessionId: sid }),
    JSON.stringify({ type: 'last-prompt', lastPrompt: 'Which port does the shop API use?', sessionId: sid }),
    rec('u2', 'u1', 'attachment', { attachment: { type: 'hook_additional_context', content: ['ctx'] } }),
    JSON.stringify({ type: 'summary', summary: 'An older session about billing', leafUuid: 'zz' }),
    rec('u3', 'u2', 'assistant', {
      message: { id: 'm1', role: 'assistant', model: 'claude-x', content: [{ type: 'text', text: 'Port 8123.' }] },
    }),
    rec('u4', 'u3', 'attachment', {
      attachment: { type: 'queued_command', commandMode: 'prompt', prompt: 'and the admin port?' },
    }),
    rec('u5', 'u4', 'assistant', {
      message: { id: 'm2', role: 'assistant', model: 'claude-x', content: [{ type: 'text', text: 'Admin is 8124.' }] },
    }),
    JSON.stringify({ type: 'worktree-state', state: 'x', sessionId: sid }),
  ];
  const file = `/x/${sid}.jsonl`;
  const r = parseConversations(file, lines.join('\n') + '\n');
  const c = r.conversations[0]!;

  it('understands them without warnings', () => {
    assert.deepEqual(r.warnings, []);
    assert.equal(c.title, 'Shop API port');
  });

  it('keeps a prompt with its reply across metadata records, and a queued prompt as a prompt', () => {
    const ex = chunkExchanges(c)
      .filter((x) => x.kind === 'exchange')
      .map((x) => x.text);
    assert.deepEqual(ex, [
      'User: Which port does the shop API use?\nAssistant: Port 8123.',
      'User: and the admin port?\nAssistant: Admin is 8124.',
    ]);
  });

  it('counts a genuinely unknown type once', () => {
    const r2 = parseConversations(
      file,
      [
        ...lines,
        JSON.stringify({ type: 'brand-new', uuid: 'n1', parentUuid: 'u5' }),
        JSON.stringify({ type: 'brand-new' }),
      ].join('\n') + '\n',
    );
    assert.deepEqual(r2.warnings, ['unknown Claude Code record type "brand-new" skipped (2×)']);
  });
});
