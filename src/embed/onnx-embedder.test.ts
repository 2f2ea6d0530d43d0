/**
 * @module embed/onnx-embedder.test
 * The local ONNX embedder on a tiny model the tests build as raw protobuf bytes (no weights are
 * downloaded): pooling, padding, batching, lazy runtime import, missing files and bad models.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { isLociError } from '../core/errors.js';
import { expectedVector, removeTinyModels, TINY_DIMS, writeTinyModel } from '../../test/helpers/tiny-model.js';
import { createEmbedder, findModelFiles, type Embedder } from './index.js';

function close(actual: Float32Array | undefined, expected: number[]): void {
  assert.ok(actual, 'a vector');
  assert.equal(actual.length, expected.length);
  actual.forEach((x, i) => assert.ok(Math.abs(x - expected[i]!) < 1e-5, `component ${i}: ${x} vs ${expected[i]}`));
}

/** A loader that counts how often the runtime is imported. */
function countingLoader() {
  const counter = { calls: 0, load: () => (counter.calls++, import('onnxruntime-node')) };
  return counter;
}

async function withEmbedder<T>(e: Embedder, fn: (e: Embedder) => Promise<T>): Promise<T> {
  try {
    return await fn(e);
  } finally {
    await e.close?.();
  }
}

after(removeTinyModels);

