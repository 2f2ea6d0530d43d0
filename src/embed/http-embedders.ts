/**
 * @module embed/http-embedders
 * Embedders over HTTP: Ollama (`/api/embed`, legacy `/api/embeddings`) and OpenAI-compatible
 * `/v1/embeddings`. Texts go in batches, one request at a time, in order; every request has its
 * own deadline and the retry policy of the shared transport.
 */
import { createError } from '../core/errors.js';
import { processEnv, readSettings } from '../core/env.js';
import {
  endpoint,
  field,
  httpEffects,
  isHttpStatus,
  postJson,
  DEFAULT_RETRY,
  type HttpEffects,
  type RetryPolicy,
} from '../providers/index.js';
import type {
  EmbedOptions,
  Embedder,
  EmbedderDeps,
  HttpEmbedderCommon,
  OllamaEmbedderConfig,
  OpenAiEmbedderConfig,
} from './types.js';
import { checkAborted, checkInt, checkTexts, l2normalize, prefixTag, withPrefix } from './vector.js';

/** Default Ollama server root. */
const OLLAMA_BASE_URL = 'http://127.0.0.1:11434';
/** Default OpenAI server root. */
const OPENAI_BASE_URL = 'https://api.openai.com';
/** Default per-request timeout of the HTTP embedders, in ms. */
const EMBED_TIMEOUT_MS = 60_000;

interface Transport {
  fx: HttpEffects;
  retry: RetryPolicy;
  timeoutMs: number;
  headers: Record<string, string>;
}

function transport(cfg: HttpEmbedderCommon, deps: EmbedderDeps): Transport {
  const retry = {
    maxRetries: checkInt('maxRetries', cfg.maxRetries ?? DEFAULT_RETRY.maxRetries, 0, 10),
    baseMs: checkInt('retryBaseMs', cfg.retryBaseMs ?? DEFAULT_RETRY.baseMs, 0, 60_000),
    maxMs: checkInt('retryMaxMs', cfg.retryMaxMs ?? DEFAULT_RETRY.maxMs, 0, 600_000),
  };
  return {
    fx: httpEffects(deps),
    retry,
    timeoutMs: checkInt('timeoutMs', cfg.timeoutMs ?? EMBED_TIMEOUT_MS, 1, 600_000),
    headers: { ...cfg.headers },
  };
}

/** Turns raw batches from a server into checked, normalised vectors; batching and `dims` discovery. */
class HttpEmbedder implements Embedder {
  #dims: number;
  constructor(
    readonly id: string,
    dims: number,
    private readonly provider: string,
    private readonly batchSize: number,
    private readonly cfg: HttpEmbedderCommon,
    private readonly embedBatch: (texts: string[], signal: AbortSignal | undefined) => Promise<unknown[]>,
  ) {
    this.#dims = dims;
  }

  get dims(): number {
    return this.#dims;
  }

  async init(opts: { signal?: AbortSignal } = {}): Promise<void> {
    if (this.#dims > 0) return;
    await this.embed(['dimension probe'], opts);
  }

  async embed(texts: readonly string[], opts: EmbedOptions = {}): Promise<Float32Array[]> {
    checkTexts(texts);
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      checkAborted(opts.signal, `${this.provider} embedding`);
      const batch = texts.slice(start, start + this.batchSize).map((t) => withPrefix(t, opts.kind, this.cfg.prefixes));
      const raw = await this.embedBatch(batch, opts.signal);
      if (raw.length !== batch.length) throw this.bad(`sent ${batch.length} texts, received ${raw.length} vectors`);
      for (const v of raw) out.push(this.vector(v));
    }
    return out;
  }

