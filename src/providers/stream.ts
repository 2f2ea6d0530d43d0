/**
 * @module providers/stream
 * Streaming transport shared by the three protocols: one POST whose answer is read as it arrives.
 * Retries (429, 5xx, network errors, honouring `retry-after`) happen only before the first byte
 * of a successful answer; `timeoutMs` bounds the wait for that first byte (retries included) and
 * then every silence between two chunks. Lines are split here; SSE events and NDJSON objects are
 * parsed from them. Also the request defaults and checks of `stream()` and the assembler that
 * turns deltas into the final assistant message.
 */
import { createError, isLociError, type LociError } from '../core/errors.js';
import { field, numericOptions, type ProviderRuntime } from './common.js';
import {
  backoffMs,
  callFailed,
  endpoint,
  errorReason,
  interruption,
  networkReason,
  retryAfterMs,
  type HttpEffects,
  type JsonCall,
} from './http.js';
import type {
  AgentMessage,
  ContentBlock,
  StreamEvent,
  StreamRequest,
  SystemPart,
  TokenUsage,
  ToolSpec,
  ToolUseBlock,
} from './types.js';

/** Default `maxTokens` of a streamed turn. */
const DEFAULT_STREAM_MAX_TOKENS = 4_096;

/** A {@link StreamRequest} with defaults applied and ranges checked. */
export interface NormalisedStream {
  system: SystemPart[];
  messages: AgentMessage[];
  tools: ToolSpec[];
  maxTokens: number;
  temperature: number;
  signal: AbortSignal | undefined;
  timeoutMs: number;
}

function isBlock(b: unknown): b is ContentBlock {
  const t = field(b, 'type');
  if (t === 'text') return typeof field(b, 'text') === 'string';
  if (t === 'tool_use') return typeof field(b, 'id') === 'string' && typeof field(b, 'name') === 'string';
  if (t === 'tool_result') return typeof field(b, 'toolUseId') === 'string' && typeof field(b, 'content') === 'string';
  return false;
}

/** Applies defaults and validates a stream request; throws INVALID_ARGUMENT. */
export function normaliseStream(req: StreamRequest, rt: ProviderRuntime): NormalisedStream {
  if (!Array.isArray(req.messages) || req.messages.length === 0) {
    throw createError('INVALID_ARGUMENT', { name: 'messages', value: req.messages, expected: 'at least one message' });
  }
  for (const m of req.messages) {
    const okContent = typeof m.content === 'string' || (Array.isArray(m.content) && m.content.every(isBlock));
    if ((m.role !== 'user' && m.role !== 'assistant') || !okContent) {
      throw createError('INVALID_ARGUMENT', {
        name: 'message',
        value: m,
        expected: "{ role: 'user' | 'assistant', content: string | ContentBlock[] }",
      });
    }
  }
  const { maxTokens, temperature, timeoutMs } = numericOptions(req, rt, DEFAULT_STREAM_MAX_TOKENS);
  const system =
    req.system === undefined ? [] : typeof req.system === 'string' ? [{ text: req.system }] : [...req.system];
  return {
    system: system.filter((p) => p.text !== ''),
    messages: req.messages,
    tools: req.tools ?? [],
    maxTokens,
    temperature,
    signal: req.signal,
    timeoutMs,
  };
}

/** The system parts joined as plain text, for protocols without prompt caching. */
export function systemText(r: NormalisedStream): string | undefined {
  return r.system.length === 0 ? undefined : r.system.map((p) => p.text).join('\n\n');
}

/** The text blocks of a message's content, joined by `separator` (a string content as is). */
export function textOf(content: string | ContentBlock[], separator = ''): string {
  if (typeof content === 'string') return content;
  return content
    .filter((b): b is { type: 'text'; text: string } => b.type === 'text')
    .map((b) => b.text)
    .join(separator);
}

/** The tool-use blocks of a message's content. */
export function toolUsesOf(content: string | ContentBlock[]): ToolUseBlock[] {
  return typeof content === 'string' ? [] : content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
}

/**
 * Opens a streamed POST and yields its body line by line (without line ends).
 * Throws PROVIDER_FAILED (HTTP status in details), TIMEOUT or ABORTED.
 */
