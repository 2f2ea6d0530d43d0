/** @module kg/extract/llm.test — the LLM extractor against a loopback OpenAI-compatible server. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLlmProvider } from '../../providers/index.js';
import { startLoopback } from '../../../test/helpers/loopback.js';
import { createLlmExtractor, createMemoryGraphStore, type CompleteFn, type ExtractionInput } from '../index.js';

const drawer: ExtractionInput = {
  id: 'd1',
  text:
    'User: what did we pick?\nAssistant: [Bash] cat package.json\n→ {"packageManager": "yarn@4"}\nWe switched ' +
    'to pnpm last week; the API runs on port 8080.',
  contentDate: '2026-02-11T10:00:00.000Z',
  wing: 'shop',
  room: 'general',
  metadata: { format: 'claude-code' },
};

const answer = JSON.stringify([
  { subject: 'shop', predicate: 'uses', object: 'pnpm', confidence: 0.9, date: '2026-02-02' },
  { subject: 'shop', predicate: 'port', object: 8080, confidence: 0.8, date: null },
  { subject: 'shop', predicate: 'uses', object: 'We switched to pnpm last week and it was great.', confidence: 0.9 },
  { subject: 'shop', predicate: 'likes', object: 'pnpm', confidence: 0.9 },
  { subject: 'shop', predicate: 'uses', object: 'yarn', confidence: 0.2 },
  { subject: '', predicate: 'uses', object: 'npm' },
  'not an object',
]);

test('LLM extraction: prose only is sent, answers are validated, facts apply to a graph', async () => {
  const lb = await startLoopback();
  try {
    lb.handle('openai.chat', () => ({
      body: {
        id: 'c1',
        object: 'chat.completion',
        model: 'test',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: `Here you go:\n\`\`\`json\n${answer}\n\`\`\`` },
            finish_reason: 'stop',
          },
        ],
      },
    }));
    const provider = createLlmProvider({ provider: 'openai', baseUrl: lb.url, apiKey: 'test-key', model: 'test' });
    const complete: CompleteFn = async (prompt, o) =>
      (
        await provider.complete({
          messages: [{ role: 'user', content: prompt }],
          ...(o?.maxTokens ? { maxTokens: o.maxTokens } : {}),
        })
      ).text;
    const extractor = createLlmExtractor({ complete });
    const r = await extractor.extract(drawer);
    const sent = String(lb.requestsTo('openai.chat')[0]?.body?.messages?.at(-1)?.content);
    assert.ok(sent.includes('We switched to pnpm last week'), 'the prose is sent');
    assert.ok(!sent.includes('yarn@4') && !sent.includes('[Bash]'), 'tool calls and results are not sent');
    assert.deepEqual(
      r.facts.map(
        (f) => `${f.subject} ${f.predicate} ${f.object} ${f.validFrom?.slice(0, 10)}${f.literal ? ' (literal)' : ''}`,
      ),
      ['shop uses pnpm 2026-02-02', 'shop port 8080 2026-02-11 (literal)'],
    );
    assert.ok(r.facts.every((f) => f.sources?.[0] === 'd1'));
    const g = createMemoryGraphStore();
    await g.init();
    const applied = await g.apply(r, { lenient: true });
    assert.deepEqual(applied.skipped, []);
    assert.equal((await g.query('shop', { asOf: '2026-02-03', predicate: 'uses' }))[0]?.objectName, 'pnpm');

    // a code file is never sent; an unreadable answer gives nothing
    const before = lb.requests.length;
    const code = await extractor.extract({
      ...drawer,
      metadata: { rel: 'src/a.ts', kind: 'code', language: 'typescript' },
    });
    assert.equal(lb.requests.length, before);
    assert.deepEqual(code.facts, []);
    lb.reply('openai.chat', {
      body: {
        id: 'c2',
        object: 'chat.completion',
        model: 'test',
        choices: [{ index: 0, message: { role: 'assistant', content: 'no facts, sorry [' }, finish_reason: 'stop' }],
      },
    });
    assert.deepEqual((await extractor.extract(drawer)).facts, []);
  } finally {
    await lb.close();
  }
});
