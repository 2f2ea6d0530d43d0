/**
 * @module providers/types
 * The LLM provider port: one `complete()` call over Anthropic, OpenAI-compatible or Ollama servers.
 */

/** One turn of a conversation sent to a model. The system prompt travels separately. */
export interface ChatMessage {
  /** Who spoke. */
  role: 'user' | 'assistant';
  /** Plain text of the turn. */
  content: string;
}

/** One completion request. */
export interface CompleteRequest {
  /** System prompt. Default: none. */
  system?: string;
  /** The conversation, oldest first; must not be empty. */
  messages: ChatMessage[];
  /** Upper bound on generated tokens. Default 512; 1 … 1,000,000. */
  maxTokens?: number;
  /** Sampling temperature. Default 0 (deterministic as the server allows); 0 … 2. */
  temperature?: number;
  /** Cancels the call; cancellation raises `ABORTED` and is never retried. */
  signal?: AbortSignal;
  /**
   * Total time allowed for the call, retries and back-off included, in ms. Default: the
   * provider's `timeoutMs` (20,000 unless configured); 1 … 600,000. Expiry raises `TIMEOUT`.
   */
  timeoutMs?: number;
}

/** What a model answered. */
export interface CompleteResult {
  /** The generated text (text blocks joined; `''` when the model produced none). */
  text: string;
  /** The model that answered, as the server reports it (falls back to the configured model). */
  model: string;
  /** Token counts, when the server reports them. */
  usage?: { inputTokens: number; outputTokens: number };
  /** Why generation stopped, verbatim from the server (`end_turn`, `stop`, `length`, `max_tokens` …). */
  stopReason?: string;
}

/** Names of the supported provider protocols. */
export type ProviderName = 'anthropic' | 'openai' | 'ollama';

/** A chat model behind one protocol. Implementations are stateless and safe to share. */
export interface LlmProvider {
  /** The protocol spoken. */
  readonly name: ProviderName;
  /** The model requested on every call. */
  readonly model: string;
  /**
   * Sends one request. Throws `LociError` with code `PROVIDER_FAILED` (HTTP or protocol error,
   * after retries), `TIMEOUT`, `ABORTED` or `INVALID_ARGUMENT` (empty `messages`).
   */
  complete(req: CompleteRequest): Promise<CompleteResult>;
}

/** How to reach a provider. */
export interface ProviderConfig {
  /** Which protocol to speak. */
  provider: ProviderName;
  /**
   * Model name. Defaults: anthropic `claude-haiku-4-5`, openai `gpt-4o-mini`, ollama `llama3.2`.
   */
  model?: string;
  /**
   * Server root, without the `/v1` or `/api` path (a trailing `/v1` is tolerated).
   * Defaults: `https://api.anthropic.com`, `https://api.openai.com`, `http://127.0.0.1:11434`.
   */
  baseUrl?: string;
  /**
   * API key. Default: from the environment — `LOCI_LLM_API_KEY`, then `ANTHROPIC_API_KEY` /
   * `OPENAI_API_KEY`. Required for anthropic and for openai at `api.openai.com`; optional for
   * other OpenAI-compatible servers (llama.cpp, vLLM, LM Studio); ignored by ollama.
   */
  apiKey?: string;
  /** Default total timeout per call in ms (see {@link CompleteRequest.timeoutMs}). Default 20,000. */
  timeoutMs?: number;
  /** Retries after a 429, a 5xx or a network error. Default 2; 0 … 10. */
  maxRetries?: number;
  /** First back-off delay in ms, doubled per retry, with jitter. Default 500; 0 … 60,000. */
  retryBaseMs?: number;
  /** Cap on one back-off delay, `retry-after` included, in ms. Default 8,000; 0 … 600,000. */
  retryMaxMs?: number;
  /** Extra headers sent with every request (e.g. a proxy's auth). Default none. */
  headers?: Record<string, string>;
}

/** Injected effects, for tests and embedding hosts. */
export interface ProviderDeps {
  /** HTTP client. Default: the global `fetch`. */
  fetch?: typeof fetch;
  /** Waits between retries. Default: a timer that also stops when the call is aborted. */
  sleep?: (ms: number) => Promise<void>;
  /** Where API keys are read from. Default: the process's environment (`core/env.ts`). */
  env?: NodeJS.ProcessEnv;
  /** Random source in [0, 1) for back-off jitter. Default: `Math.random`. */
  random?: () => number;
}