async function* streamLines(call: JsonCall, fx: HttpEffects): AsyncGenerator<string> {
  const started = Date.now();
  const ac = new AbortController();
  const signal = call.signal ? AbortSignal.any([call.signal, ac.signal]) : ac.signal;
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(
      () => {
        timedOut = true;
        ac.abort();
      },
      Math.max(1, ms),
    );
  };
  const interrupted = () => interruption(call, timedOut);
  const failed = (reason: string, status?: number, cause?: unknown) => callFailed(call, reason, status, cause);

  arm(call.timeoutMs);
  let res: Response | undefined;
  try {
    for (let attempt = 0; ; attempt++) {
      const stop = interrupted();
      if (stop) throw stop;
      let error: LociError;
      let waitMs: number | undefined;
      try {
        const r = await fx.fetch(call.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...call.headers },
          body: JSON.stringify(call.body),
          signal,
        });
        if (r.ok && r.body) {
          res = r;
          break;
        }
        const text = await r.text();
        error = failed(r.ok ? 'the answer has no body' : errorReason(text, r.status), r.status);
        if (r.status !== 429 && r.status < 500) throw error;
        waitMs = retryAfterMs(r.headers);
      } catch (e) {
        const stop = interrupted();
        if (stop) throw stop;
        if (isLociError(e)) throw e;
        error = failed(networkReason(e), undefined, e);
      }
      if (attempt >= call.retry.maxRetries) throw error;
      const wait =
        waitMs !== undefined ? Math.min(waitMs, call.retry.maxMs) : backoffMs(attempt, call.retry, fx.random);
      if (Date.now() + wait >= started + call.timeoutMs) throw error;
      try {
        await fx.sleep(wait, signal);
      } catch (e) {
        throw interrupted() ?? e;
      }
    }
  } catch (e) {
    clearTimeout(timer);
    throw e;
  }

  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let done = false;
  try {
    while (!done) {
      arm(call.timeoutMs);
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (e) {
        throw interrupted() ?? failed(`the stream broke: ${networkReason(e)}`, undefined, e);
      }
      done = chunk.done;
      buffer += done ? decoder.decode() : decoder.decode(chunk.value, { stream: true });
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).replace(/\r$/, '');
        buffer = buffer.slice(nl + 1);
        yield line;
      }
    }
    if (buffer !== '') yield buffer;
  } finally {
    clearTimeout(timer);
    if (!done) await reader.cancel().catch(() => undefined);
  }
}

/** Opens the streamed POST of one protocol: its URL and the lines of the answer. */
export function openStream(
  rt: ProviderRuntime,
  provider: string,
  path: string,
  headers: Record<string, string>,
  r: NormalisedStream,
  body: unknown,
): { url: string; lines: AsyncGenerator<string> } {
  const url = endpoint(rt.baseUrl, path);
  const call: JsonCall = {
    provider,
    operation: `${provider} stream`,
    url,
    headers: { ...rt.headers, ...headers },
    body,
    timeoutMs: r.timeoutMs,
    signal: r.signal,
    retry: rt.retry,
  };
  return { url, lines: streamLines(call, rt.fx) };
}

/** One server-sent event. */
interface SseEvent {
  /** The `event:` field, or `message` when absent. */
  event: string;
  data: string;
}

/** Server-sent events from lines (comments skipped, multi-line data joined with `\n`). */
export async function* sseEvents(lines: AsyncIterable<string>): AsyncGenerator<SseEvent> {
  let event = '';
  let data: string[] = [];
  for await (const line of lines) {
    if (line === '') {
      if (data.length > 0) yield { event: event || 'message', data: data.join('\n') };
      event = '';
      data = [];
    } else if (line.startsWith(':')) {
      continue;
    } else {
      const colon = line.indexOf(':');
      const name = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (name === 'event') event = value;
      else if (name === 'data') data.push(value);
    }
  }
  if (data.length > 0) yield { event: event || 'message', data: data.join('\n') };
}

/** Parses one JSON payload of a stream; throws PROVIDER_FAILED naming the protocol when it is not JSON. */
export function parseChunk(text: string, provider: string, url: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    const head = JSON.stringify(text.slice(0, 80));
    throw createError(
      'PROVIDER_FAILED',
      { provider, url, reason: `a stream chunk is not valid JSON (starts with ${head}) — is the base URL right?` },
      e,
    );
  }
}

/** A non-negative count or 0. */
export function countOf(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0;
}

/** Collects deltas and tool calls in order and builds the final `done` event. */
export class TurnAssembler {
  private readonly blocks: ContentBlock[] = [];

  /** Records a text delta and returns its event. */
  text(delta: string): StreamEvent {
    const last = this.blocks.at(-1);
    if (last?.type === 'text') last.text += delta;
    else this.blocks.push({ type: 'text', text: delta });
    return { type: 'text', text: delta };
  }

  /** Records a complete tool call and returns its event. */
  toolUse(block: ToolUseBlock): StreamEvent {
    this.blocks.push(block);
    return { type: 'tool_use', block };
  }

  /** The closing event with the assembled assistant message. */
  done(model: string, usage: TokenUsage | undefined, stopReason: string | undefined): StreamEvent {
    const content = this.blocks.filter((b) => b.type !== 'text' || b.text !== '');
    return {
      type: 'done',
      message: { role: 'assistant', content },
      ...(usage ? { usage } : {}),
      ...(stopReason ? { stopReason } : {}),
      model,
    };
  }
}

/** Parses a tool call's JSON arguments (an object), or throws PROVIDER_FAILED. */
export function toolInput(json: string, provider: string, url: string, tool: string): Record<string, unknown> {
  if (json.trim() === '') return {};
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch (e) {
    throw createError(
      'PROVIDER_FAILED',
      { provider, url, reason: `the arguments of the ${tool} tool call are not valid JSON` },
      e,
    );
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    throw createError('PROVIDER_FAILED', { provider, url, reason: `the arguments of ${tool} are not a JSON object` });
  }
  return v as Record<string, unknown>;
}

/** The error thrown when a stream stops before its closing event. */
export function truncatedStream(provider: string, url: string): LociError {
  return streamError(provider, url, 'the stream ended before the answer was complete');
}

/** An error the server reported inside a stream (after the first byte, so never retried). */
export function streamError(provider: string, url: string, reason: string): LociError {
  return createError('PROVIDER_FAILED', { provider, url, reason });
}
