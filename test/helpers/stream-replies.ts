/**
 * @module test/helpers/stream-replies
 * Scripted streamed answers in the providers' real wire protocols, for the loopback server
 * (`loopback.ts`) and the benches: Anthropic Messages server-sent events (`message_start`,
 * `content_block_*` with `text_delta` and `input_json_delta`, `message_delta`, `message_stop`,
 * `error`), OpenAI-compatible chat-completion chunks (`delta.content`, `delta.tool_calls` by index,
 * a usage chunk, `[DONE]`) and Ollama's NDJSON lines. One protocol-neutral {@link ScriptedTurn}
 * describes the answer; {@link streamReply} encodes it for a route. Text and tool arguments are cut
 * into small pieces so clients must reassemble them.
 */
import type { Reply, Route } from './loopback.js';

/** One tool call in a scripted answer. */
export interface ScriptedToolCall {
  /** Call id (Anthropic `toolu_…`, OpenAI `call_…`). Default: made from the name and position. */
  id?: string;
  name: string;
  input: Record<string, unknown>;
}

/** A protocol-neutral scripted answer. */
export interface ScriptedTurn {
  /** The answer text (streamed in pieces of `pieceChars`). Default ''. */
  text?: string;
  /** Tool calls after the text. Default none. */
  toolCalls?: ScriptedToolCall[];
  /** Token figures reported. Defaults: input 100, output 20, cache 0. */
  usage?: { input?: number; output?: number; cacheRead?: number; cacheCreation?: number };
  /** Stop reason. Default: tool use when there are tool calls, else end of turn (per protocol). */
  stopReason?: string;
  /** Model reported. Default `loopback-model`. */
  model?: string;
  /** An error event sent after the text instead of finishing. */
  error?: string;
  /** End the stream without its closing event (a truncated answer). */
  truncate?: boolean;
  /** Keep the connection open after the last chunk (for idle timeouts). */
  hang?: boolean;
  /** Characters per text delta. Default 4. */
  pieceChars?: number;
}

/** The chat routes, one per protocol. */
export type ChatRoute = Extract<Route, 'anthropic.messages' | 'openai.chat' | 'ollama.chat'>;

function pieces(s: string, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += n) out.push(s.slice(i, i + n));
  return out;
}

