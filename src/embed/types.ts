/**
 * @module embed/types
 * The Embedder port and the configuration of the built-in embedders (Ollama, OpenAI-compatible,
 * local ONNX). A weights-free embedder only has to implement {@link Embedder}.
 */

/** Options of one {@link Embedder.embed} call. */
export interface EmbedOptions {
  /**
   * What the texts are: search queries or stored documents. Asymmetric models (nomic-embed-text,
   * e5, bge) embed them with different prefixes; symmetric ones ignore it. Default `'document'`.
   */
  kind?: 'query' | 'document';
  /** Cancels the call (`ABORTED`). */
  signal?: AbortSignal;
}

/** Turns texts into L2-normalised vectors of one fixed length. */
export interface Embedder {
  /**
   * Identity stored with every vector, e.g. `ollama:nomic-embed-text`,
   * `openai:text-embedding-3-small@384`, `onnx:all-MiniLM-L6-v2`. Vectors made under another id
   * are not comparable: a change of id means the vector index must be rebuilt.
   */
  readonly id: string;
  /**
   * Vector length. `0` until known: HTTP embedders without a configured dimension and the ONNX
   * embedder learn it in {@link Embedder.init} (or the first `embed`). Always > 0 after `init()`.
   */
  readonly dims: number;
  /**
   * Gets ready: loads the model or asks the server once for the vector length. Idempotent and
   * cheap after the first success; `embed` calls it implicitly. Afterwards `dims > 0`.
   */
  init(opts?: { signal?: AbortSignal }): Promise<void>;
  /**
   * Embeds `texts` in order, one L2-normalised `Float32Array` of length `dims` per text (an empty
   * input gives an empty output). Throws `LociError` (PROVIDER_FAILED, TIMEOUT, ABORTED,
   * MODEL_FILE_MISSING, MODULE_MISSING, MODEL_UNSUPPORTED …).
   */
  embed(texts: readonly string[], opts?: EmbedOptions): Promise<Float32Array[]>;
  /** Releases native resources (ONNX session). The embedder may not be used afterwards. */
  close?(): Promise<void>;
}

/** Texts prepended by `kind`, for asymmetric models (e.g. nomic: `search_query: ` / `search_document: `). */
export interface EmbedPrefixes {
  /** Prepended to `kind: 'query'` texts. Default `''`. */
  query?: string;
  /** Prepended to `kind: 'document'` texts. Default `''`. */
  document?: string;
}

/** Settings every built-in embedder shares. */
interface EmbedderCommon {
  /** Overrides the computed {@link Embedder.id}. Default: derived from kind, model, dimension and prefixes. */
  id?: string;
  /** Texts sent per request / per ONNX run. Defaults: ollama 32, openai 128, onnx 16; 1 … 2048. */
  batchSize?: number;
  /** See {@link EmbedPrefixes}. Default none. Part of the default id (vectors differ with prefixes). */
  prefixes?: EmbedPrefixes;
}

/** Settings of the HTTP embedders. */
export interface HttpEmbedderCommon extends EmbedderCommon {
  /** Model name as the server knows it. */
  model: string;
  /** Server root. Defaults: `http://127.0.0.1:11434` (ollama), `https://api.openai.com` (openai). */
  baseUrl?: string;
  /** Total time per request (one batch), retries included, in ms. Default 60,000; 1 … 600,000. */
  timeoutMs?: number;
  /** Retries after a 429, a 5xx or a network error. Default 2; 0 … 10. */
  maxRetries?: number;
  /** First back-off delay in ms (doubled per retry, jittered). Default 500. */
  retryBaseMs?: number;
  /** Cap on one back-off delay (`retry-after` included) in ms. Default 8,000. */
  retryMaxMs?: number;
  /** Extra request headers. Default none. */
  headers?: Record<string, string>;
}

/** Ollama `/api/embed` (falls back to the legacy `/api/embeddings` on servers that lack it). */
export interface OllamaEmbedderConfig extends HttpEmbedderCommon {
  kind: 'ollama';
}

/** OpenAI-compatible `/v1/embeddings` (api.openai.com, llama.cpp, vLLM, LM Studio, TEI …). */
export interface OpenAiEmbedderConfig extends HttpEmbedderCommon {
  kind: 'openai';
  /**
   * Requested vector length (`dimensions`, text-embedding-3 models only). Default: the model's
   * own; 1 … 65,536. Becomes part of the id (`@384`).
   */
  dimensions?: number;
  /**
   * API key. Default: `LOCI_EMBED_API_KEY`, then `OPENAI_API_KEY` from the environment. Required
   * at api.openai.com only.
   */
  apiKey?: string;
}

/** A local sentence-embedding model in Hugging Face layout, run with onnxruntime-node. */
export interface OnnxEmbedderConfig extends EmbedderCommon {
  kind: 'onnx';
  /** Folder with `config.json`, `tokenizer.json` and `onnx/model.onnx` (or `model.onnx`). */
  modelDir: string;
  /**
   * Use `onnx/model_quantized.onnx` (or root `model_quantized.onnx`) instead of `model.onnx`.
   * Default false. Part of the id (`:q8`).
   */
  quantized?: boolean;
  /** A model file relative to `modelDir`, overriding the search above. Default none. */
  modelFile?: string;
  /**
   * Token limit per text, `[CLS]`/`[SEP]` included. Default: `truncation.max_length` of
   * `tokenizer.json`, else 256; never above `max_position_embeddings` of `config.json`. 2 … 8192.
   */
  maxLength?: number;
  /** Threads per ONNX run. Default: onnxruntime's choice (all cores). 1 … 64. */
  threads?: number;
  /** Short model name used in the id. Default: the folder's base name. */
  name?: string;
}

/** Configuration accepted by `createEmbedder`. */
export type EmbedderConfig = OllamaEmbedderConfig | OpenAiEmbedderConfig | OnnxEmbedderConfig;

/** Injected effects, for tests and hosts. */
export interface EmbedderDeps {
  /** HTTP client. Default: global `fetch`. */
  fetch?: typeof fetch;
  /** Waits between retries. Default: real timers. */
  sleep?: (ms: number) => Promise<void>;
  /** Random source for jitter. Default `Math.random`. */
  random?: () => number;
  /** Where keys are read from. Default: the process's environment (`core/env.ts`). */
  env?: NodeJS.ProcessEnv;
  /**
   * Loads the ONNX runtime module. Default: `import('onnxruntime-node')` on first use. A loader
   * that rejects with `ERR_MODULE_NOT_FOUND` gives MODULE_MISSING.
   */
  loadOnnxRuntime?: () => Promise<unknown>;
}
