/**
 * @module providers/http
 * JSON-over-HTTP transport shared by the LLM providers and the HTTP embedders: one deadline for
 * the whole call (`AbortSignal.timeout` joined with the caller's signal through `AbortSignal.any`),
 * retries with exponential back-off and jitter on 429, 5xx and network errors (honouring
 * `retry-after` / `retry-after-ms`, capped), no retry on other 4xx, and catalogue errors only.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { createError, isLociError, type LociError } from '../core/errors.js';

/** When and how long to wait before trying again. */
export interface RetryPolicy {
  /** Retries after the first attempt. Default 2; 0 … 10. */
  maxRetries: number;
  /** First back-off delay in ms, doubled per retry. Default 500. */
  baseMs: number;
  /** Cap on one delay in ms (`retry-after` included). Default 8,000. */
  maxMs: number;
}

/** The default {@link RetryPolicy}: 2 retries, 500 ms doubling, 8 s cap. */
export const DEFAULT_RETRY: Readonly<RetryPolicy> = Object.freeze({ maxRetries: 2, baseMs: 500, maxMs: 8_000 });

/** Effects the transport needs; {@link httpEffects} fills the defaults. */
export interface HttpEffects {
  fetch: typeof fetch;
  /** Waits `ms`; may reject early when `signal` aborts. */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Uniform random in [0, 1), for jitter. */
  random: () => number;
}

/** One JSON POST. */
export interface JsonCall {
  /** Provider name used in errors (`anthropic`, `ollama embeddings` …). */
  provider: string;
  /** What the caller was doing, used in TIMEOUT/ABORTED messages (`anthropic completion`). */
  operation: string;
  url: string;
  headers?: Record<string, string>;
  body: unknown;
  /** Total deadline in ms for every attempt and back-off together. */
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  retry: RetryPolicy;
}

/** Builds {@link HttpEffects} from optional overrides (global fetch, real timers, Math.random). */
export function httpEffects(
  deps: {
    fetch?: typeof fetch | undefined;
    sleep?: ((ms: number) => Promise<void>) | undefined;
    random?: (() => number) | undefined;
  } = {},
): HttpEffects {
  const custom = deps.sleep;
  return {
    fetch: deps.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    sleep: custom ? (ms) => custom(ms) : (ms, signal) => delay(ms, undefined, { signal }),
    random: deps.random ?? Math.random,
  };
}

/** True when `s` parses as an http:// or https:// URL. */
function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Joins a server root and an API path, tolerating a root that already ends with the path's first
 * segment (`http://host:8080/v1` + `/v1/embeddings`). Throws INVALID_ARGUMENT for a bad URL.
 */
export function endpoint(baseUrl: string, path: string): string {
  let base = baseUrl.trim().replace(/\/+$/, '');
  if (!isHttpUrl(base))
    throw createError('INVALID_ARGUMENT', { name: 'baseUrl', value: baseUrl, expected: 'an http:// or https:// URL' });
  const first = /^\/[^/]+/.exec(path)?.[0];
  if (first && base.endsWith(first)) base = base.slice(0, -first.length);
  return base + path;
}

/** Reads the most useful message out of an error body (Anthropic, OpenAI, Ollama, FastAPI shapes). */
export function errorReason(text: string, status: number): string {
  const trimmed = text.trim();
  if (!trimmed) return `HTTP ${status} with an empty body`;
  try {
    const j = JSON.parse(trimmed) as Record<string, unknown>;
    const err = j['error'];
    if (typeof err === 'string') return err;
    if (err && typeof err === 'object') {
      const e = err as Record<string, unknown>;
      const msg = typeof e['message'] === 'string' ? e['message'] : JSON.stringify(err);
      return typeof e['type'] === 'string' ? `${e['type']}: ${msg}` : msg;
    }
    if (typeof j['message'] === 'string') return j['message'];
    if (typeof j['detail'] === 'string') return j['detail'];
  } catch {
    // not JSON: fall through to the raw text
  }
  return trimmed.length > 300 ? `${trimmed.slice(0, 300)}…` : trimmed;
}

