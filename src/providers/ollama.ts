/**
 * @module providers/ollama
 * Ollama chat: `POST {base}/api/chat` with `stream: false`. No key; default base
 * `http://127.0.0.1:11434`.
 */
import { chatProvider, field, withSystemMessage, type ProviderRuntime } from './common.js';
import type { LlmProvider } from './types.js';

/** An {@link LlmProvider} speaking Ollama's `/api/chat`. */
export function ollamaProvider(rt: ProviderRuntime): LlmProvider {
  return chatProvider(rt, {
    name: 'ollama',
    path: '/api/chat',
    headers: {},
    body: (r) => ({
      model: rt.model,
      messages: withSystemMessage(r),
      stream: false,
      options: { temperature: r.temperature, num_predict: r.maxTokens },
    }),
    parse(json) {
      const content = field(field(json, 'message'), 'content');
      if (typeof content !== 'string') return undefined;
      return {
        text: content,
        model: field(json, 'model'),
        inputTokens: field(json, 'prompt_eval_count'),
        outputTokens: field(json, 'eval_count'),
        stopReason: field(json, 'done_reason'),
      };
    },
  });
}
