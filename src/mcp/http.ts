/**
 * @module mcp/http
 * `loci mcp --http`: the server over Streamable HTTP (`POST/GET/DELETE /mcp`, one session per
 * client, each with its own SDK server over the one shared palace).
 *
 * Security: binds to 127.0.0.1 by default, with DNS-rebinding protection (the Host header must
 * name the loopback address). Binding to any other host requires a bearer token (`LOCI_TOKEN`;
 * MCP_TOKEN_REQUIRED otherwise). When a token is set, every request without
 * `Authorization: Bearer <token>` gets 401, whatever the host.
 *
 * Every request with an `Origin` header must come from a loopback origin (`http://localhost:*`,
 * `127.0.0.0/8`, `[::1]`) or one of `allowedOrigins`, else 403 — a web page cannot drive the
 * server from a browser (the MCP specification requires this check). A body over `maxBodyBytes` is
 * read to its end and discarded, then answered 413 (no connection reset). Sessions without a
 * request for `idleSessionMs` (default 5 minutes) are closed, and when all `maxSessions` slots are
 * taken the least recently used idle session yields its slot to the new client.
 *
 * Embedding (the team server, `src/serve`): `authenticate` replaces the single token with per-request
 * callers, each MCP session bound to the caller that opened it and served over the caller's own
 * palace; `routes` answers paths besides `/mcp` (a JSON API) after the same Origin, Host and
 * authentication checks. `close()` is graceful: new requests get 503, requests in flight finish
 * (up to `drainMs`), then sessions, connections and the palace close.
 */
import { randomUUID, timingSafeEqual, createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { systemClock, type Clock } from '../core/clock.js';
import { createError, isLociError, oneLine, shortValue } from '../core/errors.js';
import { silentLogger } from '../core/logger.js';
import { isLoopback } from '../core/loopback.js';
import { openPalace, type Palace } from '../palace/index.js';
import { createLociMcpServer, type LociMcpServer, type LociMcpServerOptions } from './server.js';
import { MAX_MESSAGE_BYTES } from './args.js';

/** Who is calling, as `authenticate` identifies them. */
export interface HttpCaller {
  /** Stable id (the user); an MCP session answers only the caller that opened it. */
  id: string;
  /** The palace this caller's MCP session uses (e.g. a rights-checking wrapper). */
  palace: Palace;
}

/** What a route handler receives besides the request and response. */
export interface HttpRouteContext {
  caller: HttpCaller;
  /** The path without the query string. */
  path: string;
  /** Reads the body (at most `maxBodyBytes`; rejects with MCP_MESSAGE_TOO_LARGE, which should be answered 413). */
  readBody(): Promise<string>;
}

/** Options of {@link serveHttp}. */
export interface ServeHttpOptions extends LociMcpServerOptions {
  /** Interface to bind. Default `127.0.0.1`. Anything but loopback needs `token`. */
  host?: string;
  /** TCP port; 0 picks a free one. Default 5624. */
  port?: number;
  /** Bearer token every request must carry. Default: none (loopback only). */
  token?: string;
  /** Most concurrent sessions; when full, the least recently used idle one is closed for a new client. Default 64. */
  maxSessions?: number;
  /**
   * Most sessions one caller (one `authenticate` id) may hold; its own least recently used idle
   * session yields to its new one, so one client cannot take every slot. Default `maxSessions`.
   */
  maxSessionsPerCaller?: number;
  /** Largest accepted request body in bytes (larger ones get 413). Default 4 MiB. */
  maxBodyBytes?: number;
  /**
   * A session without requests for this long is closed, in ms (≥ 1). Default 5 minutes (`LOCI_MCP_IDLE_SECONDS` in the
   * CLI).
   */
  idleSessionMs?: number;
  /**
   * Browser origins allowed besides loopback ones, e.g. `https://app.example:8443` (scheme, host
   * and port; compared exactly). Requests without `Origin` are always allowed. Default none.
   */
  allowedOrigins?: readonly string[];
  /** Time source for session idleness. Default the system clock. */
  clock?: Clock;
  /**
   * Identifies the caller of each request (undefined → 401); replaces `token`, and allows any host.
   * Default: the `token` check, every caller sharing the one palace.
   */
  authenticate?: (req: IncomingMessage) => Promise<HttpCaller | undefined>;
  /** Answers a path other than `/mcp`; resolves false when the path is not its own (→ 404). Default none. */
  routes?: (req: IncomingMessage, res: ServerResponse, ctx: HttpRouteContext) => Promise<boolean>;
  /**
   * `Host` header values accepted (e.g. `loci.example:5625`) besides the loopback ones of the port.
   * Default: any host when bound to a non-loopback interface, loopback names only otherwise.
   */
  allowedHosts?: readonly string[];
  /** The longest `close()` waits for requests in flight, in ms. Default 30000. */
  drainMs?: number;
}

/** A running HTTP server. */
export interface HttpServing {
  /** e.g. `http://127.0.0.1:5624/mcp`. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** Resolves once the server has shut down. */
  readonly closed: Promise<void>;
  /** Closes every session, the listener and (when opened here) the palace. Idempotent. */
  close(): Promise<void>;
}

/** Default port of `loci mcp --http` ("LOCI" on a phone keypad). */
const DEFAULT_HTTP_PORT = 5624;
/** Default idle time after which a session is closed: 5 minutes. */
const DEFAULT_IDLE_SESSION_MS = 5 * 60_000;
/** The endpoint path. */
const MCP_PATH = '/mcp';

const digest = (s: string) => createHash('sha256').update(s).digest();

function rpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/**
 * Reads a body of at most `max` bytes. A larger one is read to its end and discarded (so the
 * client can read the 413 instead of seeing a reset); past 16 × `max` the connection is cut.
 * Rejects with MCP_MESSAGE_TOO_LARGE (`bytes`: all that arrived, or at least this many when cut off).
 */
function readBody(req: IncomingMessage, max: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= max) parts.push(c);
      else if (size > 16 * max) {
        reject(createError('MCP_MESSAGE_TOO_LARGE', { bytes: size, max }));
        req.destroy();
      } else parts.length = 0;
    });
    req.on('end', () =>
      size > max
        ? reject(createError('MCP_MESSAGE_TOO_LARGE', { bytes: size, max }))
        : resolve(Buffer.concat(parts).toString('utf8')),
    );
    req.on('error', reject);
  });
}

