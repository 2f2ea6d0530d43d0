/**
 * @module serve/server
 * `loci serve`: the team server over one palace (whatever `openPalace` opens). MCP over Streamable
 * HTTP at `/mcp` and the JSON API at `/api/v1/…` share one listener (`mcp/http.ts`): Origin and
 * Host checks, 413 for bodies over the limit, idle sessions closed and the least recently used idle
 * one yielding its slot. Every request carries a member's bearer token (hashed lookup; 401
 * otherwise); each MCP session and API call runs over that member's guarded palace (rights per
 * wing, 403 otherwise; writes audited). The memory-folder MCP tools are left out: a member's memory
 * folder is on their machine, shared through `loci memory sync`.
 *
 * Shutdown (`close()`, SIGTERM/SIGINT in the CLI): new requests get 503, requests in flight finish,
 * then the palace closes — an acknowledged write was committed before its answer was sent.
 */
import type { IncomingMessage } from 'node:http';
import { silentLogger, type Logger } from '../core/logger.js';
import type { Env } from '../core/env.js';
import { serveMcpHttp, type HttpServing } from '../mcp/index.js';
import { openPalace, type Palace } from '../palace/index.js';
import { openTeam, type TeamPrincipal } from '../team/index.js';
import { apiRoutes } from './api.js';

/** Default port of `loci serve` (one above `loci mcp --http`). */
export const DEFAULT_SERVE_PORT = 5625;

/** The MCP tools a team server does not offer (they act on the server machine's memory folder). */
/** Connections of the team server's PostgreSQL pool, unless `LOCI_PG_POOL` says otherwise. */
const SERVE_PG_POOL = 16;

const OMITTED_TOOLS = [
  'loci_memory_list',
  'loci_memory_read',
  'loci_memory_write',
  'loci_memory_edit',
  'loci_memory_forget',
  'loci_memory_where',
  'loci_memory_recall',
];

/** Options of {@link startTeamServer}. */
interface TeamServerOptions {
  /** Palace folder. Default `LOCI_HOME` or `~/.loci`. */
  home?: string;
  /** Environment for the palace settings. Default the process's. */
  env?: Env;
  /** Interface to bind. Default `127.0.0.1`; a public one is fine (every request needs a token). */
  host?: string;
  /** TCP port; 0 picks a free one. Default {@link DEFAULT_SERVE_PORT}. */
  port?: number;
  /** Browser origins allowed besides loopback ones. Default none. */
  allowedOrigins?: readonly string[];
  /** Host header values allowed (e.g. `loci.example:5625`). Default: any on a public interface. */
  allowedHosts?: readonly string[];
  /** MCP sessions idle this long are closed, in ms. Default 5 minutes. */
  idleSessionMs?: number;
  /** Most concurrent MCP sessions. Default 64. */
  maxSessions?: number;
  /** Most MCP sessions one token may hold (its least recently used idle one yields). Default 8. */
  maxSessionsPerToken?: number;
  /** Largest request body, bytes (413 above). Default 4 MiB. */
  maxBodyBytes?: number;
  /** Diagnostics (never stdout). Default silent. */
  logger?: Logger;
  /** Working directory of the MCP tools. Default `process.cwd()`. */
  cwd?: string;
}

/** Starts the team server; resolves once it listens. */
export async function startTeamServer(opts: TeamServerOptions = {}): Promise<HttpServing> {
  const logger = opts.logger ?? silentLogger;
  const palace = await openPalace({
    ...(opts.home ? { home: opts.home } : {}),
    ...(opts.env ? { env: opts.env } : {}),
    logger,
    // A team's requests share the pool: more connections than one user's CLI, and a longer wait for
    // a free one before a request is answered 503 (PG_BUSY) with Retry-After.
    pgPool: { size: SERVE_PG_POOL, waitMs: 30_000 },
  });
  try {
    const team = await openTeam(palace);
    const callers = new WeakMap<IncomingMessage, { who: TeamPrincipal; palace: Palace }>();
    const serving = await serveMcpHttp({
      palace,
      logger,
      ...(opts.env ? { env: opts.env as NodeJS.ProcessEnv } : {}),
      ...(opts.cwd ? { cwd: opts.cwd } : {}),
      host: opts.host ?? '127.0.0.1',
      port: opts.port ?? DEFAULT_SERVE_PORT,
      ...(opts.allowedOrigins ? { allowedOrigins: opts.allowedOrigins } : {}),
      ...(opts.allowedHosts ? { allowedHosts: opts.allowedHosts } : {}),
      ...(opts.idleSessionMs ? { idleSessionMs: opts.idleSessionMs } : {}),
      ...(opts.maxSessions ? { maxSessions: opts.maxSessions } : {}),
      maxSessionsPerCaller: opts.maxSessionsPerToken ?? 8,
      ...(opts.maxBodyBytes ? { maxBodyBytes: opts.maxBodyBytes } : {}),
      omitTools: OMITTED_TOOLS,
      authenticate: async (req) => {
        const who = await team.authenticate(req.headers.authorization);
        if (!who) return undefined;
        const guarded = team.guard(who);
        callers.set(req, { who, palace: guarded });
        return { id: who.tokenId, palace: guarded };
      },
      routes: apiRoutes(team, callers, logger),
    });
    let resolveClosed!: () => void;
    const closed = new Promise<void>((r) => (resolveClosed = r));
    let finished: Promise<void> | undefined;
    const close = () =>
      (finished ??= (async () => {
        await serving.close();
        await palace.close();
        resolveClosed();
      })());
    return { url: serving.url.replace(/\/mcp$/, ''), host: serving.host, port: serving.port, closed, close };
  } catch (e) {
    await palace.close();
    throw e;
  }
}
