/** @module providers/create.test — configuration from objects and from the environment. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isLociError } from '../core/errors.js';
import { createLlmProvider, providerFromEnv } from './index.js';

describe('providerFromEnv', () => {
  it('returns undefined when no provider is named, even if keys are set', () => {
    assert.equal(providerFromEnv({}), undefined);
    assert.equal(providerFromEnv({ ANTHROPIC_API_KEY: 'k', OPENAI_API_KEY: 'k' }), undefined);
    assert.equal(providerFromEnv({ LOCI_LLM_PROVIDER: '  ' }), undefined);
    assert.equal(providerFromEnv({ LOCI_LLM_PROVIDER: 'none' }), undefined);
  });

  it('builds the named provider with model and base URL', () => {
    const p = providerFromEnv({
      LOCI_LLM_PROVIDER: 'Ollama',
      LOCI_LLM_MODEL: 'qwen2.5:3b',
      LOCI_LLM_BASE_URL: 'http://127.0.0.1:9',
    });
    assert.equal(p?.name, 'ollama');
    assert.equal(p?.model, 'qwen2.5:3b');
    assert.equal(
      providerFromEnv({ LOCI_LLM_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: 'k' })?.model,
      'claude-haiku-4-5',
    );
    assert.equal(providerFromEnv({ LOCI_LLM_PROVIDER: 'openai', LOCI_LLM_API_KEY: 'k' })?.name, 'openai');
  });

  it('throws for an unknown provider, a bad timeout or a missing key', () => {
    assert.throws(
      () => providerFromEnv({ LOCI_LLM_PROVIDER: 'gemini' }),
      (e) => isLociError(e, 'INVALID_ARGUMENT') && /anthropic, openai, ollama/.test(e.message),
    );
    assert.throws(
      () => providerFromEnv({ LOCI_LLM_PROVIDER: 'ollama', LOCI_LLM_TIMEOUT_MS: 'fast' }),
      (e) => isLociError(e, 'INVALID_ARGUMENT'),
    );
    assert.throws(
      () => providerFromEnv({ LOCI_LLM_PROVIDER: 'anthropic' }),
      (e) => isLociError(e, 'PROVIDER_KEY_MISSING'),
    );
  });
});

describe('createLlmProvider', () => {
  it('validates its numbers and URL', () => {
    assert.throws(
      () => createLlmProvider({ provider: 'ollama', maxRetries: -1 }),
      (e) => isLociError(e, 'INVALID_ARGUMENT'),
    );
    assert.throws(
      () => createLlmProvider({ provider: 'ollama', timeoutMs: 0 }),
      (e) => isLociError(e, 'INVALID_ARGUMENT'),
    );
    assert.throws(
      () => createLlmProvider({ provider: 'ollama', baseUrl: 'localhost:11434' }),
      (e) => isLociError(e, 'INVALID_ARGUMENT'),
    );
    assert.throws(
      () => createLlmProvider({ provider: 'bard' as never }),
      (e) => isLociError(e, 'INVALID_ARGUMENT'),
    );
  });
});
