/** @module embed/create.test — embedder configuration from objects, specs and the environment. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isLociError } from '../core/errors.js';
import { createEmbedder, embedderConfigFromEnv, parseEmbedderSpec } from './index.js';

describe('embedder configuration', () => {
  it('parses kind:model specs', () => {
    assert.deepEqual(parseEmbedderSpec('ollama:nomic-embed-text', {}), { kind: 'ollama', model: 'nomic-embed-text' });
    assert.deepEqual(parseEmbedderSpec('openai:text-embedding-3-small@384', {}), {
      kind: 'openai',
      model: 'text-embedding-3-small',
      dimensions: 384,
    });
    assert.deepEqual(parseEmbedderSpec('onnx:/models/all-MiniLM-L6-v2', {}), {
      kind: 'onnx',
      modelDir: '/models/all-MiniLM-L6-v2',
    });
    assert.deepEqual(
      parseEmbedderSpec('ollama:qwen3-embedding:0.6b', {
        LOCI_EMBED_BASE_URL: 'http://gpu:11434',
        LOCI_EMBED_BATCH_SIZE: '8',
      }),
      {
        kind: 'ollama',
        model: 'qwen3-embedding:0.6b',
        baseUrl: 'http://gpu:11434',
        batchSize: 8,
      },
    );
    assert.deepEqual(
      parseEmbedderSpec('ollama:nomic-embed-text', { LOCI_EMBED_QUERY_PREFIX: 'search_query: ' }).prefixes,
      { query: 'search_query: ' },
    );
    assert.throws(
      () => parseEmbedderSpec('bert', {}),
      (e) => isLociError(e, 'INVALID_ARGUMENT'),
    );
    assert.throws(
      () => parseEmbedderSpec('cohere:embed-v3', {}),
      (e) => isLociError(e, 'INVALID_ARGUMENT'),
    );
  });

  it('reads LOCI_EMBEDDER, and nothing when unset or none', () => {
    assert.equal(embedderConfigFromEnv({}), undefined);
    assert.equal(embedderConfigFromEnv({ LOCI_EMBEDDER: 'none' }), undefined);
    assert.deepEqual(embedderConfigFromEnv({ LOCI_EMBEDDER: 'ollama:all-minilm' }), {
      kind: 'ollama',
      model: 'all-minilm',
    });
  });

  it('creates embedders without touching the network or the disk, and validates settings', () => {
    assert.equal(createEmbedder({ kind: 'ollama', model: 'm' }).id, 'ollama:m');
    assert.equal(createEmbedder({ kind: 'onnx', modelDir: '/nowhere/minilm' }).id, 'onnx:minilm');
    assert.equal(createEmbedder({ kind: 'ollama', model: 'm', id: 'custom' }).id, 'custom');
    assert.throws(
      () => createEmbedder({ kind: 'word2vec' } as never),
      (e) => isLociError(e, 'INVALID_ARGUMENT'),
    );
    assert.throws(
      () => createEmbedder({ kind: 'ollama', model: 'm', batchSize: 0 }),
      (e) => isLociError(e, 'INVALID_ARGUMENT'),
    );
    assert.throws(
      () => createEmbedder({ kind: 'ollama', model: 'm', baseUrl: 'nope' }),
      (e) => isLociError(e, 'INVALID_ARGUMENT'),
    );
    assert.throws(
      () => createEmbedder({ kind: 'openai', model: 'm', baseUrl: 'http://x', dimensions: 0 }),
      (e) => isLociError(e, 'INVALID_ARGUMENT'),
    );
    assert.throws(
      () => createEmbedder(parseEmbedderSpec('ollama:m', { LOCI_EMBED_BATCH_SIZE: 'lots' })),
      (e) => isLociError(e, 'INVALID_ARGUMENT'),
    );
  });
});