describe('onnx embedder', () => {
  it('mean-pools the last hidden state over real tokens and L2-normalises', async () => {
    const dir = writeTinyModel();
    await withEmbedder(createEmbedder({ kind: 'onnx', modelDir: dir }), async (e) => {
      assert.equal(e.id, `onnx:${basename(dir)}`);
      const [a, b] = await e.embed(['Hello, World!', 'the cat sat']);
      close(a, expectedVector([2, 10, 16, 11, 17, 3]));
      close(b, expectedVector([2, 5, 6, 7, 3]));
      assert.ok(Math.abs(Math.hypot(...a!) - 1) < 1e-6);
    });
  });

  it('gives each text the same vector alone or padded in a batch, in input order', async () => {
    const texts = ['the cat sat on the mat', 'hello', 'unbelievable cats, hello world!', '', 'memory'];
    const dir = writeTinyModel();
    const alone: Float32Array[] = [];
    await withEmbedder(createEmbedder({ kind: 'onnx', modelDir: dir, batchSize: 1 }), async (e) => {
      for (const t of texts) alone.push((await e.embed([t]))[0]!);
    });
    for (const batchSize of [2, 16]) {
      await withEmbedder(createEmbedder({ kind: 'onnx', modelDir: dir, batchSize }), async (e) => {
        const batched = await e.embed(texts);
        assert.equal(batched.length, texts.length);
        batched.forEach((v, i) => close(v, Array.from(alone[i]!)));
      });
    }
    close(alone[3], expectedVector([2, 3]));
  });

  it('imports onnxruntime-node only on first use, once', async () => {
    const dir = writeTinyModel();
    const loader = countingLoader();
    const e = createEmbedder({ kind: 'onnx', modelDir: dir }, { loadOnnxRuntime: loader.load });
    assert.equal(loader.calls, 0);
    assert.equal(e.dims, 0);
    await withEmbedder(e, async () => {
      await e.embed(['hello']);
      assert.equal(loader.calls, 1);
      await e.embed(['world']);
      await e.init();
      assert.equal(loader.calls, 1);
      assert.equal(e.dims, TINY_DIMS);
    });
  });

  it('init() loads the model and exposes dims; embed([]) returns []', async () => {
    await withEmbedder(createEmbedder({ kind: 'onnx', modelDir: writeTinyModel() }), async (e) => {
      await e.init();
      assert.equal(e.dims, TINY_DIMS);
      assert.deepEqual(await e.embed([]), []);
    });
  });

  for (const file of ['config.json', 'tokenizer.json', 'onnx/model.onnx']) {
    it(`names a missing ${file} and how to get it, without importing the runtime`, async () => {
      const dir = writeTinyModel({ omit: [file] });
      const loader = countingLoader();
      const e = createEmbedder({ kind: 'onnx', modelDir: dir }, { loadOnnxRuntime: loader.load });
      await assert.rejects(e.embed(['hello']), (err) => {
        assert.ok(isLociError(err, 'MODEL_FILE_MISSING'));
        assert.equal(err.details.dir, dir);
        assert.ok(err.details.file.startsWith(file), err.details.file);
        assert.match(err.message, new RegExp(`${dir}.*${file.replace('.', '\\.')}`));
        assert.match(err.message, /all-MiniLM-L6-v2/);
        assert.match(err.message, /never downloads/);
        return true;
      });
      assert.equal(loader.calls, 0);
    });
  }

  it('says so when the model folder does not exist', async () => {
    const e = createEmbedder({ kind: 'onnx', modelDir: join(tmpdir(), 'loci-no-such-model-dir') });
    await assert.rejects(
      e.init(),
      (err) => isLociError(err, 'MODEL_FILE_MISSING') && /does not exist/.test(err.message),
    );
  });

  it('accepts model.onnx at the root and the quantized file when asked', async () => {
    assert.match(findModelFiles({ modelDir: writeTinyModel({ modelPath: 'model.onnx' }) }).model, /[/\\]model\.onnx$/);
    const q = writeTinyModel({ modelPath: 'onnx/model_quantized.onnx' });
    assert.match(findModelFiles({ modelDir: q, quantized: true }).model, /onnx[/\\]model_quantized\.onnx$/);
    assert.throws(
      () => findModelFiles({ modelDir: writeTinyModel(), quantized: true }),
      (e) => isLociError(e, 'MODEL_FILE_MISSING') && /model_quantized\.onnx/.test(e.message),
    );
    const e = createEmbedder({ kind: 'onnx', modelDir: q, quantized: true, name: 'tiny' });
    assert.equal(e.id, 'onnx:tiny:quantized');
    await withEmbedder(e, async () => close((await e.embed(['cat']))[0], expectedVector([2, 6, 3])));
  });

  it('raises MODULE_MISSING when onnxruntime-node cannot be imported', async () => {
    const missing = 'onnxruntime-node-that-is-not-installed';
    const e = createEmbedder({ kind: 'onnx', modelDir: writeTinyModel() }, { loadOnnxRuntime: () => import(missing) });
    await assert.rejects(
      e.embed(['hello']),
      (err) =>
        isLociError(err, 'MODULE_MISSING') &&
        err.details.module === 'onnxruntime-node' &&
        /ONNXRUNTIME_NODE_INSTALL=skip npm i onnxruntime-node/.test(err.message),
    );
  });

  it('feeds only the inputs the model declares, and token_type_ids as zeros', async () => {
    await withEmbedder(
      createEmbedder({ kind: 'onnx', modelDir: writeTinyModel({ inputs: ['input_ids', 'attention_mask'] }) }),
      async (e) => {
        close((await e.embed(['hello world']))[0], expectedVector([2, 10, 11, 3]));
      },
    );
    await withEmbedder(
      createEmbedder({ kind: 'onnx', modelDir: writeTinyModel({ withTypeEmbedding: true }) }),
      async (e) => {
        close((await e.embed(['hello world', 'cat']))[0], expectedVector([2, 10, 11, 3], true));
      },
    );
  });

  it('truncates long texts to the tokenizer limit', async () => {
    await withEmbedder(createEmbedder({ kind: 'onnx', modelDir: writeTinyModel({ maxLength: 4 }) }), async (e) => {
      close((await e.embed(['the cat sat on the mat']))[0], expectedVector([2, 5, 6, 3]));
    });
    await withEmbedder(createEmbedder({ kind: 'onnx', modelDir: writeTinyModel(), maxLength: 3 }), async (e) => {
      close((await e.embed(['the cat sat']))[0], expectedVector([2, 5, 3]));
    });
  });

  it('prepends the configured prefix by kind and folds it into the id', async () => {
    const dir = writeTinyModel();
    const e = createEmbedder({ kind: 'onnx', modelDir: dir, prefixes: { query: 'hello ' } });
    assert.match(e.id, /^onnx:.+\+p[0-9a-f]{8}$/);
    await withEmbedder(e, async () => {
      close((await e.embed(['cat'], { kind: 'query' }))[0], expectedVector([2, 10, 6, 3]));
      close((await e.embed(['cat'], { kind: 'document' }))[0], expectedVector([2, 6, 3]));
    });
  });

  it('refuses unsupported tokenizers and models, naming the file', async () => {
    const bpe = writeTinyModel({ tokenizer: { model: { type: 'BPE', vocab: {}, merges: [] } } });
    await assert.rejects(
      createEmbedder({ kind: 'onnx', modelDir: bpe }).embed(['x']),
      (e) => isLociError(e, 'TOKENIZER_UNSUPPORTED') && e.details.value === 'BPE',
    );

    const odd = writeTinyModel({ inputs: ['input_ids', 'attention_mask', 'pixel_values'] });
    await assert.rejects(
      createEmbedder({ kind: 'onnx', modelDir: odd }).embed(['x']),
      (e) => isLociError(e, 'MODEL_UNSUPPORTED') && /pixel_values/.test(e.message),
    );

    const broken = writeTinyModel();
    writeFileSync(join(broken, 'onnx/model.onnx'), 'this is not a protobuf');
    await assert.rejects(
      createEmbedder({ kind: 'onnx', modelDir: broken }).embed(['x']),
      (e) => isLociError(e, 'MODEL_UNSUPPORTED') && e.details.path.endsWith('model.onnx'),
    );

    const badJson = mkdtempSync(join(tmpdir(), 'loci-onnx-'));
    writeFileSync(join(badJson, 'config.json'), '{');
    writeFileSync(join(badJson, 'tokenizer.json'), '{}');
    writeFileSync(join(badJson, 'model.onnx'), '');
    await assert.rejects(
      createEmbedder({ kind: 'onnx', modelDir: badJson }).embed(['x']),
      (e) => isLociError(e, 'MODEL_UNSUPPORTED') && /not valid JSON/.test(e.message),
    );
    rmSync(badJson, { recursive: true, force: true });
  });

  it('recovers after close() and after a failed load once the folder is fixed', async () => {
    const dir = writeTinyModel();
    const e = createEmbedder({ kind: 'onnx', modelDir: dir });
    await e.embed(['cat']);
    await e.close?.();
    await withEmbedder(e, async () => close((await e.embed(['cat']))[0], expectedVector([2, 6, 3])));

    const fixable = writeTinyModel({ omit: ['tokenizer.json'] });
    const f = createEmbedder({ kind: 'onnx', modelDir: fixable });
    await assert.rejects(f.embed(['cat']), (err) => isLociError(err, 'MODEL_FILE_MISSING'));
    const full = writeTinyModel();
    writeFileSync(join(fixable, 'tokenizer.json'), readFileSync(join(full, 'tokenizer.json')));
    await withEmbedder(f, async () => close((await f.embed(['cat']))[0], expectedVector([2, 6, 3])));
  });

  it('checks its arguments and honours an aborted signal', async () => {
    assert.throws(
      () => createEmbedder({ kind: 'onnx', modelDir: '/x', batchSize: 0 }),
      (e) => isLociError(e, 'INVALID_ARGUMENT'),
    );
    assert.throws(
      () => createEmbedder({ kind: 'onnx', modelDir: '/x', maxLength: 1 }),
      (e) => isLociError(e, 'INVALID_ARGUMENT'),
    );
    const e = createEmbedder({ kind: 'onnx', modelDir: writeTinyModel() });
    await assert.rejects(e.embed(['x'], { signal: AbortSignal.abort() }), (err) => isLociError(err, 'ABORTED'));
    await assert.rejects(e.embed([1 as unknown as string]), (err) => isLociError(err, 'INVALID_ARGUMENT'));
  });
});
