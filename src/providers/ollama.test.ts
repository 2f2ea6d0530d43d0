/** @module providers/ollama.test — Ollama /api/chat against the loopback server. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isLociError } from '../core/errors.js';
import {
  recordedRequest,
  recording,
  recordingSleep,
  startLoopback,
  type Loopback,
} from '../../test/helpers/loopback.js';
import { createLlmProvider, PROVIDER_DEFAULTS } from './index.js';

let server: Loopback;
before(async () => {
  server = await startLoopback();
});
after(() => server.close());

describe('ollama provider', () => {
  it('sends /api/chat with stream:false, options and the system message first', async () => {
    const llm = createLlmProvider({ provider: 'ollama', baseUrl: server.url }, { env: {} });
    assert.equal(llm.model, 'llama3.2');
    const res = await llm.complete({
      system: 'You select memories that will clearly be useful.',
      messages: [{ role: 'user', content: 'Query: how do we run the auth tests?' }],
      maxTokens: 256,
    });
    const req = server.requestsTo('ollama.chat').at(-1)!;
    assert.equal(req.path, '/api/chat');
    assert.equal(req.headers['authorization'], undefined);
    assert.deepEqual(req.body, recordedRequest('ollama', 'chat.ok'));
    assert.deepEqual(res, {
      text: '["feedback_testing.md"]',
      model: 'llama3.2',
      usage: { inputTokens: 120, outputTokens: 9 },
      stopReason: 'stop',
    });
  });

  it('defaults to the local Ollama port', () => {
    assert.equal(PROVIDER_DEFAULTS.ollama.baseUrl, 'http://127.0.0.1:11434');
  });

  it('reports a missing model without retrying', async () => {
    const { sleep, waits } = recordingSleep();
    server.reply('ollama.chat', recording('ollama', 'error.model_not_found'));
    const llm = createLlmProvider({ provider: 'ollama', baseUrl: server.url }, { env: {}, sleep });
    await assert.rejects(llm.complete({ messages: [{ role: 'user', content: 'q' }] }), (e) => {
      assert.ok(isLociError(e, 'PROVIDER_FAILED'));
      assert.equal(e.details.status, 404);
      assert.match(e.details.reason, /not found, try pulling it first/);
      return true;
    });
    assert.deepEqual(waits, []);
  });

  it('retries a crashed runner (500) and succeeds', async () => {
    const { sleep, waits } = recordingSleep();
    server.reply('ollama.chat', recording('ollama', 'error.runner_crashed'));
    const llm = createLlmProvider({ provider: 'ollama', baseUrl: server.url, maxRetries: 1 }, { env: {}, sleep });
    const res = await llm.complete({ messages: [{ role: 'user', content: 'q' }] });
    assert.equal(res.stopReason, 'stop');
    assert.equal(waits.length, 1);
  });

  it('rejects an answer without message.content', async () => {
    server.reply('ollama.chat', { body: { model: 'llama3.2', done: true } });
    const llm = createLlmProvider({ provider: 'ollama', baseUrl: server.url }, { env: {} });
    await assert.rejects(llm.complete({ messages: [{ role: 'user', content: 'q' }] }), (e) =>
      isLociError(e, 'PROVIDER_FAILED'),
    );
  });
});