  private vector(v: unknown): Float32Array {
    if (!Array.isArray(v) || v.length === 0 || v.some((x) => typeof x !== 'number' || !Number.isFinite(x))) {
      throw this.bad('a vector is not a non-empty array of finite numbers');
    }
    if (this.#dims === 0) this.#dims = v.length;
    else if (v.length !== this.#dims) {
      throw this.bad(
        `received a ${v.length}-dimensional vector where ${this.#dims} were expected (did the model change? then ` +
          'rebuild the vectors)',
      );
    }
    return l2normalize(Float32Array.from(v as number[]));
  }

  private bad(reason: string) {
    return createError('PROVIDER_FAILED', { provider: this.provider, url: this.cfg.baseUrl ?? '', reason });
  }
}

/** Ollama embeddings. Id `ollama:<model>`. */
export function ollamaEmbedder(cfg: OllamaEmbedderConfig, deps: EmbedderDeps = {}): Embedder {
  const t = transport(cfg, deps);
  const base = cfg.baseUrl?.trim() || OLLAMA_BASE_URL;
  const embedUrl = endpoint(base, '/api/embed');
  const legacyUrl = endpoint(base, '/api/embeddings');
  let legacy = false;
  const call = (url: string, body: unknown, signal: AbortSignal | undefined) =>
    postJson(
      {
        provider: 'ollama',
        operation: 'ollama embedding',
        url,
        headers: t.headers,
        body,
        timeoutMs: t.timeoutMs,
        signal,
        retry: t.retry,
      },
      t.fx,
    );
  const legacyBatch = async (texts: string[], signal: AbortSignal | undefined): Promise<unknown[]> => {
    const out: unknown[] = [];
    for (const prompt of texts)
      out.push(field(await call(legacyUrl, { model: cfg.model, prompt }, signal), 'embedding'));
    return out;
  };
  const batch = async (texts: string[], signal: AbortSignal | undefined): Promise<unknown[]> => {
    if (legacy) return legacyBatch(texts, signal);
    let json: unknown;
    try {
      json = await call(embedUrl, { model: cfg.model, input: texts }, signal);
    } catch (e) {
      // Ollama before 0.3 has no /api/embed (404 "page not found"); a missing model is also a 404,
      // so keep the original error when the legacy endpoint fails as well.
      if (!isHttpStatus(e, 404)) throw e;
      try {
        const out = await legacyBatch(texts, signal);
        legacy = true;
        return out;
      } catch (e2) {
        throw isHttpStatus(e2, 404) ? e : e2;
      }
    }
    const embeddings = field(json, 'embeddings');
    if (!Array.isArray(embeddings)) {
      throw createError('PROVIDER_FAILED', {
        provider: 'ollama',
        url: embedUrl,
        reason: 'the response has no embeddings[] — is this an Ollama server?',
      });
    }
    return embeddings;
  };
  const id = cfg.id ?? `ollama:${cfg.model}${prefixTag(cfg.prefixes)}`;
  return new HttpEmbedder(
    id,
    0,
    'ollama',
    checkInt('batchSize', cfg.batchSize ?? 32, 1, 2048),
    { ...cfg, baseUrl: base },
    batch,
  );
}

/** OpenAI-compatible embeddings. Id `openai:<model>` plus `@<dimensions>` when requested. */
export function openaiEmbedder(cfg: OpenAiEmbedderConfig, deps: EmbedderDeps = {}): Embedder {
  const t = transport(cfg, deps);
  const s = readSettings(deps.env ?? processEnv());
  const base = cfg.baseUrl?.trim() || OPENAI_BASE_URL;
  const url = endpoint(base, '/v1/embeddings');
  const apiKey = cfg.apiKey?.trim() || s.embedApiKey?.trim() || s.openaiApiKey?.trim() || undefined;
  if (!apiKey && new URL(url).hostname === 'api.openai.com') {
    throw createError('PROVIDER_KEY_MISSING', {
      provider: 'openai embeddings',
      envVar: 'OPENAI_API_KEY (or LOCI_EMBED_API_KEY)',
    });
  }
  const dimensions = cfg.dimensions === undefined ? undefined : checkInt('dimensions', cfg.dimensions, 1, 65_536);
  const headers = { ...t.headers, ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) };
  const batch = async (texts: string[], signal: AbortSignal | undefined): Promise<unknown[]> => {
    const body = {
      model: cfg.model,
      // The OpenAI API rejects empty strings.
      input: texts.map((s) => (s === '' ? ' ' : s)),
      ...(dimensions !== undefined ? { dimensions } : {}),
      encoding_format: 'float',
    };
    const json = await postJson(
      {
        provider: 'openai',
        operation: 'openai embedding',
        url,
        headers,
        body,
        timeoutMs: t.timeoutMs,
        signal,
        retry: t.retry,
      },
      t.fx,
    );
    const data = field(json, 'data');
    if (!Array.isArray(data)) {
      throw createError('PROVIDER_FAILED', {
        provider: 'openai',
        url,
        reason: 'the response has no data[] — is this an OpenAI-compatible embeddings server?',
      });
    }
    if (data.length !== texts.length) {
      throw createError('PROVIDER_FAILED', {
        provider: 'openai',
        url,
        reason: `sent ${texts.length} texts, received ${data.length} embeddings`,
      });
    }
    const out: unknown[] = new Array(texts.length);
    data.forEach((d: unknown, pos) => {
      const index = field(d, 'index');
      const i = typeof index === 'number' ? index : pos;
      if (!Number.isInteger(i) || i < 0 || i >= texts.length || out[i] !== undefined) {
        throw createError('PROVIDER_FAILED', {
          provider: 'openai',
          url,
          reason: `data[${pos}].index ${String(index)} is out of range or repeated`,
        });
      }
      out[i] = field(d, 'embedding');
    });
    return out;
  };
  const id =
    cfg.id ?? `openai:${cfg.model}${dimensions !== undefined ? `@${dimensions}` : ''}${prefixTag(cfg.prefixes)}`;
  return new HttpEmbedder(
    id,
    dimensions ?? 0,
    'openai',
    checkInt('batchSize', cfg.batchSize ?? 128, 1, 2048),
    { ...cfg, baseUrl: base },
    batch,
  );
}
