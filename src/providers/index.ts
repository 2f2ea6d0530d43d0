/**
 * @module providers
 * The LLM provider port and its three protocols (Anthropic Messages, OpenAI-compatible chat
 * completions, Ollama chat), plus the JSON-over-HTTP transport that the HTTP embedders share.
 * This file is the only door into `src/providers/`.
 */
export type {
  AgentMessage,
  ChatMessage,
  ContentBlock,
  StreamEvent,
  StreamRequest,
  SystemPart,
  TextBlock,
  TokenUsage,
  ToolResultBlock,
  ToolSpec,
  ToolUseBlock,
  CompleteRequest,
  CompleteResult,
  LlmProvider,
  StreamingLlmProvider,
  ProviderConfig,
  ProviderDeps,
  ProviderName,
} from './types.js';
export { createLlmProvider, providerFromEnv, PROVIDER_DEFAULTS } from './create.js';

export { DEFAULT_TIMEOUT_MS, field } from './common.js';
export {
  postJson,
  httpEffects,
  endpoint,
  errorReason,
  retryAfterMs,
  backoffMs,
  isHttpStatus,
  DEFAULT_RETRY,
  type RetryPolicy,
  type HttpEffects,
  type JsonCall,
} from './http.js';
