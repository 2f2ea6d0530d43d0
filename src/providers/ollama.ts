/**
 * @module providers/ollama
 * Ollama chat: `POST {base}/api/chat`. No key; default base `http://127.0.0.1:11434`.
 * `complete()` sends `stream: false`; `stream()` reads the NDJSON lines of `stream: true`
 * (`message.content` pieces, whole `message.tool_calls`, a last line with `done: true` and counts).
 */
import { randomUUID } from 'node:crypto';
import { chatProvider, field, withSystemMessage, type ProviderRuntime } from './common.js';
import { chatMessages, functionTools } from './openai.js';
import {
  countOf,
  normaliseStream,
  parseChunk,
  streamError,
  openStream,
  truncatedStream,
  TurnAssembler,
} from './stream.js';
import type { StreamEvent, StreamRequest, StreamingLlmProvider } from './types.js';

/** An {@link StreamingLlmProvider} speaking Ollama's `/api/chat`. */
export function ollamaProvider(rt: ProviderRuntime): StreamingLlmProvider {
  const base = chatProvider(rt, {
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
  return { ...base, stream: (req) => ollamaStream(rt, req) };
}

/** One streamed turn over `/api/chat`. Ollama's tool calls carry no id: one is made up per call. */
async function* ollamaStream(rt: ProviderRuntime, req: StreamRequest): AsyncGenerator<StreamEvent> {
  const r = normaliseStream(req, rt);
  const tools = functionTools(r);
  const { url, lines } = openStream(rt, 'ollama', '/api/chat', {}, r, {
    model: rt.model,
    messages: chatMessages(r, true),
    ...(tools.length > 0 ? { tools } : {}),
    stream: true,
    options: { temperature: r.temperature, num_predict: r.maxTokens },
  });
  const turn = new TurnAssembler();
  let model = rt.model;
  for await (const line of lines) {
    if (line.trim() === '') continue;
    const data = parseChunk(line, 'ollama', url);
    const err = field(data, 'error');
    if (err !== undefined) throw streamError('ollama', url, String(err));
    if (typeof field(data, 'model') === 'string') model = field(data, 'model') as string;
    const msg = field(data, 'message');
    const content = field(msg, 'content');
    if (typeof content === 'string' && content !== '') yield turn.text(content);
    const calls = field(msg, 'tool_calls');
    if (Array.isArray(calls)) {
      for (const c of calls) {
        const fn = field(c, 'function');
        const args = field(fn, 'arguments');
        const input = args !== null && typeof args === 'object' && !Array.isArray(args) ? args : {};
        yield turn.toolUse({
          type: 'tool_use',
          id: `call_${randomUUID().slice(0, 8)}`,
          name: String(field(fn, 'name') ?? ''),
          input: input as Record<string, unknown>,
        });
      }
    }
    if (field(data, 'done') === true) {
      const reason = field(data, 'done_reason');
      yield turn.done(
        model,
        {
          inputTokens: countOf(field(data, 'prompt_eval_count')),
          outputTokens: countOf(field(data, 'eval_count')),
          cacheReadTokens: 0,
          cacheCreationTokens: 0,
        },
        typeof reason === 'string' ? reason : undefined,
      );
      return;
    }
  }
  throw truncatedStream('ollama', url);
}
