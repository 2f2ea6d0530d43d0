/** @module providers/openai.test — OpenAI-compatible chat completions against the loopback server. */
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
import { createLlmProvider } from './index.js';

let server: Loopback;
before(async () => {
  server = await startLoopback();
});
after(() => server.close());

describe('openai provider', () => {
  it('sends a chat completions request with the system prompt first and a Bearer key', async () => {
    const llm = createLlmProvider({ provider: 'openai', baseUrl: server.url }, { env: { OPENAI_API_KEY: 'sk-test' } });
    assert.equal(llm.model, 'gpt-4o-mini');
    const res = await llm.complete({
      system: 'You select memories that will clearly be useful. Answer with a JSON array of filenames.',
      messages: [{ role: 'user', content: 'Query: how do we run the auth tests?' }],
      maxTokens: 256,
    });
    const req = server.requestsTo('openai.chat').at(-1)!;
    assert.equal(req.path, '/v1/chat/completions');
    assert.equal(req.headers['authorization'], 'Bearer sk-test');
    assert.deepEqual(req.body, recordedRequest('openai', 'chat.ok'));
    assert.deepEqual(res, {
      text: '["feedback_testing.md"]',
      model: 'gpt-4o-mini-2024-07-18',
      usage: { inputTokens: 398, outputTokens: 9 },
      stopReason: 'stop',
    });
  });

  it('talks to a local llama.cpp-style server without a key, with a base URL ending in /v1', async () => {
    server.reply('openai.chat', recording('openai', 'chat.llama_cpp'));
    const llm = createLlmProvider({ provider: 'openai', baseUrl: `${server.url}/v1`, model: 'qwen2.5' }, { env: {} });
    const res = await llm.complete({ messages: [{ role: 'user', content: 'q' }] });
    const req = server.requestsTo('openai.chat').at(-1)!;
    assert.equal(req.headers['authorization'], undefined);
    assert.deepEqual(req.body, {
      model: 'qwen2.5',
      messages: [{ role: 'user', content: 'q' }],
      max_tokens: 512,
      temperature: 0,
    });
    assert.equal(res.text, 'The auth tests run with');
    assert.equal(res.stopReason, 'length');
    assert.deepEqual(res.usage, { inputTokens: 81, outputTokens: 5 });
  });

  it('needs a key for api.openai.com', () => {
    assert.throws(
      () => createLlmProvider({ provider: 'openai' }, { env: {} }),
      (e) => isLociError(e, 'PROVIDER_KEY_MISSING') && /OPENAI_API_KEY/.test(e.message),
    );
  });

  it('retries 429 and 500, then reports the last error with the server message', async () => {
    const { sleep, waits } = recordingSleep();
    server.reply(
      'openai.chat',
      recording('openai', 'error.rate_limited'),
      recording('openai', 'error.server'),
      recording('openai', 'error.server'),
    );
    const llm = createLlmProvider({ provider: 'openai', baseUrl: server.url }, { env: {}, sleep, random: () => 0 });
    await assert.rejects(llm.complete({ messages: [{ role: 'user', content: 'q' }] }), (e) => {
      assert.ok(isLociError(e, 'PROVIDER_FAILED'));
      assert.equal(e.details.status, 500);
      assert.match(e.details.reason, /^server_error: The server had an error/);
      return true;
    });
    assert.deepEqual(waits, [1000, 500]);
  });

  it('does not retry an invalid key', async () => {
    const { sleep, waits } = recordingSleep();
    server.reply('openai.chat', recording('openai', 'error.invalid_api_key'));
    const llm = createLlmProvider(
      { provider: 'openai', baseUrl: server.url, apiKey: 'sk-test-bad' },
      { env: {}, sleep },
    );
    await assert.rejects(
      llm.complete({ messages: [{ role: 'user', content: 'q' }] }),
      (e) => isLociError(e, 'PROVIDER_FAILED') && e.details.status === 401,
    );
    assert.deepEqual(waits, []);
  });

  it('returns empty text when the choice has null content', async () => {
    server.reply('openai.chat', {
      body: {
        model: 'm',
        choices: [{ index: 0, message: { role: 'assistant', content: null }, finish_reason: 'tool_calls' }],
      },
    });
    const llm = createLlmProvider({ provider: 'openai', baseUrl: server.url }, { env: {} });
    const res = await llm.complete({ messages: [{ role: 'user', content: 'q' }] });
    assert.deepEqual(res, { text: '', model: 'm', stopReason: 'tool_calls' });
  });

  it('rejects an answer without choices', async () => {
    server.reply('openai.chat', { body: { object: 'chat.completion', choices: [] } });
    const llm = createLlmProvider({ provider: 'openai', baseUrl: server.url }, { env: {} });
    await assert.rejects(llm.complete({ messages: [{ role: 'user', content: 'q' }] }), (e) =>
      isLociError(e, 'PROVIDER_FAILED'),
    );
  });

  it('is cancelled by the caller signal', async () => {
    server.reply('openai.chat', { fail: 'hang' });
    const llm = createLlmProvider({ provider: 'openai', baseUrl: server.url }, { env: {} });
    const ctl = new AbortController();
    const n = server.requests.length;
    const p = llm.complete({ messages: [{ role: 'user', content: 'q' }], signal: ctl.signal });
    await server.waitForRequests(n + 1);
    ctl.abort();
    await assert.rejects(p, (e) => isLociError(e, 'ABORTED'));
    assert.equal(server.requests.length, n + 1);
  });
});
