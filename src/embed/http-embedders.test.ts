/** @module embed/http-embedders.test — Ollama and OpenAI-compatible embedders against the loopback server. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isLociError } from '../core/errors.js';
import {
  fakeEmbedding,
  recordedRequest,
  recording,
  recordingSleep,
  startLoopback,
  type Loopback,
} from '../../test/helpers/loopback.js';
import { createEmbedder } from './index.js';

let server: Loopback;
before(async () => {
  server = await startLoopback({ embedDims: 8 });
});
after(() => server.close());

const unit = (v: number[]) => {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};
function near(actual: Float32Array | undefined, expected: number[]): void {
  assert.ok(actual);
  assert.equal(actual.length, expected.length);
  actual.forEach((x, i) => assert.ok(Math.abs(x - expected[i]!) < 1e-6, `component ${i}: ${x} vs ${expected[i]}`));
}

describe('ollama embedder', () => {
  it('posts {model, input[]} to /api/embed and normalises the vectors', async () => {
    server.reply('ollama.embed', recording('ollama', 'embed.ok'));
    const e = createEmbedder({ kind: 'ollama', model: 'nomic-embed-text', baseUrl: server.url });
    assert.equal(e.id, 'ollama:nomic-embed-text');
    assert.equal(e.dims, 0);
    const req = recordedRequest('ollama', 'embed.ok') as { input: string[] };
    const [a, b] = await e.embed(req.input);
    assert.deepEqual(server.requestsTo('ollama.embed').at(-1)!.body, req);
    near(a, [0.6, 0, 0.8, 0]);
    near(b, [0, -1, 0, 0]);
    assert.equal(e.dims, 4);
  });

  it('sends batches of batchSize in order and keeps the output order', async () => {
    const before = server.requestsTo('ollama.embed').length;
    const texts = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
    const e = createEmbedder({ kind: 'ollama', model: 'm', baseUrl: server.url, batchSize: 2 });
    const out = await e.embed(texts);
    const sent = server
      .requestsTo('ollama.embed')
      .slice(before)
      .map((r) => r.body.input);
    assert.deepEqual(sent, [['alpha', 'beta'], ['gamma', 'delta'], ['epsilon']]);
    out.forEach((v, i) => near(v, unit(fakeEmbedding(texts[i]!, 8))));
  });

  it('init() learns the dimension with one request and is idempotent', async () => {
    const before = server.requests.length;
    const e = createEmbedder({ kind: 'ollama', model: 'm', baseUrl: server.url });
    await e.init();
    await e.init();
    assert.equal(e.dims, 8);
    assert.equal(server.requests.length - before, 1);
  });

  it('falls back to the legacy /api/embeddings, one text at a time, on servers without /api/embed', async () => {
    server.reply('ollama.embed', recording('ollama', 'error.old_server_404'));
    server.reply('ollama.embeddings', recording('ollama', 'embeddings.legacy_ok'));
    const embedBefore = server.requestsTo('ollama.embed').length;
    const legacyBefore = server.requestsTo('ollama.embeddings').length;
    const e = createEmbedder({ kind: 'ollama', model: 'nomic-embed-text', baseUrl: server.url });
    const first = await e.embed(['auth tests need a real database']);
    near(first[0], [0.6, 0, 0.8, 0]);
    assert.deepEqual(
      server.requestsTo('ollama.embeddings').at(-1)!.body,
      recordedRequest('ollama', 'embeddings.legacy_ok'),
    );
    const e8 = createEmbedder({ kind: 'ollama', model: 'm', baseUrl: server.url });
    server.reply('ollama.embed', recording('ollama', 'error.old_server_404'));
    const texts = ['one', 'two', 'three'];
    const out = await e8.embed(texts);
    out.forEach((v, i) => near(v, unit(fakeEmbedding(texts[i]!, 8))));
    await e8.embed(['four']); // remembered: goes straight to the legacy endpoint
    assert.equal(server.requestsTo('ollama.embed').length - embedBefore, 2);
    assert.deepEqual(
      server
        .requestsTo('ollama.embeddings')
        .slice(legacyBefore + 1)
        .map((r) => r.body.prompt),
      ['one', 'two', 'three', 'four'],
    );
  });

  it('reports a missing model with the server message when both endpoints answer 404', async () => {
    server.reply('ollama.embed', recording('ollama', 'error.model_not_found'));
    server.reply('ollama.embeddings', recording('ollama', 'error.model_not_found'));
    const e = createEmbedder({ kind: 'ollama', model: 'nomic-embed-text', baseUrl: server.url });
    await assert.rejects(e.embed(['x']), (err) => {
      assert.ok(isLociError(err, 'PROVIDER_FAILED'));
      assert.equal(err.details.status, 404);
      assert.match(err.details.url, /\/api\/embed$/);
      assert.match(err.message, /try pulling it first/);
      return true;
    });
  });

  it('retries a 500 with back-off, then succeeds', async () => {
    const { sleep, waits } = recordingSleep();
    server.reply('ollama.embed', recording('ollama', 'error.runner_crashed'));
    const e = createEmbedder({ kind: 'ollama', model: 'm', baseUrl: server.url }, { sleep });
    assert.equal((await e.embed(['x'])).length, 1);
    assert.equal(waits.length, 1);
  });

  it('times out on a hung server', async () => {
    server.reply('ollama.embed', { fail: 'hang' });
    const e = createEmbedder({ kind: 'ollama', model: 'm', baseUrl: server.url, timeoutMs: 100 });
    await assert.rejects(e.embed(['x']), (err) => isLociError(err, 'TIMEOUT'));
  });

  it('rejects a wrong vector count, a dimension change and a non-Ollama answer', async () => {
    const e = createEmbedder({ kind: 'ollama', model: 'm', baseUrl: server.url });
    server.reply('ollama.embed', { body: { embeddings: [[1, 0]] } });
    await assert.rejects(
      e.embed(['a', 'b']),
      (err) => isLociError(err, 'PROVIDER_FAILED') && /sent 2 texts, received 1/.test(err.message),
    );
    server.reply('ollama.embed', { body: { embeddings: [[1, 0]] } }, { body: { embeddings: [[1, 0, 0]] } });
    await e.embed(['a']);
    await assert.rejects(
      e.embed(['b']),
      (err) => isLociError(err, 'PROVIDER_FAILED') && /3-dimensional vector where 2/.test(err.message),
    );
    server.reply('ollama.embed', { body: { embedding: [1, 2] } });
    await assert.rejects(createEmbedder({ kind: 'ollama', model: 'm', baseUrl: server.url }).embed(['a']), (err) =>
      isLociError(err, 'PROVIDER_FAILED'),
    );
    server.reply('ollama.embed', { body: { embeddings: [[1, 'x']] } });
    await assert.rejects(createEmbedder({ kind: 'ollama', model: 'm', baseUrl: server.url }).embed(['a']), (err) =>
      isLociError(err, 'PROVIDER_FAILED'),
    );
  });

  it('prefixes texts by kind and folds the prefixes into the id', async () => {
    const e = createEmbedder({
      kind: 'ollama',
      model: 'nomic-embed-text',
      baseUrl: server.url,
      prefixes: { query: 'search_query: ', document: 'search_document: ' },
    });
    assert.match(e.id, /^ollama:nomic-embed-text\+p[0-9a-f]{8}$/);
    await e.embed(['auth'], { kind: 'query' });
    assert.deepEqual(server.requestsTo('ollama.embed').at(-1)!.body.input, ['search_query: auth']);
    await e.embed(['auth']);
    assert.deepEqual(server.requestsTo('ollama.embed').at(-1)!.body.input, ['search_document: auth']);
  });
});

describe('openai embedder', () => {
  it('posts the embeddings request with a Bearer key and orders data by index', async () => {
    server.reply('openai.embeddings', recording('openai', 'embeddings.ok'));
    const e = createEmbedder(
      { kind: 'openai', model: 'text-embedding-3-small', dimensions: 4, baseUrl: server.url },
      { env: { OPENAI_API_KEY: 'sk-test' } },
    );
    assert.equal(e.id, 'openai:text-embedding-3-small@4');
    assert.equal(e.dims, 4);
    const req = recordedRequest('openai', 'embeddings.ok') as { input: string[] };
    const [a, b] = await e.embed(req.input);
    const got = server.requestsTo('openai.embeddings').at(-1)!;
    assert.equal(got.path, '/v1/embeddings');
    assert.equal(got.headers['authorization'], 'Bearer sk-test');
    assert.deepEqual(got.body, req);
    near(a, [0.5, -0.5, 0.5, 0.5]); // index 0 came second in data[]
    near(b, [0, 0.6, 0, -0.8]);
  });

  it('keeps the order across batches when the server shuffles data[]', async () => {
    server.handle('openai.embeddings', (req) => {
      const input = req.body.input as string[];
      const data = input.map((t, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(t, 8) })).reverse();
      return { body: { object: 'list', data, model: req.body.model, usage: { prompt_tokens: 1, total_tokens: 1 } } };
    });
    const texts = Array.from({ length: 7 }, (_, i) => `text number ${i}`);
    const before = server.requestsTo('openai.embeddings').length;
    const e = createEmbedder(
      { kind: 'openai', model: 'nomic-embed-text-v1.5', baseUrl: `${server.url}/v1`, batchSize: 3 },
      { env: {} },
    );
    const out = await e.embed(texts);
    assert.deepEqual(
      server
        .requestsTo('openai.embeddings')
        .slice(before)
        .map((r) => r.body.input.length),
      [3, 3, 1],
    );
    out.forEach((v, i) => near(v, unit(fakeEmbedding(texts[i]!, 8))));
    assert.equal(server.requestsTo('openai.embeddings').at(-1)!.headers['authorization'], undefined);
  });

  it('needs a key at api.openai.com only, read from LOCI_EMBED_API_KEY or OPENAI_API_KEY', () => {
    assert.throws(
      () => createEmbedder({ kind: 'openai', model: 'text-embedding-3-small' }, { env: {} }),
      (e) => isLociError(e, 'PROVIDER_KEY_MISSING'),
    );
    assert.doesNotThrow(() =>
      createEmbedder({ kind: 'openai', model: 'text-embedding-3-small' }, { env: { LOCI_EMBED_API_KEY: 'k' } }),
    );
  });

  it('honours retry-after on 429 and sends empty texts as a space', async () => {
    const { sleep, waits } = recordingSleep();
    server.reply('openai.embeddings', recording('openai', 'error.rate_limited'));
    const e = createEmbedder({ kind: 'openai', model: 'm', baseUrl: server.url }, { env: {}, sleep });
    await e.embed(['', 'b']);
    assert.deepEqual(waits, [1000]);
    assert.deepEqual(server.requestsTo('openai.embeddings').at(-1)!.body.input, [' ', 'b']);
  });

  it('is cancelled by the caller signal and rejects repeated indexes', async () => {
    server.reply('openai.embeddings', { fail: 'hang' });
    const e = createEmbedder({ kind: 'openai', model: 'm', baseUrl: server.url }, { env: {} });
    const ctl = new AbortController();
    const n = server.requests.length;
    const p = e.embed(['x'], { signal: ctl.signal });
    await server.waitForRequests(n + 1);
    ctl.abort();
    await assert.rejects(p, (err) => isLociError(err, 'ABORTED'));
    server.reply('openai.embeddings', {
      body: {
        data: [
          { index: 0, embedding: [1] },
          { index: 0, embedding: [1] },
        ],
      },
    });
    await assert.rejects(
      e.embed(['a', 'b']),
      (err) => isLociError(err, 'PROVIDER_FAILED') && /repeated/.test(err.message),
    );
  });
});
