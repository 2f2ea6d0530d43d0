/**
 * @module team/client
 * The HTTP client of the team server's JSON API (`/api/v1/…`, bearer token), used by the CLI's
 * remote mode and by `loci memory sync`. Failures are catalogue errors: 401 → TEAM_UNAUTHORISED,
 * 403 → TEAM_FORBIDDEN (503, busy or restarting, is retried after its Retry-After, up to 5 times), a
 * refused or broken connection → TEAM_SERVER_UNREACHABLE, any other
 * failure → the server's own error when it sent one (same code and details), else
 * TEAM_SERVER_FAILED.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { createError, LociError, type ErrorCode } from '../core/errors.js';

/** The JSON API's path prefix. */
export const API_PREFIX = '/api/v1';

/** A connection to a team server. */
export interface TeamClient {
  /** The server's base URL (no trailing slash). */
  readonly url: string;
  /** Calls `POST /api/v1/<op>` with a JSON body; resolves to the JSON answer. */
  call<T>(op: string, body?: unknown): Promise<T>;
}

/** Options of {@link createTeamClient}. */
interface TeamClientOptions {
  /** Base URL, e.g. `https://loci.example:5625` (a trailing `/mcp` or `/` is dropped). */
  url: string;
  /** The bearer token (`LOCI_TOKEN`). */
  token: string;
  /** Per-request timeout in ms. Default 120000 (uploads may mine for a while). */
  timeoutMs?: number;
  /** The fetch implementation. Default the global one. */
  fetch?: typeof fetch;
}

/** Parses a server URL; throws INVALID_ARGUMENT for anything but http(s). */
function baseUrl(raw: string): string {
  let u: URL | undefined;
  try {
    u = new URL(raw.trim());
  } catch {
    u = undefined;
  }
  if (!u || !/^https?:$/.test(u.protocol))
    throw createError('INVALID_ARGUMENT', {
      name: 'team server URL (LOCI_SERVER / --server)',
      value: raw,
      expected: 'an http:// or https:// URL such as https://loci.example:5625',
    });
  return `${u.origin}${u.pathname.replace(/\/(mcp\/?)?$/, '').replace(/\/+$/, '')}`;
}

/** How many times a request answered 503 (busy, restarting) is sent again. */
const BUSY_RETRIES = 5;

/** The wait before retry `n` (0-based) of a 503: the server's Retry-After in seconds, else 1 s, doubling; ≤ 10 s. */
function retryAfterMs(header: string | null, n: number): number {
  const seconds = Number(header);
  const base = header !== null && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 1000;
  return Math.min(10_000, base * 2 ** n);
}

/** A client of the team server at `opts.url`. */
export function createTeamClient(opts: TeamClientOptions): TeamClient {
  const url = baseUrl(opts.url);
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? 120_000;
  return {
    url,
    async call<T>(op: string, body: unknown = {}): Promise<T> {
      const target = `${url}${API_PREFIX}/${op}`;
      let res: Response;
      const send = () =>
        doFetch(target, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${opts.token}` },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
      try {
        // One retry when a kept-alive connection was closed under us: every operation is idempotent
        // (drawer ids are content-addressed, a repeated memory push merges to the same text).
        const sendOnce = () =>
          send().catch((e: { cause?: { code?: string } }) => {
            if (!/ECONNRESET|UND_ERR_SOCKET|EPIPE/.test(e.cause?.code ?? '')) throw e;
            return send();
          });
        res = await sendOnce();
        // 503 means "busy or restarting, come back": the server said when (Retry-After); every
        // operation is idempotent, so a few such retries cannot write twice.
        for (let busy = 0; res.status === 503 && busy < BUSY_RETRIES; busy++) {
          await res.text().catch(() => '');
          await delay(retryAfterMs(res.headers.get('retry-after'), busy));
          res = await sendOnce();
        }
      } catch (e) {
        const cause = (e as { cause?: { code?: string; message?: string } }).cause;
        const reason = cause?.code ?? cause?.message ?? (e as Error).message;
        if ((e as Error).name === 'TimeoutError')
          throw createError('TIMEOUT', { operation: `${op} on ${url}`, ms: timeoutMs });
        throw createError('TEAM_SERVER_UNREACHABLE', { url, reason }, e);
      }
      const text = await res.text().catch(() => '');
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      if (res.ok) return json as T;
      const err = (json as { error?: { code?: string; details?: unknown; message?: string } } | undefined)?.error;
      if (res.status === 401) throw createError('TEAM_UNAUTHORISED', { server: url });
      if (err?.code && err.code !== 'INTERNAL' && typeof err.details === 'object' && err.details !== null) {
        try {
          throw new LociError(err.code as ErrorCode, err.details as never);
        } catch (e) {
          if (e instanceof LociError) throw e;
        }
      }
      throw createError('TEAM_SERVER_FAILED', {
        url,
        status: res.status,
        reason: err?.message ?? (text.slice(0, 200) || res.statusText),
      });
    },
  };
}