/**
 * The origin of an `Origin` header in canonical form (`scheme://host:port`), or undefined when it is not a URL origin
 * (e.g. `null`).
 */
function canonicalOrigin(raw: string): string | undefined {
  try {
    const u = new URL(raw);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The `Origin` check: absent, a loopback origin, or one of `allowed` (canonical forms). `null`,
 * other schemes and everything else are refused.
 */
function originAllowed(origin: string | undefined, allowed: ReadonlySet<string>): boolean {
  if (origin === undefined) return true;
  const canonical = canonicalOrigin(origin);
  if (!canonical) return false;
  return isLoopback(new URL(canonical).hostname) || allowed.has(canonical);
}

/** Parses `allowedOrigins` entries (throws INVALID_ARGUMENT for one that is not an http(s) origin). */
function allowedOriginSet(list: readonly string[] = []): Set<string> {
  const set = new Set<string>();
  for (const o of list) {
    let u: URL | undefined;
    try {
      u = new URL(o.trim());
    } catch {
      u = undefined;
    }
    if (!u || !/^https?:$/.test(u.protocol) || u.pathname !== '/' || u.search || u.hash || u.username) {
      throw createError('INVALID_ARGUMENT', {
        name: 'allowed origin',
        value: o,
        expected: 'an origin such as https://app.example or http://host:8080 (scheme, host and port, no path)',
      });
    }
    set.add(u.origin.toLowerCase());
  }
  return set;
}

/** Serves the Loci tools over Streamable HTTP. */
export async function serveHttp(opts: ServeHttpOptions = {}): Promise<HttpServing> {
  const host = opts.host ?? '127.0.0.1';
  const token = opts.token ?? '';
  if (!isLoopback(host) && !token && !opts.authenticate) throw createError('MCP_TOKEN_REQUIRED', { host });
  const logger = opts.logger ?? silentLogger;
  const maxSessions = opts.maxSessions ?? 64;
  const maxBody = opts.maxBodyBytes ?? MAX_MESSAGE_BYTES;
  const origins = allowedOriginSet(opts.allowedOrigins);
  const now = () => (opts.clock ?? systemClock).now();
  const owned = opts.palace === undefined;
  const palace: Palace =
    opts.palace ??
    (await openPalace({ ...(opts.home ? { home: opts.home } : {}), logger, ...(opts.env ? { env: opts.env } : {}) }));
  /** Sessions by id; `busy` counts requests in flight (a standalone GET stream does not count). */
  const sessions = new Map<
    string,
    { transport: StreamableHTTPServerTransport; mcp: LociMcpServer; seen: number; busy: number; caller: string }
  >();
  const idleMs = opts.idleSessionMs ?? DEFAULT_IDLE_SESSION_MS;
  if (!(idleMs >= 1))
    throw createError('INVALID_ARGUMENT', {
      name: 'idleSessionMs',
      value: idleMs,
      expected: 'a positive number of milliseconds',
    });
  const expected = token ? digest(`Bearer ${token}`) : undefined;
  let port = opts.port ?? DEFAULT_HTTP_PORT;

  const authorised = (req: IncomingMessage): boolean => {
    if (!expected) return true;
    const got = req.headers.authorization;
    return typeof got === 'string' && timingSafeEqual(digest(got), expected);
  };
  const identify = async (req: IncomingMessage): Promise<HttpCaller | undefined> =>
    opts.authenticate ? opts.authenticate(req) : authorised(req) ? { id: '', palace } : undefined;
  const extraHosts = new Set((opts.allowedHosts ?? []).map((h) => h.toLowerCase()));
  /** The Host check: loopback binds accept loopback names of the port (and `allowedHosts`). */
  const hostAllowed = (raw: string | undefined): boolean => {
    const h = (raw ?? '').toLowerCase();
    if (extraHosts.has(h)) return true;
    if (!isLoopback(host)) return extraHosts.size === 0;
    const at = h.lastIndexOf(':');
    return at > 0 && h.slice(at + 1) === String(port) && isLoopback(h.slice(0, at));
  };
  let inflight = 0;
  let closingNow = false;
  let drained: (() => void) | undefined;

  const endSession = (id: string, why: string) => {
    const s = sessions.get(id);
    if (!s) return;
    logger.log('info', `closing MCP session ${id}: ${why}`);
    sessions.delete(id);
    void s.transport.close().catch(() => {});
  };
  /** Closes sessions idle for `idleMs` or longer (run on a timer and before each new session). */
  const sweep = () => {
    const t = now();
    for (const [id, s] of sessions)
      if (s.busy === 0 && t - s.seen >= idleMs) endSession(id, `idle for ${Math.round((t - s.seen) / 1000)} s`);
  };
  /** When all slots are taken, the least recently used idle session yields; false when every one is busy. */
  const perCaller = opts.maxSessionsPerCaller ?? maxSessions;
  /** The caller's own least recently used idle session yields when it holds `perCaller`; false when all are busy. */
  const freeCallerSlot = (caller: string): boolean => {
    let held = 0;
    let oldest: [string, number] | undefined;
    for (const [id, s] of sessions) {
      if (s.caller !== caller) continue;
      held++;
      if (s.busy === 0 && (!oldest || s.seen < oldest[1])) oldest = [id, s.seen];
    }
    if (held < perCaller) return true;
    if (!oldest) return false;
    endSession(oldest[0], `its caller holds ${perCaller} sessions and it is their least recently used`);
    return true;
  };
  const freeSlot = (): boolean => {
    if (sessions.size < maxSessions) return true;
    let oldest: [string, number] | undefined;
    for (const [id, s] of sessions) if (s.busy === 0 && (!oldest || s.seen < oldest[1])) oldest = [id, s.seen];
    if (!oldest) return false;
    endSession(oldest[0], `all ${maxSessions} session slots are taken and it is the least recently used`);
    return true;
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (closingNow)
      return rpcError(res, 503, -32000, 'the server is shutting down: retry shortly', {
        connection: 'close',
        'retry-after': '1',
      });
    const origin = req.headers.origin;
    if (!originAllowed(origin, origins)) {
      return rpcError(
        res,
        403,
        -32000,
        `forbidden origin ${JSON.stringify(oneLine(shortValue(String(origin))))}: only loopback origins and those ` +
          'allowed with --allow-origin (LOCI_MCP_ALLOWED_ORIGINS) may call this server',
      );
    }
    if (!hostAllowed(req.headers.host))
      return rpcError(
        res,
        403,
        -32000,
        `forbidden host ${JSON.stringify(oneLine(shortValue(String(req.headers.host))))}`,
      );
    const caller = await identify(req);
    if (!caller)
      return rpcError(res, 401, -32001, 'unauthorised: send Authorization: Bearer <LOCI_TOKEN>', {
        'www-authenticate': 'Bearer realm="loci"',
      });
    if (path !== MCP_PATH) {
      if (opts.routes && (await opts.routes(req, res, { caller, path, readBody: () => readBody(req, maxBody) })))
        return;
      return rpcError(res, 404, -32601, `not found: the MCP endpoint is ${MCP_PATH}`);
    }
    const sid = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(sid) ? sid[0] : sid;
    let body: unknown;
    if (req.method === 'POST') {
      try {
        body = JSON.parse(await readBody(req, maxBody));
      } catch (e) {
        if (isLociError(e, 'MCP_MESSAGE_TOO_LARGE'))
          return rpcError(res, 413, -32600, `loci: ${e.message} [${e.code}]`, { connection: 'close' });
        return rpcError(res, 400, -32700, 'parse error: the body is not JSON');
      }
    }
    if (sessionId) {
      const s = sessions.get(sessionId);
      if (!s)
        return rpcError(res, 404, -32001, 'session not found (it ended or expired): start a new one with initialize');
      if (s.caller !== caller.id) return rpcError(res, 403, -32000, 'this session belongs to another token');
      s.seen = now();
      if (req.method !== 'GET') {
        s.busy++;
        res.once('close', () => {
          s.busy--;
          s.seen = now();
        });
      }
      return s.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(body))
      return rpcError(res, 400, -32000, 'bad request: no valid session id (send initialize first)');
    sweep();
    if (!freeCallerSlot(caller.id))
      return rpcError(res, 429, -32000, `this token holds ${perCaller} sessions, all busy; retry shortly`);
    if (!freeSlot()) return rpcError(res, 503, -32000, `too many sessions (${maxSessions}), all busy; retry shortly`);
    const mcp = await createLociMcpServer({ ...opts, palace: caller.palace, logger });
    const loopback = isLoopback(host);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, { transport, mcp, seen: now(), busy: 0, caller: caller.id }),
      ...(loopback
        ? {
            enableDnsRebindingProtection: true,
            allowedHosts: [
              `127.0.0.1:${port}`,
              `localhost:${port}`,
              `[::1]:${port}`,
              host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`,
            ],
          }
        : {}),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      void mcp.close();
    };
    await mcp.server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  const http = createServer((req, res) => {
    // Standalone GET streams of MCP sessions stay open for the session's life: they are not "in flight".
    if (!(req.method === 'GET' && (req.url ?? '').split('?')[0] === MCP_PATH)) {
      inflight++;
      res.once('close', () => {
        if (--inflight === 0) drained?.();
      });
    }
    handle(req, res).catch((e: unknown) => {
      // An overloaded database (every pooled connection busy) is temporary: the client retries.
      if (isLociError(e) && e.code === 'PG_BUSY')
        return rpcError(res, 503, -32000, `${e.message}`, { 'retry-after': '1' });
      logger.log('error', 'MCP HTTP request failed', { error: (e as Error)?.stack ?? String(e) });
      rpcError(res, 500, -32603, 'internal server error');
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', (e: NodeJS.ErrnoException) =>
      reject(
        createError(
          'MCP_LISTEN_FAILED',
          {
            host,
            port,
            reason:
              e.code === 'EADDRINUSE' ? 'the port is in use' : e.code === 'EACCES' ? 'permission denied' : e.message,
          },
          e,
        ),
      ),
    );
    http.listen(port, host, () => resolve());
  }).catch(async (e: unknown) => {
    if (owned) await palace.close();
    throw e;
  });
  port = (http.address() as AddressInfo).port;
  const shown = host.includes(':') ? `[${host}]` : host;
  const url = `http://${shown}:${port}${MCP_PATH}`;
  logger.log('info', `loci mcp serving over HTTP at ${url}${token ? ' (bearer token required)' : ''}`);

  const sweeper = setInterval(sweep, Math.min(60_000, Math.max(50, idleMs / 2)));
  sweeper.unref();

  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      closingNow = true;
      clearInterval(sweeper);
      const stopped = new Promise<void>((r) => http.close(() => r()));
      http.closeIdleConnections();
      if (inflight > 0)
        await new Promise<void>((r) => {
          drained = r;
          setTimeout(r, opts.drainMs ?? 30_000).unref();
        });
      for (const { transport } of [...sessions.values()]) await transport.close().catch(() => {});
      sessions.clear();
      http.closeAllConnections();
      await stopped;
      if (owned) await palace.close();
      resolveClosed();
    })());
  return { url, host, port, closed, close };
}
