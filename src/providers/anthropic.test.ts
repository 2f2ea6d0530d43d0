/** @module providers/anthropic.test — Anthropic Messages against the loopback server. */
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

const env = { ANTHROPIC_API_KEY: 'sk-ant-test-key' };

describe('anthropic provider', () => {
  it('sends the Messages API request shape and parses the answer', async () => {
    const llm = createLlmProvider({ provider: 'anthropic', baseUrl: server.url }, { env });
    assert.equal(llm.name, 'anthropic');
    assert.equal(llm.model, 'claude-haiku-4-5');
    const expected = recordedRequest('anthropic', 'messages.ok') as {
      system: string;
      messages: { role: 'user'; content: string }[];
    };
    const res = await llm.complete({ system: expected.system, messages: expected.messages, maxTokens: 256 });
    const req = server.requestsTo('anthropic.messages').at(-1)!;
    assert.equal(req.path, '/v1/messages');
    assert.equal(req.headers['x-api-key'], 'sk-ant-test-key');
    assert.equal(req.headers['anthropic-version'], '2023-06-01');
    assert.equal(req.headers['content-type'], 'application/json');
    assert.equal(req.headers['authorization'], undefined);
    assert.deepEqual(req.body, expected);
    assert.deepEqual(res, {
      text: '["feedback_testing.md", "project_auth_migration.md"]',
      model: 'claude-haiku-4-5-20251001',
      usage: { inputTokens: 412, outputTokens: 19 },
      stopReason: 'end_turn',
    });
  });

  it('applies defaults (max_tokens 512, temperature 0) and omits an absent system prompt', async () => {
    const llm = createLlmProvider({ provider: 'anthropic', baseUrl: server.url, model: 'claude-sonnet-4-5' }, { env });
    await llm.complete({ messages: [{ role: 'user', content: 'hi' }] });
    const body = server.requestsTo('anthropic.messages').at(-1)!.body;
    assert.deepEqual(body, {
      model: 'claude-sonnet-4-5',
      max_tokens: 512,
      messages: [{ role: 'user', content: 'hi' }],
      temperature: 0,
    });
    assert.equal('system' in body, false);
  });

  it('joins text blocks, skips thinking blocks and reports max_tokens', async () => {
    server.reply('anthropic.messages', recording('anthropic', 'messages.multi_block'));
    const llm = createLlmProvider({ provider: 'anthropic', baseUrl: server.url }, { env });
    const res = await llm.complete({ messages: [{ role: 'user', content: 'q' }] });
    assert.equal(res.text, '["feedback_testing.md", "reference_ci.md"');
    assert.equal(res.stopReason, 'max_tokens');
  });

  it('retries a rate limit honouring retry-after and then answers', async () => {
    const { sleep, waits } = recordingSleep();
    server.reply('anthropic.messages', recording('anthropic', 'error.rate_limited'));
    const llm = createLlmProvider({ provider: 'anthropic', baseUrl: server.url }, { env, sleep });
    const res = await llm.complete({ messages: [{ role: 'user', content: 'q' }] });
    assert.equal(res.stopReason, 'end_turn');
    assert.deepEqual(waits, [2000]);
  });

  it('surfaces an authentication error with status and message, without retrying', async () => {
    const { sleep, waits } = recordingSleep();
    server.reply('anthropic.messages', recording('anthropic', 'error.authentication'));
    const llm = createLlmProvider({ provider: 'anthropic', baseUrl: server.url, apiKey: 'wrong' }, { env: {}, sleep });
    await assert.rejects(llm.complete({ messages: [{ role: 'user', content: 'q' }] }), (e) => {
      assert.ok(isLociError(e, 'PROVIDER_FAILED'));
      assert.equal(e.details.provider, 'anthropic');
      assert.equal(e.details.status, 401);
      assert.equal(e.details.reason, 'authentication_error: invalid x-api-key');
      assert.ok(!e.message.includes('wrong'), 'the key never appears in messages');
      return true;
    });
    assert.deepEqual(waits, []);
  });

  it('fails with PROVIDER_KEY_MISSING when no key is configured', () => {
    assert.throws(
      () => createLlmProvider({ provider: 'anthropic', baseUrl: server.url }, { env: {} }),
      (e) => isLociError(e, 'PROVIDER_KEY_MISSING') && /ANTHROPIC_API_KEY/.test(e.message),
    );
  });

  it('prefers LOCI_LLM_API_KEY over ANTHROPIC_API_KEY, and cfg.apiKey over both', async () => {
    const both = { ANTHROPIC_API_KEY: 'a', LOCI_LLM_API_KEY: 'b' };
    await createLlmProvider({ provider: 'anthropic', baseUrl: server.url }, { env: both }).complete({
      messages: [{ role: 'user', content: 'q' }],
    });
    assert.equal(server.requests.at(-1)!.headers['x-api-key'], 'b');
    await createLlmProvider({ provider: 'anthropic', baseUrl: server.url, apiKey: 'c' }, { env: both }).complete({
      messages: [{ role: 'user', content: 'q' }],
    });
    assert.equal(server.requests.at(-1)!.headers['x-api-key'], 'c');
  });

  it('raises TIMEOUT on a hung server using the per-call timeout', async () => {
    server.reply('anthropic.messages', { fail: 'hang' });
    const llm = createLlmProvider({ provider: 'anthropic', baseUrl: server.url }, { env });
    await assert.rejects(
      llm.complete({ messages: [{ role: 'user', content: 'q' }], timeoutMs: 100 }),
      (e) => isLociError(e, 'TIMEOUT') && e.details.ms === 100,
    );
  });

  it('rejects an empty conversation and out-of-range options before sending', async () => {
    const llm = createLlmProvider({ provider: 'anthropic', baseUrl: server.url }, { env });
    const n = server.requests.length;
    await assert.rejects(llm.complete({ messages: [] }), (e) => isLociError(e, 'INVALID_ARGUMENT'));
    await assert.rejects(llm.complete({ messages: [{ role: 'user', content: 'q' }], temperature: 3 }), (e) =>
      isLociError(e, 'INVALID_ARGUMENT'),
    );
    await assert.rejects(llm.complete({ messages: [{ role: 'user', content: 'q' }], maxTokens: 0 }), (e) =>
      isLociError(e, 'INVALID_ARGUMENT'),
    );
    assert.equal(server.requests.length, n);
  });

  it('rejects a 200 that is not a Messages API answer', async () => {
    server.reply('anthropic.messages', { body: { ok: true } });
    const llm = createLlmProvider({ provider: 'anthropic', baseUrl: server.url }, { env });
    await assert.rejects(
      llm.complete({ messages: [{ role: 'user', content: 'q' }] }),
      (e) =>
        isLociError(e, 'PROVIDER_FAILED') && /does not look like a response of the anthropic protocol/.test(e.message),
    );
  });
});
