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

/**
 * A provider that also streams agent turns with tool use (every provider `createLlmProvider` builds).
 * `stream()` throws, from the iterator, the errors `complete()` throws; retries (429, 5xx, network)
 * happen only before the first byte, and `timeoutMs` also bounds each silence inside the stream.
 */
export interface StreamingLlmProvider extends LlmProvider {
  /** Streams one model call: text deltas, whole tool calls, then one `done` (see {@link StreamEvent}). */
  stream(req: StreamRequest): AsyncIterable<StreamEvent>;
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

// ── agent turns: content blocks, tools and streaming (shared by `context`, the agent loop and `loci chat`) ──

/** Plain text in a turn. */
export interface TextBlock {
  type: 'text';
  text: string;
}

/** The model asks for a tool to be run. `id` is the provider's call id, echoed by the result. */
export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  /** The tool's arguments, as parsed JSON. */
  input: Record<string, unknown>;
}

/** What a tool returned, sent back in a user turn. */
export interface ToolResultBlock {
  type: 'tool_result';
  /** The `id` of the {@link ToolUseBlock} this answers. */
  toolUseId: string;
  /** The result as the model sees it (a preview plus a path when the full output was persisted). */
  content: string;
  /** True when the tool failed; the content is then the error message. */
  isError?: boolean;
}

/** One piece of an agent turn. */
export type ContentBlock = TextBlock | ToolUseBlock | ToolResultBlock;

/**
 * One turn of an agent conversation: plain text or content blocks. Tool uses appear only in
 * assistant turns, tool results only in user turns. The system prompt travels separately.
 */
export interface AgentMessage {
  role: 'user' | 'assistant';
  content: string | ContentBlock[];
}

/** A tool the model may call: its name, what it does and a JSON Schema of its input object. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/**
 * Token counts as the provider reports them. Absent figures are 0. `cacheReadTokens` and
 * `cacheCreationTokens` are Anthropic's prompt-cache counts (OpenAI's cached tokens map to reads).
 * `inputTokens` is the uncached input, as Anthropic counts it (for OpenAI: `prompt_tokens` minus the
 * cached tokens), so the whole prompt is `inputTokens + cacheReadTokens + cacheCreationTokens`.
 */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheCreationTokens: number;
}

/**
 * A system prompt in parts. `cache: true` on a part marks a cache breakpoint after it (Anthropic's
 * `cache_control: {type: 'ephemeral'}`); providers without prompt caching join the parts as text.
 */
export interface SystemPart {
  text: string;
  cache?: boolean;
}

/** One streamed agent turn request. */
export interface StreamRequest {
  /** System prompt: plain text or parts with cache breakpoints. Default: none. */
  system?: string | SystemPart[];
  /** The conversation, oldest first; must not be empty. */
  messages: AgentMessage[];
  /** Tools the model may call. Default: none. */
  tools?: ToolSpec[];
  /** Upper bound on generated tokens. Default 4,096; 1 … 1,000,000. */
  maxTokens?: number;
  /** Sampling temperature. Default 0; 0 … 2. */
  temperature?: number;
  /** Cancels the call; cancellation raises `ABORTED`. */
  signal?: AbortSignal;
  /** Total time allowed before the first byte, retries included, in ms. Default: the provider's. */
  timeoutMs?: number;
}

/**
 * What a streamed turn yields, in order: `text` deltas and whole `tool_use` blocks as they
 * complete, then exactly one `done` with the assembled assistant message, usage and stop reason.
 */
export type StreamEvent =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; block: ToolUseBlock }
  | { type: 'done'; message: AgentMessage; usage?: TokenUsage; stopReason?: string; model: string };
