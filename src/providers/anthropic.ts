/**
 * @module providers/anthropic
 * Anthropic Messages API: `POST {base}/v1/messages` with `x-api-key` and `anthropic-version`.
 * `complete()` sends one request; `stream()` reads the server-sent events (`message_start`,
 * `content_block_*` with `text_delta` / `input_json_delta`, `message_delta`, `message_stop`, `error`)
 * and sends tools, tool results and `cache_control` breakpoints on system parts.
 */
import { chatProvider, field, type ProviderRuntime } from './common.js';
import {
  countOf,
  normaliseStream,
  parseChunk,
  sseEvents,
  streamError,
  openStream,
  toolInput,
  truncatedStream,
  TurnAssembler,
  type NormalisedStream,
} from './stream.js';
import type { AgentMessage, StreamEvent, StreamRequest, StreamingLlmProvider, TokenUsage } from './types.js';

/** The API version header value sent with every request. */
const ANTHROPIC_VERSION = '2023-06-01';

/** An {@link StreamingLlmProvider} speaking the Anthropic Messages API. */
export function anthropicProvider(rt: ProviderRuntime): StreamingLlmProvider {
  const headers = { 'x-api-key': rt.apiKey ?? '', 'anthropic-version': ANTHROPIC_VERSION };
  const base = chatProvider(rt, {
    name: 'anthropic',
    path: '/v1/messages',
    headers,
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
  return { ...base, stream: (req) => anthropicStream(rt, headers, req) };
}

/** A message in the Messages API shape (content blocks with snake_case fields). */
function wireMessage(m: AgentMessage): unknown {
  if (typeof m.content === 'string') return { role: m.role, content: m.content };
  return {
    role: m.role,
    content: m.content.map((b) => {
      if (b.type === 'text') return { type: 'text', text: b.text };
      if (b.type === 'tool_use') return { type: 'tool_use', id: b.id, name: b.name, input: b.input };
      return {
        type: 'tool_result',
        tool_use_id: b.toolUseId,
        content: b.content,
        ...(b.isError ? { is_error: true } : {}),
      };
    }),
  };
}

/** The streamed request body: system parts with `cache_control` where marked, tools in Anthropic's shape. */
function streamBody(model: string, r: NormalisedStream): unknown {
  return {
    model,
    max_tokens: r.maxTokens,
    ...(r.system.length > 0
      ? {
          system: r.system.map((p) => ({
            type: 'text',
            text: p.text,
            ...(p.cache ? { cache_control: { type: 'ephemeral' } } : {}),
          })),
        }
      : {}),
    messages: r.messages.map(wireMessage),
    ...(r.tools.length > 0
      ? { tools: r.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema })) }
      : {}),
    temperature: r.temperature,
    stream: true,
  };
}

/** One streamed turn over the Messages API. */
async function* anthropicStream(
  rt: ProviderRuntime,
  headers: Record<string, string>,
  req: StreamRequest,
): AsyncGenerator<StreamEvent> {
  const r = normaliseStream(req, rt);
  const { url, lines } = openStream(rt, 'anthropic', '/v1/messages', headers, r, streamBody(rt.model, r));
  const turn = new TurnAssembler();
  let model = rt.model;
  const usage: TokenUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheCreationTokens: 0 };
  let sawUsage = false;
  let stopReason: string | undefined;
  const tools = new Map<number, { id: string; name: string; json: string }>();
  for await (const ev of sseEvents(lines)) {
    const data = parseChunk(ev.data, 'anthropic', url);
    const type = field(data, 'type') ?? ev.event;
    if (type === 'message_start') {
      const msg = field(data, 'message');
      if (typeof field(msg, 'model') === 'string') model = field(msg, 'model') as string;
      const u = field(msg, 'usage');
      if (u !== undefined) {
        sawUsage = true;
        usage.inputTokens = countOf(field(u, 'input_tokens'));
        usage.outputTokens = countOf(field(u, 'output_tokens'));
        usage.cacheReadTokens = countOf(field(u, 'cache_read_input_tokens'));
        usage.cacheCreationTokens = countOf(field(u, 'cache_creation_input_tokens'));
      }
    } else if (type === 'content_block_start') {
      const block = field(data, 'content_block');
      const index = countOf(field(data, 'index'));
      if (field(block, 'type') === 'tool_use') {
        tools.set(index, { id: String(field(block, 'id')), name: String(field(block, 'name')), json: '' });
      } else if (field(block, 'type') === 'text' && typeof field(block, 'text') === 'string' && field(block, 'text')) {
        yield turn.text(field(block, 'text') as string);
      }
    } else if (type === 'content_block_delta') {
      const delta = field(data, 'delta');
      const kind = field(delta, 'type');
      if (kind === 'text_delta' && typeof field(delta, 'text') === 'string') {
        yield turn.text(field(delta, 'text') as string);
      } else if (kind === 'input_json_delta') {
        const t = tools.get(countOf(field(data, 'index')));
        if (t) t.json += String(field(delta, 'partial_json') ?? '');
      }
    } else if (type === 'content_block_stop') {
      const index = countOf(field(data, 'index'));
      const t = tools.get(index);
      if (t) {
        tools.delete(index);
        const input = toolInput(t.json, 'anthropic', url, t.name);
        yield turn.toolUse({ type: 'tool_use', id: t.id, name: t.name, input });
      }
    } else if (type === 'message_delta') {
      const reason = field(field(data, 'delta'), 'stop_reason');
      if (typeof reason === 'string') stopReason = reason;
      const u = field(data, 'usage');
      if (u !== undefined) {
        sawUsage = true;
        usage.outputTokens = countOf(field(u, 'output_tokens'));
        // Newer servers repeat the input and cache figures here (cumulative); take them when present.
        if (field(u, 'input_tokens') !== undefined) usage.inputTokens = countOf(field(u, 'input_tokens'));
        if (field(u, 'cache_read_input_tokens') !== undefined) {
          usage.cacheReadTokens = countOf(field(u, 'cache_read_input_tokens'));
        }
        if (field(u, 'cache_creation_input_tokens') !== undefined) {
          usage.cacheCreationTokens = countOf(field(u, 'cache_creation_input_tokens'));
        }
      }
    } else if (type === 'message_stop') {
      yield turn.done(model, sawUsage ? usage : undefined, stopReason);
      return;
    } else if (type === 'error') {
      const e = field(data, 'error');
      const reason = `${String(field(e, 'type') ?? 'error')}: ${String(field(e, 'message') ?? ev.data)}`;
      throw streamError('anthropic', url, reason);
    }
  }
  throw truncatedStream('anthropic', url);
}