/** Milliseconds asked for by `retry-after-ms` or `retry-after` (seconds or HTTP date), if any. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const ra = headers.get('retry-after');
  if (ra === null || ra.trim() === '') return undefined;
  const secs = Number(ra);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const date = Date.parse(ra);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential back-off with "equal jitter": between half and all of `base·2^attempt`, capped. */
export function backoffMs(attempt: number, policy: RetryPolicy, random: () => number): number {
  const exp = Math.min(policy.maxMs, policy.baseMs * 2 ** attempt);
  return Math.round(exp / 2 + random() * (exp / 2));
}

type Attempt = { ok: true; json: unknown } | { ok: false; error: LociError; waitMs?: number | undefined };

/**
 * POSTs `call.body` as JSON and returns the parsed JSON answer.
 * Throws PROVIDER_FAILED (details.status set for HTTP errors), TIMEOUT or ABORTED.
 */
export async function postJson(call: JsonCall, fx: HttpEffects): Promise<unknown> {
  const started = Date.now();
  const deadline = AbortSignal.timeout(call.timeoutMs);
  const signal = call.signal ? AbortSignal.any([call.signal, deadline]) : deadline;
  const interrupted = () => interruption(call, deadline.aborted);
  const failed = (reason: string, status?: number, cause?: unknown) => callFailed(call, reason, status, cause);

  const once = async (): Promise<Attempt> => {
    let res: Response;
    let text: string;
    try {
      res = await fx.fetch(call.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...call.headers },
        body: JSON.stringify(call.body),
        signal,
      });
      text = await res.text();
    } catch (e) {
      const stop = interrupted();
      if (stop) throw stop;
      return { ok: false, error: failed(networkReason(e), undefined, e) };
    }
    if (res.ok) {
      try {
        return { ok: true, json: JSON.parse(text) as unknown };
      } catch (e) {
        const head = JSON.stringify(text.slice(0, 80));
        throw failed(`the response is not valid JSON (starts with ${head}) — is the base URL right?`, res.status, e);
      }
    }
    const error = failed(errorReason(text, res.status), res.status);
    if (res.status === 429 || res.status >= 500) return { ok: false, error, waitMs: retryAfterMs(res.headers) };
    throw error;
  };

  for (let attempt = 0; ; attempt++) {
    const stop = interrupted();
    if (stop) throw stop;
    const result = await once();
    if (result.ok) return result.json;
    if (attempt >= call.retry.maxRetries) throw result.error;
    const wait =
      result.waitMs !== undefined
        ? Math.min(result.waitMs, call.retry.maxMs)
        : backoffMs(attempt, call.retry, fx.random);
    // Waiting past the deadline cannot succeed: report the server's error rather than a timeout.
    if (Date.now() + wait >= started + call.timeoutMs) throw result.error;
    try {
      await fx.sleep(wait, signal);
    } catch (e) {
      throw interrupted() ?? e;
    }
  }
}

/** ABORTED when the caller's signal fired, TIMEOUT when the deadline passed, else undefined. */
export function interruption(call: JsonCall, timedOut: boolean): LociError | undefined {
  if (call.signal?.aborted) return createError('ABORTED', { operation: call.operation }, call.signal.reason);
  if (timedOut) return createError('TIMEOUT', { operation: call.operation, ms: call.timeoutMs });
  return undefined;
}

/** PROVIDER_FAILED for `call`, with the HTTP status when there is one. */
export function callFailed(call: JsonCall, reason: string, status?: number, cause?: unknown): LociError {
  return createError(
    'PROVIDER_FAILED',
    { provider: call.provider, url: call.url, ...(status ? { status } : {}), reason },
    cause,
  );
}

/** A network error's message with its cause's code (`fetch failed (ECONNREFUSED)`). */
export function networkReason(e: unknown): string {
  const err = e as { message?: string; cause?: { code?: string; message?: string } } | undefined;
  const cause = err?.cause;
  const detail = cause?.code ?? cause?.message;
  return `${err?.message ?? String(e)}${detail ? ` (${detail})` : ''}`;
}

/** True when `e` is a PROVIDER_FAILED error carrying HTTP status `status`. */
export function isHttpStatus(e: unknown, status: number): boolean {
  return isLociError(e, 'PROVIDER_FAILED') && e.details.status === status;
}
