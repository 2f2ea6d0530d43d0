/**
 * @module providers/openai
 * OpenAI-compatible chat completions: `POST {base}/v1/chat/completions` with `Authorization: Bearer`.
 * Works with api.openai.com and with local servers that speak the same protocol (llama.cpp's
 * `llama-server`, vLLM, LM Studio), which usually need no key.
 */
import { chatProvider, field, withSystemMessage, type ProviderRuntime } from './common.js';
import type { LlmProvider } from './types.js';

/** An {@link LlmProvider} speaking the OpenAI chat-completions protocol. */
export function openaiProvider(rt: ProviderRuntime): LlmProvider {
  return chatProvider(rt, {
    name: 'openai',
    path: '/v1/chat/completions',
    headers: rt.apiKey ? { authorization: `Bearer ${rt.apiKey}` } : {},
    body: (r) => ({
      model: rt.model,
      messages: withSystemMessage(r),
      max_tokens: r.maxTokens,
      temperature: r.temperature,
    }),
    parse(json) {
      const choices = field(json, 'choices');
      const first: unknown = Array.isArray(choices) ? choices[0] : undefined;
      if (first === undefined) return undefined;
      const content = field(field(first, 'message'), 'content');
      const usage = field(json, 'usage');
      return {
        text: typeof content === 'string' ? content : '', // null when the model only called tools
        model: field(json, 'model'),
        inputTokens: field(usage, 'prompt_tokens'),
        outputTokens: field(usage, 'completion_tokens'),
        stopReason: field(first, 'finish_reason'),
      };
    },
  });
}
