/**
 * @module serve/api
 * The team server's JSON API (`POST /api/v1/<op>`), the protocol of the CLI's remote mode: each
 * operation parses its body, calls the member's guarded palace or the team operations, and answers
 * JSON. Errors answer `{ error: { code, category, message, details } }` with 401 (no valid token),
 * 403 (no right on the wing), 404 (unknown id), 413 (body over the limit), 400 (other bad input),
 * 503 with Retry-After (the database is overloaded: PG_BUSY; the client retries), 500 (anything else;
 * logged).
 *
 * | op | body | answer |
 * | --- | --- | --- |
 * | `whoami` | — | `{ user, token, grants }` |
 * | `search` | `{ query, options }` (`SearchOptions`) | `SearchResult` (wings narrowed to the readable ones) |
 * | `get`, `neighbours` | `{ id }`, `{ id, n }` | `{ drawer }`, `{ drawers }` |
 * | `wings`, `rooms`, `drawers`, `status` | —, `{ wing }`, `{ filter, opts }`, — | as the palace methods |
 * | `add` | `{ input }` (`DrawerInput`) | `{ id, added, redactions }` |
 * | `diary-write`, `diary-read` | `{ input }`, `{ agent, options }` | as the palace methods |
 * | `kg` | `{ method, args }`, method one of `REMOTE_GRAPH_METHODS` | the graph method's result |
 * | `memory-sync` | `MemorySyncRequest` | `MemorySyncResponse` |
 * | `mine-upload` | `{ wing, root, files: [{ path, text }] }` | the mining summary |
 * | `audit` | `{ after?, limit?, wing? }` | `{ entries }` (admin) |
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createError, isLociError, type LociError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { HttpRouteContext } from '../mcp/index.js';
import type { Palace } from '../palace/index.js';
import { API_PREFIX, REMOTE_GRAPH_METHODS, type Team, type TeamPrincipal } from '../team/index.js';

type Body = Record<string, unknown>;
type Op = (b: Body, palace: Palace, who: TeamPrincipal) => Promise<unknown>;

const obj = (v: unknown, name: string): Body => {
  if (v === undefined) return {};
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw createError('INVALID_ARGUMENT', { name, value: v, expected: 'a JSON object' });
  return v as Body;
};
const str = (v: unknown, name: string): string => {
  if (typeof v !== 'string' || v === '') throw createError('INVALID_ARGUMENT', { name, value: v, expected: 'text' });
  return v;
};

/** The operations, by name. */
function operations(team: Team): Record<string, Op> {
  return {
    whoami: async (_b, _p, who) => ({ user: who.user, token: who.tokenId, grants: who.grants }),
    search: async (b, p) => {
      const o = obj(b['options'], 'options');
      return p.search(str(b['query'], 'query'), {
        ...o,
        limit: Math.min(100, Math.max(1, Number(o['limit'] ?? 10) || 10)),
      });
    },
    get: async (b, p) => ({ drawer: (await p.get(str(b['id'], 'id'))) ?? null }),
    neighbours: async (b, p) => ({ drawers: await p.neighbours(str(b['id'], 'id'), Number(b['n'] ?? 1)) }),
    wings: async (_b, p) => p.listWings(),
    rooms: async (b, p) => p.listRooms(b['wing'] === undefined ? undefined : str(b['wing'], 'wing')),
    drawers: async (b, p) => {
      const o = obj(b['opts'], 'opts');
      return p.listDrawers(obj(b['filter'], 'filter'), {
        ...o,
        limit: Math.min(1000, Number(o['limit'] ?? 100) || 100),
      });
    },
    add: async (b, p) => p.addDrawer(obj(b['input'], 'input') as never),
    status: async (_b, p) => p.status(),
    'diary-write': async (b, p) => p.diaryWrite(obj(b['input'], 'input') as never),
    'diary-read': async (b, p) => p.diaryRead(str(b['agent'], 'agent'), obj(b['options'], 'options')),
    kg: async (b, p) => {
      const method = str(b['method'], 'method');
      if (!(REMOTE_GRAPH_METHODS as readonly string[]).includes(method))
        throw createError('INVALID_ARGUMENT', {
          name: 'method',
          value: method,
          expected: REMOTE_GRAPH_METHODS.join(', '),
        });
      const args = Array.isArray(b['args']) ? (b['args'] as unknown[]) : [];
      const g = (await p.graph()).graph as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
      return (await g[method]!(...args)) ?? null;
    },
    'memory-sync': async (b, _p, who) =>
      team.memorySync(who, {
        project: str(b['project'], 'project'),
        changes: Array.isArray(b['changes']) ? (b['changes'] as never) : [],
        known: obj(b['known'], 'known') as Record<string, number>,
        dryRun: b['dryRun'] === true,
      }),
    'mine-upload': async (b, _p, who) =>
      team.mineUpload(who, {
        wing: str(b['wing'], 'wing'),
        root: str(b['root'], 'root'),
        files: Array.isArray(b['files']) ? (b['files'] as never) : [],
      }),
    audit: async (b, _p, who) => ({
      entries: await team.audit(who, {
        ...(typeof b['after'] === 'number' ? { after: b['after'] } : {}),
        ...(typeof b['limit'] === 'number' ? { limit: Math.min(1000, b['limit']) } : {}),
        ...(typeof b['wing'] === 'string' ? { wing: b['wing'] } : {}),
      }),
    }),
  };
}

