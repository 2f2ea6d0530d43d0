/** @module ingest/convos/parse-exports.test — ChatGPT, Claude.ai, Slack and Claude Code history. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  chunkExchanges,
  parseConversations,
  parseSlackChannel,
  slackUsersFromJson,
  type Conversation,
} from './index.js';

const FIX = fileURLToPath(new URL('../../../test/fixtures/convos/', import.meta.url));
const parse = (p: string) => parseConversations(join(FIX, p), readFileSync(join(FIX, p), 'utf8'));
const texts = (c: Conversation) => c.messages.map((m) => m.text);

describe('warnings', () => {
  it('are one line of bounded length even when the parser error quotes input with line breaks', () => {
    for (const format of ['chatgpt', 'claude-ai', 'gemini', 'slack'] as const) {
      for (const text of ['\nnot\r\njson\u2028', `{${'\n'.repeat(3)}${'x'.repeat(3000)}`]) {
        const { warnings } = parseConversations('x.json', text, { format });
        assert.ok(warnings.length > 0, format);
        for (const w of warnings)
          assert.ok(!/[\r\n\u2028\u2029]/.test(w) && w.length <= 500, `${format}: ${JSON.stringify(w).slice(0, 120)}`);
      }
    }
  });
});

describe('ChatGPT export', () => {
  const file = join(FIX, 'chatgpt/conversations.json');
  const { conversations, warnings } = parse('chatgpt/conversations.json');
  const byId = new Map(conversations.map((c) => [c.id, c]));

  it('reads every conversation of the export array, not just one', () => {
    assert.deepEqual(warnings, []);
    const mains = conversations.filter((c) => !c.id.includes('~branch-'));
    assert.deepEqual(
      mains.map((c) => c.title),
      ['Sourdough starter schedule', 'Postgres jsonb index choice', 'Plot of monthly signups'],
    );
    for (const c of conversations) {
      assert.equal(c.format, 'chatgpt');
      assert.equal(c.source, `${file}#${c.id}`);
      assert.equal(c.file, file);
    }
  });

  it('follows current_node up the tree: the edited prompt and the regenerated answer win', () => {
    const c = byId.get('6633b2e1-2e3f-4d6c-8b9a-1f2e3d4c5b61')!;
    assert.deepEqual(texts(c), [
      'Should I use GIN or BTREE for jsonb containment queries (@>)? Our key is AKIAIOSFODNN7EXAMPLE by the way, ' +
        'ignore it.',
      'Use GIN with `jsonb_path_ops`: it is smaller and faster for `@>` containment.',
      'And for equality on one key, like status?',
      "A BTREE expression index on `(data->>'status')` — equality on one extracted key is what BTREE does best.",
    ]);
    assert.equal(c.meta.model, 'gpt-4o-mini');
    assert.equal(c.meta.abandonedBranches, 2);
    assert.equal(c.messages[0]!.timestamp, '2024-05-02T12:41:40.000Z');
    assert.equal(c.startedAt, '2024-05-02T12:40:00.000Z');
  });

  it('archives the original prompt and the replaced answer as branches', () => {
    assert.deepEqual(texts(byId.get('6633b2e1-2e3f-4d6c-8b9a-1f2e3d4c5b61~branch-1')!), [
      'Should I use a GIN or a BTREE index on a jsonb column?',
      'It depends on the queries. Could you share them?',
    ]);
    const b2 = byId.get('6633b2e1-2e3f-4d6c-8b9a-1f2e3d4c5b61~branch-2')!;
    assert.deepEqual(texts(b2), ['A GIN index works for that too.']);
    assert.equal(b2.meta.branchOf, '6633b2e1-2e3f-4d6c-8b9a-1f2e3d4c5b61');
    assert.equal(b2.meta.forkedFrom, 'bbb-u2');
  });

  it('skips hidden system messages, reasoning and custom instructions; renders code and tool output', () => {
    assert.equal(byId.get('6633a1f0-1d2e-4c5b-9a8f-0e1d2c3b4a50')!.messages[0]!.role, 'user');
    const plot = byId.get('6633c3d2-3f40-4e7d-9cab-2f3e4d5c6d72')!;
    assert.deepEqual(
      plot.messages.map((m) => [m.role, m.kind, m.speaker]),
      [
        ['user', 'message', 'user'],
        ['assistant', 'tool', 'assistant'],
        ['tool', 'tool', 'python'],
        ['assistant', 'message', 'assistant'],
      ],
    );
    assert.equal(plot.messages[0]!.text, '[image]\nHere is the signup table as a screenshot. Plot signups per month.');
    assert.ok(plot.messages[1]!.text.startsWith('[python] import matplotlib.pyplot as plt ⏎ '));
    assert.equal(plot.messages[2]!.text, '→ Saved figure to signups.png');
    assert.ok(!texts(plot).join().includes('data analyst'));
    assert.equal(chunkExchanges(plot).length, 1);
  });

  it('accepts a single conversation object and reports broken JSON without throwing', () => {
    const one = parse('chatgpt/single-conversation.json');
    assert.equal(one.conversations.length, 1);
    assert.equal(one.conversations[0]!.title, 'Sourdough starter schedule');
    const broken = parseConversations('/x/conversations.json', '[{"mapping": {', { format: 'chatgpt' });
    assert.deepEqual(broken.conversations, []);
    assert.match(broken.warnings[0]!, /not valid JSON/);
  });
});

describe('Claude.ai export', () => {
  it('reads chat_messages with content blocks, text and attachments', () => {
    const { conversations, warnings } = parse('claude-ai/conversations.json');
    assert.deepEqual(warnings, []);
    assert.equal(conversations.length, 2);
    const trip = conversations[0]!;
    assert.equal(trip.id, '0f9e8d7c-6b5a-4938-8271-605f4e3d2c1b');
    assert.equal(trip.title, 'Trip budget for Lisbon');
    assert.equal(trip.startedAt, '2024-09-03T18:20:11.482Z');
    assert.deepEqual(
      trip.messages.map((m) => m.speaker),
      ['user', 'assistant', 'user', 'assistant'],
    );
    assert.ok(trip.messages[1]!.text.startsWith('Yes. Budget about 100/night'));
    assert.ok(!trip.messages[1]!.text.includes('Estimate lodging'), 'thinking skipped');
    assert.equal(
      trip.messages[2]!.text,
      'Here is my draft itinerary, anything missing?\n[attachment itinerary.txt] Day 1: Alfama, Castelo de São ' +
        'Jorge ⏎ Day 2: Belém, pastéis ⏎ Day 3: Sintra ⏎ Day 4: LX Factory\n[file map.png]',
    );
    assert.equal(
      conversations[1]!.messages[1]!.text,
      '`^\\d{4}-\\d{2}-\\d{2}$` — add lookups if you need to validate the day of month.',
    );
  });

  it('reads the flat {messages: [...]} shape', () => {
    const { conversations } = parse('claude-ai/flat.json');
    assert.equal(conversations.length, 1);
    assert.deepEqual(
      conversations[0]!.messages.map((m) => m.role),
      ['user', 'assistant', 'user', 'assistant'],
    );
    assert.match(conversations[0]!.id, /^claude-ai-[0-9a-f]{16}$/);
  });
});

describe('Slack export', () => {
  const dir = join(FIX, 'slack/eng-backend');
  const users = slackUsersFromJson(readFileSync(join(FIX, 'slack/users.json'), 'utf8'));
  const files = readdirSync(dir).map((name) => ({ name, content: readFileSync(join(dir, name), 'utf8') }));
  const { conversations, warnings } = parseSlackChannel(dir, files, { resolveSlackUser: (id) => users[id] });
  const thread = conversations.find((c) => c.id === 'slack:eng-backend:1709542860.000200')!;

  it('maps users.json to real names', () => {
    assert.deepEqual(users, { U01PRIYA: 'Priya Natarajan', U02TOMAS: 'Tomás Ferreira', U03JUN: 'Jun Park' });
    assert.deepEqual(warnings, []);
  });

  it('keeps a thread together across day files', () => {
    assert.deepEqual(
      thread.messages.map((m) => m.speaker),
      ['Priya Natarajan', 'Tomás Ferreira', 'Priya Natarajan', 'Tomás Ferreira'],
    );
    assert.equal(
      thread.messages[1]!.text,
      'I think it is the new VPC peering. @Priya Natarajan can you check the security group?',
    );
    assert.ok(thread.messages[2]!.text.startsWith('Found it: port 5439'));
    assert.equal(thread.messages[2]!.timestamp, '2024-03-05T09:02:00.000Z');
    assert.equal(thread.meta.threadTs, '1709542860.000200');
    assert.equal(thread.meta.slackChannel, 'eng-backend');
    assert.equal(thread.exchangeMode, 'turn-pairs');
    assert.equal(thread.source, `${dir}#slack:eng-backend:1709542860.000200`);
    assert.match(thread.title!, /^#eng-backend thread: The nightly export job failed/);
  });

  it('groups unthreaded messages per day, skips joins, keeps bots', () => {
    const day1 = conversations.find((c) => c.id === 'slack:eng-backend:2024-03-04')!;
    assert.deepEqual(
      day1.messages.map((m) => m.speaker),
      ['Jun Park', 'Tomás Ferreira', 'Priya Natarajan'],
    );
    assert.ok(!conversations.some((c) => texts(c).some((t) => t.includes('has joined'))));
    const day2 = conversations.find((c) => c.id === 'slack:eng-backend:2024-03-05')!;
    assert.deepEqual(
      day2.messages.map((m) => [m.speaker, m.text]),
      [['deploybot', 'Deployed api v2.31.0 to production']],
    );
    assert.equal(conversations.length, 3);
  });

  it('chunks a human chat by turn pairs', () => {
    const chunks = chunkExchanges(thread);
    assert.equal(chunks.length, 2);
    assert.deepEqual(chunks[0]!.speakers, ['Priya Natarajan', 'Tomás Ferreira']);
    assert.ok(chunks[0]!.text.startsWith('Priya Natarajan: The nightly export job failed again'));
  });

  it('parses a single day file through parseConversations (names the file gives, else speaker ids)', () => {
    const r = parse('slack/eng-backend/2024-03-04.json');
    const day = r.conversations.find((c) => c.id === 'slack:eng-backend:2024-03-04')!;
    // a user whose profile one message of the file carries has that name on all their messages
    assert.deepEqual(
      day.messages.map((m) => m.speaker),
      ['U03JUN', 'Tomás Ferreira', 'Priya Natarajan'],
    );
    const t = r.conversations.find((c) => c.meta.threadTs)!;
    assert.equal(
      t.messages[1]!.text,
      'I think it is the new VPC peering. @Priya Natarajan can you check the security group?',
    );
  });
});

describe('Slack export without users.json', () => {
  it('names a user by the label of a `<@U…|name>` mention (a join notice) and rewrites bare mentions', () => {
    const day = JSON.stringify([
      { type: 'message', subtype: 'channel_join', user: 'U1', text: '<@U1|micah> has joined the channel', ts: '1.0' },
      { type: 'message', subtype: 'channel_join', user: 'U2', text: '<@U2|neeraj> has joined the channel', ts: '2.0' },
      { type: 'message', user: 'U1', text: '<@U2>: reach out to Continuum', ts: '3.0' },
      { type: 'message', user: 'U2', text: 'Ok, I will email them', ts: '4.0' },
      { type: 'message', user: 'U3', text: 'no label for me', ts: '5.0' },
    ]);
    const { conversations } = parseConversations('/x/sponsors/2015-06-09.json', day);
    assert.deepEqual(
      conversations[0]!.messages.map((m) => `${m.speaker}: ${m.text}`),
      ['micah: @neeraj: reach out to Continuum', 'neeraj: Ok, I will email them', 'U3: no label for me'],
    );
  });
});

describe('Claude Code prompt history', () => {
  it('groups prompts per session (or project) and expands pasted text', () => {
    const { conversations, warnings } = parse('claude-code/history.jsonl');
    assert.deepEqual(warnings, []);
    assert.deepEqual(
      conversations.map((c) => c.id),
      ['history:5f0c2e1a-8b7d-4c3e-9a21-3f6d0b9e4c10', 'history:/home/dev/acme-api', 'history:/home/dev/notes-site'],
    );
    const s = conversations[0]!;
    assert.equal(s.cwd, '/home/dev/acme-api');
    assert.equal(s.meta.sessionId, '5f0c2e1a-8b7d-4c3e-9a21-3f6d0b9e4c10');
    assert.ok(s.messages.every((m) => m.role === 'user'));
    assert.equal(
      s.messages[1]!.text,
      'here is my env, why does the limiter not connect? REDIS_URL=redis://cache.internal:6379/0\n' +
        'OPENAI_API_KEY=sk-proj-Zx8fake0TESTKEY1234567890abcdefGHIJ\nRATE_LIMIT_MAX=5',
    );
    assert.equal(s.messages[0]!.timestamp, '2025-06-12T09:30:07.000Z');
    assert.equal(conversations[2]!.messages[1]!.text, 'screenshot of the broken layout [image]');
    assert.equal(s.exchangeMode, 'messages');
    assert.deepEqual(
      chunkExchanges(s).map((c) => c.exchangeId),
      ['history:5f0c2e1a-8b7d-4c3e-9a21-3f6d0b9e4c10:0', 'history:5f0c2e1a-8b7d-4c3e-9a21-3f6d0b9e4c10:1'],
    );
  });
});
