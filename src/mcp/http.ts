/**
 * @module mcp/http
 * `loci mcp --http`: the server over Streamable HTTP (`POST/GET/DELETE /mcp`, one session per
 * client, each with its own SDK server over the one shared palace).
 *
 * Security: binds to 127.0.0.1 by default, with DNS-rebinding protection (the Host header must
 * name the loopback address). Binding to any other host requires a bearer token (`LOCI_TOKEN`;
 * MCP_TOKEN_REQUIRED otherwise). When a token is set, every request without
 * `Authorization: Bearer <token>` gets 401, whatever the host.
 */
import { randomUUID, timingSafeEqual, createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createError, openPalace, silentLogger, type Palace } from '../index.js';
import { createLociMcpServer, type LociMcpServer, type LociMcpServerOptions } from './server.js';

/** Options of {@link serveHttp}. */
export interface ServeHttpOptions extends LociMcpServerOptions {
  /** Interface to bind. Default `127.0.0.1`. Anything but loopback needs `token`. */
  host?: string;
  /** TCP port; 0 picks a free one. Default 5624. */
  port?: number;
  /** Bearer token every request must carry. Default: none (loopback only). */
  token?: string;
  /** Most concurrent sessions. Default 64. */
  maxSessions?: number;
  /** Largest accepted request body in bytes. Default 4 MiB. */
  maxBodyBytes?: number;
  /** A session without requests for this long is closed, in ms. Default 30 minutes. */
  idleSessionMs?: number;
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
export const DEFAULT_HTTP_PORT = 5624;
/** The endpoint path. */
export const MCP_PATH = '/mcp';

/** True for 127.0.0.0/8, ::1 and localhost. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

const digest = (s: string) => createHash('sha256').update(s).digest();

function rpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

function readBody(req: IncomingMessage, max: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) {
        reject(new RangeError(`request body over ${max} bytes`));
        req.destroy();
      } else parts.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

/** Serves the Loci tools over Streamable HTTP. */
export async function serveHttp(opts: ServeHttpOptions = {}): Promise<HttpServing> {
  const host = opts.host ?? '127.0.0.1';
  const token = opts.token ?? '';
  if (!isLoopback(host) && !token) throw createError('MCP_TOKEN_REQUIRED', { host });
  const logger = opts.logger ?? silentLogger;
  const maxSessions = opts.maxSessions ?? 64;
  const maxBody = opts.maxBodyBytes ?? 4 * 1024 * 1024;
  const owned = opts.palace === undefined;
  const palace: Palace = opts.palace ?? (await openPalace({ ...(opts.home ? { home: opts.home } : {}), logger }));
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; mcp: LociMcpServer; seen: number }>();
  const idleMs = opts.idleSessionMs ?? 30 * 60_000;
  const expected = token ? digest(`Bearer ${token}`) : undefined;
  let port = opts.port ?? DEFAULT_HTTP_PORT;

  const authorised = (req: IncomingMessage): boolean => {
    if (!expected) return true;
    const got = req.headers.authorization;
    return typeof got === 'string' && timingSafeEqual(digest(got), expected);
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (!authorised(req)) return rpcError(res, 401, -32001, 'unauthorised: send Authorization: Bearer <LOCI_TOKEN>', { 'www-authenticate': 'Bearer realm="loci"' });
    if (path !== MCP_PATH) return rpcError(res, 404, -32601, `not found: the MCP endpoint is ${MCP_PATH}`);
    const sid = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(sid) ? sid[0] : sid;
    let body: unknown;
    if (req.method === 'POST') {
      try {
        body = JSON.parse(await readBody(req, maxBody));
      } catch (e) {
        return e instanceof RangeError ? rpcError(res, 413, -32600, e.message) : rpcError(res, 400, -32700, 'parse error: the body is not JSON');
      }
    }
    if (sessionId) {
      const s = sessions.get(sessionId);
      if (!s) return rpcError(res, 404, -32001, 'session not found: start a new one with initialize');
      s.seen = Date.now();
      return s.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) return rpcError(res, 400, -32000, 'bad request: no valid session id (send initialize first)');
    if (sessions.size >= maxSessions) return rpcError(res, 503, -32000, `too many sessions (${maxSessions}); close some first`);
    const mcp = await createLociMcpServer({ ...opts, palace, logger });
    const loopback = isLoopback(host);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, { transport, mcp, seen: Date.now() }),
      ...(loopback ? { enableDnsRebindingProtection: true, allowedHosts: [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`] } : {}),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      void mcp.close();
    };
    await mcp.server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      logger.log('error', 'MCP HTTP request failed', { error: (e as Error)?.stack ?? String(e) });
      rpcError(res, 500, -32603, 'internal server error');
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', (e: NodeJS.ErrnoException) =>
      reject(createError('MCP_LISTEN_FAILED', { host, port, reason: e.code === 'EADDRINUSE' ? 'the port is in use' : e.code === 'EACCES' ? 'permission denied' : e.message }, e)),
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

  const sweep = setInterval(() => {
    for (const [id, s] of sessions) {
      if (Date.now() - s.seen < idleMs) continue;
      logger.log('info', `closing idle MCP session ${id}`);
      sessions.delete(id);
      void s.transport.close().catch(() => {});
    }
  }, Math.min(60_000, Math.max(50, idleMs / 2)));
  sweep.unref();

  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      clearInterval(sweep);
      for (const { transport } of [...sessions.values()]) await transport.close().catch(() => {});
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((r) => http.close(() => r()));
      if (owned) await palace.close();
      resolveClosed();
    })());
  return { url, host, port, closed, close };
}
