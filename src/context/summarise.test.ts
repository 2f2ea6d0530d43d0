/**
 * @module context/summarise.test
 * The LLM summariser against the loopback Anthropic and OpenAI servers (the real wire protocols),
 * its extractive fallback, and the palace archive adapter on a real palace.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startLoopback, type Loopback } from '../../test/helpers/loopback.js';
import { isLociError } from '../core/errors.js';
import { openPalace, type Palace } from '../palace/index.js';
import { createLlmProvider, type AgentMessage } from '../providers/index.js';
import { createMemoryStore } from '../store/index.js';
import { createContextManager } from './manager.js';
import { palaceArchiver } from './palace-archive.js';
import { COMPACTION_PROMPT, extractiveSummariser, llmSummariser, type SummaryRequest } from './summarise.js';

let server: Loopback;
before(async () => {
  server = await startLoopback();
});
after(() => server.close());

const messages: AgentMessage[] = [
  { role: 'user', content: 'Migrate the auth tables to the new schema' },
  { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read', input: { path: 'db/auth.sql' } }] },
  { role: 'user', content: [{ type: 'tool_result', toolUseId: 't1', content: 'CREATE TABLE users (...)' }] },
  { role: 'assistant', content: 'The users table needs a tenant column.\nMore detail here.' },
];
const req: SummaryRequest = {
  previousSummary: 'Earlier: the user wants Postgres 16.',
  messages,
  instructions: 'focus on the migration',
  persistedPaths: ['/home/x/tool-results/abc.txt'],
  maxTokens: 500,
};

test('llmSummariser speaks Anthropic Messages: compaction prompt, previous summary, new messages, paths', async () => {
  server.reply('anthropic.messages', {
    body: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-haiku-4-5',
      content: [{ type: 'text', text: '1. Primary request: migrate auth tables.' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 300, output_tokens: 12 },
    },
  });
  const llm = createLlmProvider({ provider: 'anthropic', baseUrl: server.url, apiKey: 'k' });
  const r = await llmSummariser(llm)(req);
  assert.deepEqual(r, { text: '1. Primary request: migrate auth tables.', by: 'llm' });
  const body = server.requestsTo('anthropic.messages').at(-1)!.body;
  assert.equal(body.system, COMPACTION_PROMPT);
  const text: string = body.messages[0].content;
  assert.match(text, /<previous-summary>\nEarlier: the user wants Postgres 16\.\n<\/previous-summary>/);
  assert.match(text, /User: Migrate the auth tables[\s\S]*Tool call read \{"path":"db\/auth\.sql"\}/);
  assert.match(text, /- \/home\/x\/tool-results\/abc\.txt/);
  assert.match(text, /Additional instructions from the user: focus on the migration/);
});

test('llmSummariser falls back to the extractive summary when the server fails (OpenAI protocol)', async () => {
  server.reply('openai.chat', { status: 400, body: { error: { message: 'context too long' } } });
  const llm = createLlmProvider({ provider: 'openai', baseUrl: server.url, apiKey: 'k', maxRetries: 0 });
  const r = await llmSummariser(llm)(req);
  assert.equal(r.by, 'extractive (llm failed)');
  assert.match(r.text, /Postgres 16/);
  server.reply('openai.chat', { status: 400, body: { error: { message: 'context too long' } } });
  await assert.rejects(llmSummariser(llm, { fallback: false })(req), (e) => isLociError(e, 'PROVIDER_FAILED'));
});

test('the extractive summary keeps the previous summary, prompts, first answer lines, calls and paths', async () => {
  const r = await extractiveSummariser(req);
  assert.equal(r.by, 'extractive');
  assert.match(r.text, /^Earlier: the user wants Postgres 16\./);
  assert.match(r.text, /Focus \(from the user\): focus on the migration/);
  assert.match(r.text, /- User asked: Migrate the auth tables/);
  assert.match(r.text, /- Tool read \{"path":"db\/auth\.sql"\}/);
  assert.match(r.text, /- Assistant: The users table needs a tenant column\.$/m);
  assert.doesNotMatch(r.text, /More detail/);
  assert.match(r.text, /\/home\/x\/tool-results\/abc\.txt/);
  const many = Array.from({ length: 2000 }, (_, i) => ({ role: 'user', content: `prompt ${i}` }) as AgentMessage);
  const small = await extractiveSummariser({ messages: many, persistedPaths: [], maxTokens: 100 });
  assert.ok(small.text.length <= 600, `${small.text.length}`);
  assert.match(small.text, /older lines omitted[\s\S]*prompt 1999/);
});

/** Sequence numbers covered by the archive drawers of a wing, sorted. */
async function archivedSeqs(palace: Palace, wing: string): Promise<number[]> {
  const { drawers } = await palace.listDrawers({ wing });
  return drawers
    .flatMap((d) => {
      const m = d.metadata as { seqFrom: number; seqTo: number };
      return Array.from({ length: m.seqTo - m.seqFrom + 1 }, (_, i) => m.seqFrom + i);
    })
    .sort((a, b) => a - b);
}

for (const maxDrawerChars of [0, 8_000])
  test(`archive into a palace (drawers of ≤ ${maxDrawerChars} chars): searchable, nothing lost`, async () => {
    const home = mkdtempSync(join(tmpdir(), 'loci-ctx-palace-'));
    const palace = await openPalace({ home, store: createMemoryStore(), embedder: null });
    try {
      const ctx = createContextManager({
        model: 'claude-haiku-4-5',
        contextWindow: 10_000,
        keepRecentTokens: 1,
        systemContext: { capturedAt: '2026-01-01T00:00:00.000Z', date: '2026-01-01', cwd: '/r' },
        userContext: () => ({ claudeMd: '', claudeMdFiles: [], memory: '' }),
        archive: palaceArchiver(palace, { wing: 'myapp', maxDrawerChars }),
      });
      ctx.appendUser('Migrate the auth tables to the new schema');
      ctx.appendAssistant(messages[1]!);
      ctx.appendToolResults([{ toolUseId: 't1', content: 'CREATE TABLE users (...)' }]);
      ctx.appendAssistant(messages[3]!);
      ctx.appendUser('now the sessions table');
      const r = await ctx.compact();
      assert.ok(r);
      const { drawers, total } = await palace.listDrawers({ wing: 'myapp' });
      assert.equal(total, maxDrawerChars ? 1 : r.replaced.count);
      assert.deepEqual(await archivedSeqs(palace, 'myapp'), [0, 1, 2, 3]);
      assert.ok(drawers.every((d) => d.room === 'chat' && d.source?.startsWith(`loci-context://${ctx.sessionId}#`)));
      const hits = await palace.search('tenant column', { limit: 3 });
      assert.match(hits.hits[0]?.text ?? '', /tenant column/);
      await ctx.compact();
      await ctx.flushArchive();
      const all = Array.from({ length: ctx.bookkeeping().appended }, (_, i) => i);
      assert.deepEqual(await archivedSeqs(palace, 'myapp'), all, 'every message archived, once');
    } finally {
      await palace.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
