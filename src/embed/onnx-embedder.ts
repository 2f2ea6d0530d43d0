/**
 * @module embed/onnx-embedder
 * A local sentence-embedding model (Hugging Face layout: `config.json`, `tokenizer.json`,
 * `onnx/model.onnx`) run with onnxruntime-node. The runtime is loaded with a dynamic `import()`
 * the first time the embedder is used, never at module load; nothing is ever downloaded.
 * Pipeline: WordPiece tokenizer → session (`input_ids`, `attention_mask`, `token_type_ids` as
 * int64) → `last_hidden_state` → mean pooling over the attention mask → L2 normalisation.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { createError, isLociError } from '../core/errors.js';
import type { EmbedOptions, Embedder, EmbedderDeps, OnnxEmbedderConfig } from './types.js';
import { checkAborted, checkInt, checkTexts, l2normalize, prefixTag, withPrefix } from './vector.js';
import { loadWordPiece, padBatch, type Encoding, type WordPieceTokenizer } from './wordpiece.js';

/** The package loaded on first use. */
const ONNX_RUNTIME_MODULE = 'onnxruntime-node';

/** The parts of onnxruntime-node's API this file uses (declared here so no type import is needed). */
interface OrtTensor {
  readonly data: unknown;
  readonly dims: readonly number[];
  readonly type: string;
}
interface OrtSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  run(feeds: Record<string, OrtTensor>, fetches?: readonly string[]): Promise<Record<string, OrtTensor>>;
  release?(): Promise<void>;
}
interface OrtModule {
  InferenceSession: { create(path: string, options?: Record<string, unknown>): Promise<OrtSession> };
  Tensor: new (type: 'int64', data: BigInt64Array, dims: readonly number[]) => OrtTensor;
}

const HINT = (dir: string) =>
  `download the ONNX export of a sentence-embedding model such as sentence-transformers/all-MiniLM-L6-v2 ` +
  `(config.json, tokenizer.json, onnx/model.onnx) on a machine with internet access and copy the folder to ${dir} ` +
  '— Loci never downloads models';

/** Files found in a model folder. */
interface ModelFiles {
  dir: string;
  config: string;
  tokenizer: string;
  model: string;
}

/**
 * Locates the model files, without loading anything. Throws MODEL_FILE_MISSING naming the first
 * missing file: `config.json`, `tokenizer.json`, then the model (`modelFile`; else
 * `onnx/model.onnx` or `model.onnx`; with `quantized`, `onnx/model_quantized.onnx` or
 * `model_quantized.onnx`).
 */
export function findModelFiles(cfg: Pick<OnnxEmbedderConfig, 'modelDir' | 'modelFile' | 'quantized'>): ModelFiles {
  const dir = resolve(cfg.modelDir);
  const isFile = (p: string) => existsSync(p) && statSync(p).isFile();
  const missing = (file: string) =>
    createError('MODEL_FILE_MISSING', {
      dir,
      file,
      hint: existsSync(dir) ? HINT(dir) : `the folder does not exist; ${HINT(dir)}`,
    });
  const need = (file: string): string => {
    const p = join(dir, file);
    if (!isFile(p)) throw missing(file);
    return p;
  };
  const config = need('config.json');
  const tokenizer = need('tokenizer.json');
  if (cfg.modelFile) return { dir, config, tokenizer, model: need(cfg.modelFile) };
  const stem = cfg.quantized ? 'model_quantized.onnx' : 'model.onnx';
  const candidates = [join('onnx', stem), stem];
  const found = candidates.find((c) => isFile(join(dir, c)));
  if (!found) throw missing(`${candidates[0]} (or ${candidates[1]})`);
  return { dir, config, tokenizer, model: join(dir, found) };
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch (e) {
    throw createError('MODEL_UNSUPPORTED', { path, reason: `not valid JSON (${(e as Error).message})` }, e);
  }
}

