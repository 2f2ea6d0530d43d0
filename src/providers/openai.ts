/**
 * @module providers/openai
 * OpenAI-compatible chat completions: `POST {base}/v1/chat/completions` with `Authorization: Bearer`.
 * Works with api.openai.com and with local servers that speak the same protocol (llama.cpp's
 * `llama-server`, vLLM, LM Studio), which usually need no key. `stream()` reads the SSE chunks
 * (`delta.content`, `delta.tool_calls` pieces by index, a last chunk with `usage` asked for through
 * `stream_options.include_usage`, then `data: [DONE]`).
 */
import { chatProvider, field, withSystemMessage, type ProviderRuntime } from './common.js';
import {
  countOf,
  normaliseStream,
  parseChunk,
  sseEvents,
  streamError,
  openStream,
  systemText,
  textOf,
  toolInput,
  toolUsesOf,
  truncatedStream,
  TurnAssembler,
  type NormalisedStream,
} from './stream.js';
import type { StreamEvent, StreamRequest, StreamingLlmProvider, TokenUsage } from './types.js';

/** An {@link StreamingLlmProvider} speaking the OpenAI chat-completions protocol. */
export function openaiProvider(rt: ProviderRuntime): StreamingLlmProvider {
  const headers: Record<string, string> = rt.apiKey ? { authorization: `Bearer ${rt.apiKey}` } : {};
  const base = chatProvider(rt, {
    name: 'openai',
    path: '/v1/chat/completions',
    headers,
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
  return { ...base, stream: (req) => openaiStream(rt, headers, req) };
}

/**
 * Agent messages in the chat-completions shape: a leading system message, assistant tool calls as
 * `tool_calls` (arguments as a JSON string), each tool result as a `tool` message. Shared with Ollama,
 * which differs in `arguments` (an object) and in naming the tool instead of the call id.
 */
export function chatMessages(r: NormalisedStream, ollama = false): unknown[] {
  const system = systemText(r);
  const out: unknown[] = system !== undefined ? [{ role: 'system', content: system }] : [];
  const names = new Map<string, string>();
  for (const m of r.messages) {
    if (m.role === 'assistant') {
      const calls = toolUsesOf(m.content);
      for (const c of calls) names.set(c.id, c.name);
      const text = textOf(m.content);
      out.push({
        role: 'assistant',
        content: calls.length > 0 && text === '' && !ollama ? null : text,
        ...(calls.length > 0
          ? {
              tool_calls: calls.map((c) =>
                ollama
                  ? { function: { name: c.name, arguments: c.input } }
                  : { id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.input) } },
              ),
            }
          : {}),
      });
      continue;
    }
    if (typeof m.content === 'string') {
      out.push({ role: 'user', content: m.content });
      continue;
    }
    for (const b of m.content) {
      if (b.type !== 'tool_result') continue;
      const content = b.isError ? `Error: ${b.content}` : b.content;
      out.push(
        ollama
          ? { role: 'tool', content, tool_name: names.get(b.toolUseId) ?? '' }
          : { role: 'tool', tool_call_id: b.toolUseId, content },
      );
    }
    // Separate text blocks (injected memories, then the prompt) stay separate paragraphs.
    const text = textOf(m.content, '\n\n');
    if (text !== '') out.push({ role: 'user', content: text });
  }
  return out;
}

/** Tools in the `{type: 'function', function: {name, description, parameters}}` shape. */
export function functionTools(r: NormalisedStream): unknown[] {
  return r.tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.inputSchema },
  }));
}

/** One streamed turn over chat completions. */
async function* openaiStream(
  rt: ProviderRuntime,
  headers: Record<string, string>,
  req: StreamRequest,
): AsyncGenerator<StreamEvent> {
  const r = normaliseStream(req, rt);
  const tools = functionTools(r);
  const { url, lines } = openStream(rt, 'openai', '/v1/chat/completions', headers, r, {
    model: rt.model,
    messages: chatMessages(r),
    ...(tools.length > 0 ? { tools } : {}),
    max_tokens: r.maxTokens,
    temperature: r.temperature,
    stream: true,
    stream_options: { include_usage: true },
  });
  const turn = new TurnAssembler();
  let model = rt.model;
  let usage: TokenUsage | undefined;
  let stopReason: string | undefined;
  const calls = new Map<number, { id: string; name: string; json: string }>();
  const flushCalls = function* (): Generator<StreamEvent> {
    for (const [, c] of [...calls].sort((a, b) => a[0] - b[0])) {
      yield turn.toolUse({ type: 'tool_use', id: c.id, name: c.name, input: toolInput(c.json, 'openai', url, c.name) });
    }
    calls.clear();
  };
  for await (const ev of sseEvents(lines)) {
    if (ev.data.trim() === '[DONE]') {
      yield* flushCalls();
      yield turn.done(model, usage, stopReason);
      return;
    }
    const data = parseChunk(ev.data, 'openai', url);
    const err = field(data, 'error');
    if (err !== undefined) {
      throw streamError('openai', url, typeof err === 'string' ? err : String(field(err, 'message') ?? ev.data));
    }
    if (typeof field(data, 'model') === 'string' && field(data, 'model') !== '') model = field(data, 'model') as string;
    const u = field(data, 'usage');
    if (u !== undefined && u !== null) {
      const cached = countOf(field(field(u, 'prompt_tokens_details'), 'cached_tokens'));
      usage = {
        inputTokens: Math.max(0, countOf(field(u, 'prompt_tokens')) - cached),
        outputTokens: countOf(field(u, 'completion_tokens')),
        cacheReadTokens: cached,
        cacheCreationTokens: 0,
      };
    }
    const choices = field(data, 'choices');
    const choice: unknown = Array.isArray(choices) ? choices[0] : undefined;
    if (choice === undefined) continue;
    const delta = field(choice, 'delta');
    const content = field(delta, 'content');
    if (typeof content === 'string' && content !== '') yield turn.text(content);
    const toolCalls = field(delta, 'tool_calls');
    if (Array.isArray(toolCalls)) {
      for (const tc of toolCalls) {
        let index = countOf(field(tc, 'index'));
        const id = field(tc, 'id');
        // Servers that omit `index` start each new call with a new id.
        if (
          field(tc, 'index') === undefined &&
          typeof id === 'string' &&
          calls.get(index)?.id &&
          calls.get(index)?.id !== id
        ) {
          index = calls.size;
        }
        const c = calls.get(index) ?? { id: '', name: '', json: '' };
        const fn = field(tc, 'function');
        if (typeof field(tc, 'id') === 'string') c.id = field(tc, 'id') as string;
        if (typeof field(fn, 'name') === 'string') c.name += field(fn, 'name') as string;
        if (typeof field(fn, 'arguments') === 'string') c.json += field(fn, 'arguments') as string;
        calls.set(index, c);
      }
    }
    const finish = field(choice, 'finish_reason');
    if (typeof finish === 'string') {
      stopReason = finish;
      yield* flushCalls();
    }
  }
  throw truncatedStream('openai', url);
}
