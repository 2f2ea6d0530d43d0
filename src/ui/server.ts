/**
 * @module ui/server
 * `loci ui`: a Hono app over one open palace, served by `@hono/node-server`. `/api/*` answers JSON
 * (shapes in `ui/api-types.ts`), `/assets/*` serves the page built into `dist/ui/assets` (no CDN:
 * everything the page loads comes from here), and every other GET path answers the page itself,
 * which routes on the URL (`/search?q=…`, `/drawer/<id>`, `/kg/<entity>`, …), so links can be
 * shared and bookmarked. Guards: see `ui/security.ts`.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Hono, type Context } from 'hono';
import { serve } from '@hono/node-server';
import {
  createError,
  isLociError,
  openPalace,
  processEnv,
  silentLogger,
  type Env,
  type Logger,
  type Palace,
} from '../internal.js';
import * as api from './api.js';
import type { ApiError, CorrectBody, InvalidateBody, MemoryEditBody, SessionInfo } from './api-types.js';
import { isLoopback } from '../core/loopback.js';
import { CSRF_HEADER, guards } from './security.js';

/** Options of {@link serveUi}. */
interface ServeUiOptions {
  /** Palace to serve (not closed by `close()`). Default: `openPalace({ home, env })`. */
  palace?: Palace;
  /** Palace folder when `palace` is not given. Default: `LOCI_HOME` or `~/.loci`. */
  home?: string;
  /** Interface to bind. Default `127.0.0.1`; anything else needs `token`. */
  host?: string;
  /** TCP port; 0 picks a free one. Default 5625. */
  port?: number;
  /** Access token (required off loopback). Default: none. */
  token?: string;
  /** The project folder (memory files, wake-up, recall). Default `process.cwd()`. */
  cwd?: string;
  /** Environment (settings). Default the process environment. */
  env?: Env;
  /** Folder holding the built page (`app.js`, `app.css`). Default: `dist/ui/assets` of this package. */
  assetsDir?: string;
  /** Package version shown by the page. Default ''. */
  version?: string;
  logger?: Logger;
}

/** A running UI server. */
export interface UiServing {
  /** e.g. `http://127.0.0.1:5625/` (with `?token=…` when a token is set). */
  readonly url: string;
  readonly port: number;
  /** Resolves once the server has shut down. */
  readonly closed: Promise<void>;
  /** Stops listening and closes the palace when it was opened here. Idempotent. */
  close(): Promise<void>;
}

/** Default port of `loci ui` (one above `loci mcp --http`). */
const DEFAULT_UI_PORT = 5625;

/** The built page: next to this module in `dist/ui/assets`, or the build output when run from `src/`. */
function defaultAssetsDir(): string {
  const here = fileURLToPath(new URL('./assets/', import.meta.url));
  return existsSync(here) ? here : fileURLToPath(new URL('../../dist/ui/assets/', import.meta.url));
}

const CONTENT_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
};

function loadAssets(dir: string): Map<string, { body: Uint8Array; type: string }> {
  const assets = new Map<string, { body: Uint8Array; type: string }>();
  for (const name of ['app.js', 'app.css', 'favicon.svg']) {
    const file = `${dir.replace(/\/?$/, '/')}${name}`;
    if (!existsSync(file)) {
      if (name === 'favicon.svg') continue;
      throw createError('UI_ASSETS_MISSING', { dir });
    }
    assets.set(name, { body: new Uint8Array(readFileSync(file)), type: CONTENT_TYPES[name.split('.').pop()!]! });
  }
  return assets;
}

const escapeAttr = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

