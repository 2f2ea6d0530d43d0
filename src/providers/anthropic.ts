/**
 * @module providers/anthropic
 * Anthropic Messages API: `POST {base}/v1/messages` with `x-api-key` and `anthropic-version`.
 */
import { chatProvider, field, type ProviderRuntime } from './common.js';
import type { LlmProvider } from './types.js';

/** The API version header value sent with every request. */
const ANTHROPIC_VERSION = '2023-06-01';

/** An {@link LlmProvider} speaking the Anthropic Messages API. */
export function anthropicProvider(rt: ProviderRuntime): LlmProvider {
  return chatProvider(rt, {
    name: 'anthropic',
    path: '/v1/messages',
    headers: { 'x-api-key': rt.apiKey ?? '', 'anthropic-version': ANTHROPIC_VERSION },
    body: (r) => ({
      model: rt.model,
      max_tokens: r.maxTokens,
      ...(r.system !== undefined ? { system: r.system } : {}),
      messages: r.messages.map((m) => ({ role: m.role, content: m.content })),
      temperature: r.temperature,
    }),
    parse(json) {
      const content = field(json, 'content');
      if (!Array.isArray(content)) return undefined;
      const usage = field(json, 'usage');
      return {
        // Text blocks joined; thinking and tool-use blocks are not part of the answer text.
        text: content
          .filter((b) => field(b, 'type') === 'text' && typeof field(b, 'text') === 'string')
          .map((b) => field(b, 'text') as string)
          .join(''),
        model: field(json, 'model'),
        inputTokens: field(usage, 'input_tokens'),
        outputTokens: field(usage, 'output_tokens'),
        stopReason: field(json, 'stop_reason'),
      };
    },
  });
}