/** The HTTP status of a failure. */
function statusOf(e: LociError): number {
  switch (e.code) {
    case 'TEAM_UNAUTHORISED':
      return 401;
    case 'TEAM_FORBIDDEN':
      return 403;
    case 'MCP_MESSAGE_TOO_LARGE':
      return 413;
    case 'DRAWER_NOT_FOUND':
    case 'KG_ENTITY_NOT_FOUND':
      return 404;
    case 'PG_BUSY':
      return 503;
    default:
      return e.category === 'user' ? 400 : 500;
  }
}

function send(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}

/**
 * The route handler of the JSON API: answers `POST /api/v1/<op>`, resolves false for other paths.
 * `callers` maps each authenticated request to its principal and guarded palace.
 */
export function apiRoutes(
  team: Team,
  callers: WeakMap<IncomingMessage, { who: TeamPrincipal; palace: Palace }>,
  logger: Logger,
) {
  const ops = operations(team);
  return async (req: IncomingMessage, res: ServerResponse, ctx: HttpRouteContext): Promise<boolean> => {
    if (!ctx.path.startsWith(`${API_PREFIX}/`)) return false;
    const name = ctx.path.slice(API_PREFIX.length + 1);
    const op = Object.hasOwn(ops, name) ? ops[name] : undefined;
    const caller = callers.get(req);
    if (!op || !caller) return false;
    if (req.method !== 'POST') {
      send(res, 405, { error: { code: 'INVALID_ARGUMENT', message: 'use POST' } }, { allow: 'POST' });
      return true;
    }
    try {
      const raw = await ctx.readBody();
      let body: unknown;
      try {
        body = raw.trim() ? JSON.parse(raw) : {};
      } catch {
        throw createError('INVALID_ARGUMENT', { name: 'request body', value: raw.slice(0, 40), expected: 'JSON' });
      }
      send(res, 200, (await op(obj(body, 'request body'), caller.palace, caller.who)) ?? null);
    } catch (e) {
      if (!isLociError(e)) {
        logger.log('error', `team API ${name} failed`, { error: (e as Error)?.stack ?? String(e) });
        send(res, 500, { error: createError('INTERNAL', { what: `${name} failed` }).toJSON() });
      } else {
        const status = statusOf(e);
        const headers: Record<string, string> =
          status === 413 ? { connection: 'close' } : status === 503 ? { 'retry-after': '1' } : {};
        send(res, status, { error: e.toJSON() }, headers);
      }
    }
    return true;
  };
}