function pageHtml(csrf: string, version: string): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<meta name="loci-csrf" content="${escapeAttr(csrf)}"><meta name="loci-version" content="${escapeAttr(version)}">` +
    '<title>Loci</title><link rel="icon" href="/assets/favicon.svg"><link rel="stylesheet" href="/assets/app.css">' +
    '</head><body><div id="app"></div><script type="module" src="/assets/app.js"></script></body></html>'
  );
}

/** Options of {@link createUiApp}. */
interface AppOptions {
  host: string;
  /** The listening port (read per request: known once listening). */
  port: () => number;
  token: string;
  assetsDir: string;
  version: string;
  logger: Logger;
}

/** HTTP status of a library error: 404 for a miss, 400 for a user error, else 500. */
function statusOf(e: unknown): 400 | 404 | 500 {
  if (!isLociError(e)) return 500;
  if (e.code.endsWith('_NOT_FOUND')) return 404;
  return e.category === 'user' ? 400 : 500;
}

/** Builds the Hono app over an API context. */
function createUiApp(ctx: api.ApiContext, o: AppOptions) {
  const csrf = randomBytes(24).toString('base64url');
  const assets = loadAssets(o.assetsDir);
  const app = new Hono();
  app.use('*', guards({ host: o.host, port: o.port, token: o.token, csrf }));
  app.onError((e, c) => {
    const status = statusOf(e);
    const code = isLociError(e) ? e.code : 'INTERNAL';
    const message = isLociError(e) ? e.message : 'internal error (see the terminal running `loci ui`)';
    if (status === 500) o.logger.log('error', 'loci ui request failed', { error: String(e) });
    const answer: ApiError = { error: { code, message } };
    return c.json(answer, status);
  });
  const q = (c: Context, name: string) => c.req.query(name) || undefined;
  const body = async <T>(c: Context): Promise<T> => {
    try {
      const v: unknown = await c.req.json();
      if (v && typeof v === 'object' && !Array.isArray(v)) return v as T;
    } catch {
      // answered below
    }
    throw createError('INVALID_ARGUMENT', { name: 'body', value: '(request body)', expected: 'a JSON object' });
  };

  app.get('/api/session', (c) => {
    const where = api.memoryWhere(ctx);
    const info: SessionInfo = {
      home: ctx.palace.home,
      version: o.version,
      memoryDir: where.dir,
      memoryKind: where.kind,
    };
    return c.json(info);
  });
  app.get('/api/palace', async (c) => c.json(await api.palaceTree(ctx)));
  app.get('/api/drawers', async (c) =>
    c.json(
      await api.drawerPage(ctx, {
        wing: q(c, 'wing'),
        room: q(c, 'room'),
        offset: q(c, 'offset'),
        limit: q(c, 'limit'),
      }),
    ),
  );
  app.get('/api/drawer/:id', async (c) => c.json(await api.drawerView(ctx, c.req.param('id'))));
  app.get('/api/search', async (c) =>
    c.json(
      await api.search(ctx, {
        q: q(c, 'q'),
        wing: q(c, 'wing'),
        room: q(c, 'room'),
        hall: q(c, 'hall'),
        since: q(c, 'since'),
        until: q(c, 'until'),
        limit: q(c, 'limit'),
      }),
    ),
  );
  app.get('/api/kg', async (c) => c.json(await api.kgIndex(ctx, { prefix: q(c, 'prefix'), cursor: q(c, 'cursor') })));
  app.get('/api/kg/:entity', async (c) => c.json(await api.kgView(ctx, c.req.param('entity'), q(c, 'asOf'))));
  app.post('/api/kg/invalidate', async (c) => c.json(await api.invalidateFact(ctx, await body<InvalidateBody>(c))));
  app.post('/api/kg/correct', async (c) => c.json(await api.correctFact(ctx, await body<CorrectBody>(c))));
  app.get('/api/memory', (c) => c.json(api.memoryList(ctx)));
  app.get('/api/memory/:name', (c) => c.json(api.memoryView(ctx, c.req.param('name'))));
  app.put('/api/memory/:name', async (c) =>
    c.json(api.memoryEdit(ctx, c.req.param('name'), await body<MemoryEditBody>(c))),
  );
  app.delete('/api/memory/:name', (c) => c.json(api.memoryForget(ctx, c.req.param('name'))));
  app.get('/api/agents/wake-up', async (c) => c.json(await api.wakeUpView(ctx, q(c, 'wing'))));
  app.get('/api/agents/recall', async (c) => c.json(await api.recallView(ctx, q(c, 'prompt') ?? '')));
  app.get('/api/agents/hooks', async (c) => c.json(await api.hooksView(ctx)));
  app.get('/api/status', async (c) => c.json(await api.statusView(ctx)));
  app.all('/api/*', (c) => c.json({ error: { code: 'NOT_FOUND', message: `no API route ${c.req.path}` } }, 404));

  app.get('/assets/:name', (c) => {
    const a = assets.get(c.req.param('name'));
    if (!a) return c.text('not found', 404);
    return c.body(a.body as Uint8Array<ArrayBuffer>, 200, { 'content-type': a.type, 'cache-control': 'no-cache' });
  });
  const page = pageHtml(csrf, o.version);
  app.get('*', (c) => c.html(page));
  return { app, csrf, csrfHeader: CSRF_HEADER };
}

/** Serves the web UI until `close()`. Throws UI_TOKEN_REQUIRED off loopback without a token, UI_LISTEN_FAILED. */
export async function serveUi(opts: ServeUiOptions = {}): Promise<UiServing> {
  const host = opts.host ?? '127.0.0.1';
  const token = opts.token ?? '';
  if (!isLoopback(host) && !token) throw createError('UI_TOKEN_REQUIRED', { host });
  const env = opts.env ?? processEnv();
  const logger = opts.logger ?? silentLogger;
  const owned = opts.palace === undefined;
  const palace = opts.palace ?? (await openPalace({ ...(opts.home ? { home: opts.home } : {}), env, logger }));
  const ctx: api.ApiContext = { palace, env, cwd: opts.cwd ?? process.cwd() };
  let port = opts.port ?? DEFAULT_UI_PORT;
  let built: ReturnType<typeof createUiApp>;
  try {
    built = createUiApp(ctx, {
      host,
      port: () => port,
      token,
      assetsDir: opts.assetsDir ?? defaultAssetsDir(),
      version: opts.version ?? '',
      logger,
    });
  } catch (e) {
    if (owned) await palace.close();
    throw e;
  }
  const server = serve({ fetch: built.app.fetch, port, hostname: host });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', () => resolve());
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(
        createError(
          'UI_LISTEN_FAILED',
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
  }).catch(async (e: unknown) => {
    if (owned) await palace.close();
    throw e;
  });
  port = (server.address() as AddressInfo).port;
  const shown = host.includes(':') ? `[${host}]` : host;
  const url = `http://${shown}:${port}/${token ? `?token=${encodeURIComponent(token)}` : ''}`;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      if ('closeAllConnections' in server) server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      if (owned) await palace.close();
      resolveClosed();
    })());
  return { url, port, closed, close };
}