/** Loads onnxruntime-node (or the injected loader's module); MODULE_MISSING when absent. */
async function loadRuntime(deps: EmbedderDeps): Promise<OrtModule> {
  let mod: unknown;
  try {
    mod = await (deps.loadOnnxRuntime ?? (() => import(ONNX_RUNTIME_MODULE)))();
  } catch (e) {
    throw createError('MODULE_MISSING', { module: ONNX_RUNTIME_MODULE, feature: 'the local ONNX embedder' }, e);
  }
  const m = mod as Partial<OrtModule> & { default?: Partial<OrtModule> };
  const ort = m.InferenceSession ? m : m.default;
  if (!ort?.InferenceSession?.create || !ort.Tensor) {
    throw createError('MODULE_MISSING', {
      module: ONNX_RUNTIME_MODULE,
      feature: 'the local ONNX embedder (the loaded module has no InferenceSession)',
    });
  }
  return ort as OrtModule;
}

interface Loaded {
  ort: OrtModule;
  session: OrtSession;
  tokenizer: WordPieceTokenizer;
  output: string;
  inputs: readonly string[];
  modelPath: string;
}

const KNOWN_INPUTS = new Set(['input_ids', 'attention_mask', 'token_type_ids']);

/** Creates the ONNX embedder; cheap and synchronous — files and runtime are touched on first use. */
export function onnxEmbedder(cfg: OnnxEmbedderConfig, deps: EmbedderDeps = {}): Embedder {
  const batchSize = checkInt('batchSize', cfg.batchSize ?? 16, 1, 2048);
  if (cfg.maxLength !== undefined) checkInt('maxLength', cfg.maxLength, 2, 8192);
  if (cfg.threads !== undefined) checkInt('threads', cfg.threads, 1, 64);
  const name = cfg.name ?? basename(resolve(cfg.modelDir));
  const id = cfg.id ?? `onnx:${name}${cfg.quantized ? ':quantized' : ''}${prefixTag(cfg.prefixes)}`;
  let dims = 0;
  let loading: Promise<Loaded> | undefined;

  const load = async (): Promise<Loaded> => {
    const files = findModelFiles(cfg);
    const config = readJson(files.config) as Record<string, unknown> | null;
    const positions =
      typeof config?.['max_position_embeddings'] === 'number' ? config['max_position_embeddings'] : undefined;
    const tokenizer = loadWordPiece(readJson(files.tokenizer), {
      path: files.tokenizer,
      maxLength: cfg.maxLength,
      maxPositions: positions,
    });
    const ort = await loadRuntime(deps);
    let session: OrtSession;
    try {
      session = await ort.InferenceSession.create(files.model, {
        executionProviders: ['cpu'],
        graphOptimizationLevel: 'all',
        logSeverityLevel: 3, // errors only: library code keeps stderr quiet
        ...(cfg.threads ? { intraOpNumThreads: cfg.threads } : {}),
      });
    } catch (e) {
      throw createError(
        'MODEL_UNSUPPORTED',
        { path: files.model, reason: `onnxruntime cannot load it (${(e as Error).message})` },
        e,
      );
    }
    const unknown = session.inputNames.filter((n) => !KNOWN_INPUTS.has(n));
    if (!session.inputNames.includes('input_ids') || unknown.length) {
      await session.release?.();
      throw createError('MODEL_UNSUPPORTED', {
        path: files.model,
        reason: `its inputs are [${session.inputNames.join(', ')}]`,
      });
    }
    const outs = session.outputNames;
    const output = outs.find((n) => n === 'last_hidden_state') ?? outs.find((n) => n === 'token_embeddings') ?? outs[0];
    if (output === undefined)
      throw createError('MODEL_UNSUPPORTED', { path: files.model, reason: 'it declares no output' });
    return { ort, session, tokenizer, output, inputs: session.inputNames, modelPath: files.model };
  };

  const ready = (): Promise<Loaded> => {
    loading ??= load().catch((e: unknown) => {
      loading = undefined; // a later call may succeed once the folder is fixed
      throw e;
    });
    return loading;
  };

  const run = async (m: Loaded, encs: Encoding[]): Promise<Float32Array[]> => {
    const b = padBatch(encs, m.tokenizer.padId);
    const shape = [b.batch, b.seq];
    const all = { input_ids: b.inputIds, attention_mask: b.attentionMask, token_type_ids: b.tokenTypeIds };
    const feeds: Record<string, OrtTensor> = {};
    for (const n of m.inputs) feeds[n] = new m.ort.Tensor('int64', all[n as keyof typeof all], shape);
    let out: OrtTensor | undefined;
    try {
      out = (await m.session.run(feeds, [m.output]))[m.output];
    } catch (e) {
      throw createError(
        'MODEL_UNSUPPORTED',
        { path: m.modelPath, reason: `the run failed (${(e as Error).message})` },
        e,
      );
    }
    return pool(out, b.attentionMask, b.batch, b.seq, m.modelPath);
  };

  const pool = (
    out: OrtTensor | undefined,
    mask: BigInt64Array,
    batch: number,
    seq: number,
    path: string,
  ): Float32Array[] => {
    if (!out || out.type !== 'float32' || !(out.data instanceof Float32Array)) {
      throw createError('MODEL_UNSUPPORTED', {
        path,
        reason: `its output is ${out ? out.type : 'missing'}, expected float32`,
      });
    }
    const data = out.data;
    const d = out.dims;
    const pooled = d.length === 2; // already a sentence embedding [batch, hidden]
    if (!(d.length === 3 && d[0] === batch && d[1] === seq) && !(pooled && d[0] === batch)) {
      throw createError('MODEL_UNSUPPORTED', {
        path,
        reason: `its output has shape [${d.join(', ')}], expected [${batch}, ${seq}, hidden]`,
      });
    }
    const hidden = d[d.length - 1]!;
    if (dims !== 0 && hidden !== dims) {
      throw createError('MODEL_UNSUPPORTED', {
        path,
        reason: `it produced ${hidden}-dimensional vectors after ${dims}-dimensional ones`,
      });
    }
    dims = hidden;
    const vecs: Float32Array[] = [];
    for (let r = 0; r < batch; r++) {
      const v = new Float32Array(hidden);
      if (pooled) v.set(data.subarray(r * hidden, (r + 1) * hidden));
      else {
        let n = 0;
        for (let t = 0; t < seq; t++) {
          if (mask[r * seq + t] === 0n) continue;
          n++;
          const off = (r * seq + t) * hidden;
          for (let h = 0; h < hidden; h++) v[h]! += data[off + h]!;
        }
        if (n > 0) for (let h = 0; h < hidden; h++) v[h]! /= n;
      }
      vecs.push(l2normalize(v));
    }
    return vecs;
  };

  return {
    id,
    get dims() {
      return dims;
    },
    async init(opts: { signal?: AbortSignal } = {}) {
      checkAborted(opts.signal, 'onnx model loading');
      const m = await ready();
      if (dims === 0) await run(m, [m.tokenizer.encode('')]); // one tiny run reveals the output size
    },
    async embed(texts: readonly string[], opts: EmbedOptions = {}) {
      checkTexts(texts);
      if (texts.length === 0) return [];
      checkAborted(opts.signal, 'onnx embedding');
      const m = await ready();
      const encs = texts.map((t) => m.tokenizer.encode(withPrefix(t, opts.kind, cfg.prefixes)));
      // Batch texts of similar length together to keep padding small; restore the order after.
      const order = encs.map((_, i) => i).sort((a, b) => encs[a]!.ids.length - encs[b]!.ids.length);
      const out = new Array<Float32Array>(texts.length);
      for (let start = 0; start < order.length; start += batchSize) {
        checkAborted(opts.signal, 'onnx embedding');
        const idx = order.slice(start, start + batchSize);
        const vecs = await run(
          m,
          idx.map((i) => encs[i]!),
        );
        idx.forEach((i, k) => (out[i] = vecs[k]!));
      }
      return out;
    },
    async close() {
      const current = loading;
      loading = undefined;
      if (!current) return;
      try {
        await (await current).session.release?.();
      } catch (e) {
        if (!isLociError(e)) throw e; // a failed load has nothing to release
      }
    },
  };
}