const sse = (event: string | undefined, data: unknown): string =>
  `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

function callId(prefix: string, c: ScriptedToolCall, i: number): string {
  return c.id ?? `${prefix}${c.name}_${i}`;
}

/** Anthropic Messages SSE for `turn`. */
export function anthropicSse(turn: ScriptedTurn): string[] {
  const u = turn.usage ?? {};
  const n = turn.pieceChars ?? 4;
  const calls = turn.toolCalls ?? [];
  const out = [
    sse('message_start', {
      type: 'message_start',
      message: {
        id: 'msg_loopback',
        type: 'message',
        role: 'assistant',
        model: turn.model ?? 'loopback-model',
        content: [],
        stop_reason: null,
        usage: {
          input_tokens: u.input ?? 100,
          cache_creation_input_tokens: u.cacheCreation ?? 0,
          cache_read_input_tokens: u.cacheRead ?? 0,
          output_tokens: 1,
        },
      },
    }),
    sse('ping', { type: 'ping' }),
  ];
  let index = 0;
  if (turn.text) {
    out.push(
      sse('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }),
    );
    for (const p of pieces(turn.text, n)) {
      out.push(
        sse('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: p } }),
      );
    }
    out.push(sse('content_block_stop', { type: 'content_block_stop', index }));
    index++;
  }
  if (turn.error)
    return [...out, sse('error', { type: 'error', error: { type: 'overloaded_error', message: turn.error } })];
  calls.forEach((c, i) => {
    const block = { type: 'tool_use', id: callId('toolu_', c, i), name: c.name, input: {} };
    out.push(sse('content_block_start', { type: 'content_block_start', index, content_block: block }));
    for (const p of pieces(JSON.stringify(c.input), 7)) {
      const delta = { type: 'input_json_delta', partial_json: p };
      out.push(sse('content_block_delta', { type: 'content_block_delta', index, delta }));
    }
    out.push(sse('content_block_stop', { type: 'content_block_stop', index }));
    index++;
  });
  if (turn.truncate) return out;
  const stop = turn.stopReason ?? (calls.length > 0 ? 'tool_use' : 'end_turn');
  out.push(
    sse('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: stop, stop_sequence: null },
      usage: { output_tokens: u.output ?? 20 },
    }),
    sse('message_stop', { type: 'message_stop' }),
  );
  return out;
}

/** OpenAI-compatible chat-completion SSE chunks for `turn` (with the usage chunk). */
export function openaiSse(turn: ScriptedTurn): string[] {
  const u = turn.usage ?? {};
  const n = turn.pieceChars ?? 4;
  const calls = turn.toolCalls ?? [];
  const model = turn.model ?? 'loopback-model';
  const chunk = (delta: unknown, finish: string | null = null) =>
    sse(undefined, {
      id: 'chatcmpl-loopback',
      object: 'chat.completion.chunk',
      created: 1_760_000_000,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
  const out = [chunk({ role: 'assistant', content: '' })];
  for (const p of pieces(turn.text ?? '', n)) out.push(chunk({ content: p }));
  if (turn.error) return [...out, sse(undefined, { error: { message: turn.error, type: 'server_error' } })];
  calls.forEach((c, i) => {
    const args = pieces(JSON.stringify(c.input), 7);
    const head = { index: i, id: callId('call_', c, i), type: 'function', function: { name: c.name, arguments: '' } };
    out.push(chunk({ tool_calls: [head] }));
    for (const a of args) out.push(chunk({ tool_calls: [{ index: i, function: { arguments: a } }] }));
  });
  if (turn.truncate) return out;
  out.push(chunk({}, turn.stopReason ?? (calls.length > 0 ? 'tool_calls' : 'stop')));
  const cached = u.cacheRead ?? 0;
  out.push(
    sse(undefined, {
      id: 'chatcmpl-loopback',
      object: 'chat.completion.chunk',
      created: 1_760_000_000,
      model,
      choices: [],
      usage: {
        prompt_tokens: (u.input ?? 100) + cached,
        completion_tokens: u.output ?? 20,
        total_tokens: (u.input ?? 100) + cached + (u.output ?? 20),
        prompt_tokens_details: { cached_tokens: cached },
      },
    }),
    sse(undefined, '[DONE]'),
  );
  return out;
}

/** Ollama `/api/chat` NDJSON lines for `turn`. */
export function ollamaNdjson(turn: ScriptedTurn): string[] {
  const u = turn.usage ?? {};
  const n = turn.pieceChars ?? 4;
  const model = turn.model ?? 'loopback-model';
  const at = '2026-01-01T00:00:00Z';
  const line = (o: unknown) => `${JSON.stringify(o)}\n`;
  const out = pieces(turn.text ?? '', n).map((p) =>
    line({ model, created_at: at, message: { role: 'assistant', content: p }, done: false }),
  );
  if (turn.error) return [...out, line({ error: turn.error })];
  const calls = turn.toolCalls ?? [];
  if (calls.length > 0) {
    const tool_calls = calls.map((c) => ({ function: { name: c.name, arguments: c.input } }));
    out.push(line({ model, created_at: at, message: { role: 'assistant', content: '', tool_calls }, done: false }));
  }
  if (turn.truncate) return out;
  out.push(
    line({
      model,
      created_at: at,
      message: { role: 'assistant', content: '' },
      done: true,
      done_reason: turn.stopReason ?? 'stop',
      total_duration: 1,
      prompt_eval_count: u.input ?? 100,
      eval_count: u.output ?? 20,
    }),
  );
  return out;
}

/** `turn` encoded as a streamed reply for `route`. */
export function streamReply(route: ChatRoute, turn: ScriptedTurn): Reply {
  const chunks =
    route === 'anthropic.messages'
      ? anthropicSse(turn)
      : route === 'openai.chat'
        ? openaiSse(turn)
        : ollamaNdjson(turn);
  const headers = { 'content-type': route === 'ollama.chat' ? 'application/x-ndjson' : 'text/event-stream' };
  return { headers, chunks, ...(turn.hang ? { then: 'hang' as const } : {}) };
}

/** A rate-limit answer (HTTP 429 with `retry-after` in seconds) in the route's error shape. */
export function rateLimited(route: ChatRoute, retryAfterSeconds: number): Reply {
  const body =
    route === 'anthropic.messages'
      ? { type: 'error', error: { type: 'rate_limit_error', message: 'rate limited (loopback)' } }
      : route === 'openai.chat'
        ? { error: { message: 'Rate limit reached (loopback)', type: 'requests', code: 'rate_limit_exceeded' } }
        : { error: 'rate limited (loopback)' };
  return { status: 429, headers: { 'retry-after': String(retryAfterSeconds) }, body };
}
