/**
 * @module providers/common
 * What every provider implementation shares: the resolved runtime settings, request defaults and
 * validation, and small JSON readers for responses.
 */
import { createError } from '../core/errors.js';
import { endpoint, postJson, type HttpEffects, type RetryPolicy } from './http.js';
import type { ChatMessage, CompleteRequest, CompleteResult, LlmProvider, ProviderName } from './types.js';

/** Settings resolved once by `createLlmProvider` and handed to a protocol implementation. */
export interface ProviderRuntime {
  model: string;
  baseUrl: string;
  apiKey: string | undefined;
  headers: Record<string, string>;
  timeoutMs: number;
  retry: RetryPolicy;
  fx: HttpEffects;
}

/** Default `maxTokens`. */
const DEFAULT_MAX_TOKENS = 512;
/** Default `temperature`. */
const DEFAULT_TEMPERATURE = 0;
/** Default total timeout per call, in ms. */
export const DEFAULT_TIMEOUT_MS = 20_000;

/** A request with its defaults applied and its ranges checked. */
interface NormalisedRequest {
  system: string | undefined;
  messages: ChatMessage[];
  maxTokens: number;
  temperature: number;
  signal: AbortSignal | undefined;
  timeoutMs: number;
}

/** Applies defaults and validates; throws INVALID_ARGUMENT. */
function normaliseRequest(req: CompleteRequest, rt: ProviderRuntime): NormalisedRequest {
  if (!Array.isArray(req.messages) || req.messages.length === 0) {
    throw createError('INVALID_ARGUMENT', { name: 'messages', value: req.messages, expected: 'at least one message' });
  }
  for (const m of req.messages) {
    if ((m.role !== 'user' && m.role !== 'assistant') || typeof m.content !== 'string') {
      throw createError('INVALID_ARGUMENT', {
        name: 'message',
        value: m,
        expected: "{ role: 'user' | 'assistant', content: string }",
      });
    }
  }
  const { maxTokens, temperature, timeoutMs } = numericOptions(req, rt, DEFAULT_MAX_TOKENS);
  return { system: req.system, messages: req.messages, maxTokens, temperature, signal: req.signal, timeoutMs };
}

/** `maxTokens`, `temperature` and `timeoutMs` of a request with defaults applied; throws INVALID_ARGUMENT. */
export function numericOptions(
  req: { maxTokens?: number | undefined; temperature?: number | undefined; timeoutMs?: number | undefined },
  rt: ProviderRuntime,
  defaultMaxTokens: number,
): { maxTokens: number; temperature: number; timeoutMs: number } {
  const maxTokens = req.maxTokens ?? defaultMaxTokens;
  checkRange('maxTokens', maxTokens, 1, 1_000_000, true);
  const temperature = req.temperature ?? DEFAULT_TEMPERATURE;
  checkRange('temperature', temperature, 0, 2, false);
  const timeoutMs = req.timeoutMs ?? rt.timeoutMs;
  checkRange('timeoutMs', timeoutMs, 1, 600_000, true);
  return { maxTokens, temperature, timeoutMs };
}

/** Throws INVALID_ARGUMENT unless `value` is a finite number in [min, max] (an integer if asked). */
export function checkRange(name: string, value: number, min: number, max: number, integer: boolean): void {
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value < min ||
    value > max ||
    (integer && !Number.isInteger(value))
  ) {
    throw createError('INVALID_ARGUMENT', {
      name,
      value,
      expected: `${integer ? 'an integer' : 'a number'} from ${min} to ${max}`,
    });
  }
}

/** Reads `obj[key]` when `obj` is a plain object. */
export function field(obj: unknown, key: string): unknown {
  return obj !== null && typeof obj === 'object' ? (obj as Record<string, unknown>)[key] : undefined;
}

/** A non-negative integer count, or undefined. */
function count(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
}

/** `{ inputTokens, outputTokens }` when both counts are present. */
function usageOf(input: unknown, output: unknown): { inputTokens: number; outputTokens: number } | undefined {
  const i = count(input);
  const o = count(output);
  return i === undefined || o === undefined ? undefined : { inputTokens: i, outputTokens: o };
}

/** What differs between the chat protocols: where to POST, what to send, how to read the answer. */
interface ChatProtocol {
  name: ProviderName;
  /** API path below the server root, e.g. `/v1/messages`. */
  path: string;
  /** Protocol headers (keys, versions), added to the configured ones. */
  headers: Record<string, string>;
  body(r: NormalisedRequest): unknown;
  /** Reads a 2xx answer; returns undefined when it is not shaped like this protocol's answer. */
  parse(json: unknown): ParsedAnswer | undefined;
}

/** The fields a protocol reads out of an answer. */
interface ParsedAnswer {
  text: string;
  model: unknown;
  inputTokens: unknown;
  outputTokens: unknown;
  stopReason: unknown;
}

/** An {@link LlmProvider} for one protocol over the shared transport. */
export function chatProvider(rt: ProviderRuntime, proto: ChatProtocol): LlmProvider {
  const url = endpoint(rt.baseUrl, proto.path);
  return {
    name: proto.name,
    model: rt.model,
    async complete(req: CompleteRequest): Promise<CompleteResult> {
      const r = normaliseRequest(req, rt);
      const json = await postJson(
        {
          provider: proto.name,
          operation: `${proto.name} completion`,
          url,
          headers: { ...rt.headers, ...proto.headers },
          body: proto.body(r),
          timeoutMs: r.timeoutMs,
          signal: r.signal,
          retry: rt.retry,
        },
        rt.fx,
      );
      const a = proto.parse(json);
      if (!a) {
        throw createError('PROVIDER_FAILED', {
          provider: proto.name,
          url,
          reason:
            `the answer does not look like a response of the ${proto.name} protocol (${proto.path}) — is the ` +
            'base URL right?',
        });
      }
      const usage = usageOf(a.inputTokens, a.outputTokens);
      return {
        text: a.text,
        model: typeof a.model === 'string' ? a.model : rt.model,
        ...(usage ? { usage } : {}),
        ...(typeof a.stopReason === 'string' ? { stopReason: a.stopReason } : {}),
      };
    },
  };
}

/** The system prompt as a leading `system` message, as OpenAI and Ollama expect it. */
export function withSystemMessage(r: NormalisedRequest): { role: string; content: string }[] {
  return [
    ...(r.system !== undefined ? [{ role: 'system', content: r.system }] : []),
    ...r.messages.map((m) => ({ role: m.role, content: m.content })),
  ];
}
