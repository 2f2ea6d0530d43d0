/**
 * @module hooks/server
 * The warm hook server (`node dist/hooks/main.js hook-server`, started detached by the hooks; see
 * `client.ts` for why and for the client side). One per Loci home: it listens on
 * `<LOCI_HOME>/run/hooks.sock`, keeps the library loaded and the palace open, and answers
 * `user-prompt-submit` and `session-start` requests exactly as the hook process would (same
 * `answers.ts` code; memory files, session state and the palace are read fresh on every request).
 *
 * - Uniqueness: a second server finds the socket answering and exits; a socket left by a dead
 *   server (connection refused) is removed and taken over.
 * - Staleness: a request from another build makes the server answer `build` and exit (the hook
 *   falls back and starts a new one); a request whose `LOCI_EMBEDDER` differs is answered `env`.
 *   The palace is reopened when `palace.db` is replaced, and dropped when it disappears.
 * - Lifetime: exits after `LOCI_HOOK_SERVER_IDLE_MS` (default 15 min) without a request, when its
 *   home disappears, or on SIGTERM/SIGINT; the socket is removed on exit.
 */
import { chmodSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { dirname } from 'node:path';
import { homePaths, readSettings } from '../core/env.js';
import type { Logger } from '../core/logger.js';
import { openPalace, type Palace } from '../palace/index.js';
import { promptAnswer, sessionStartAnswer, type PalaceSource } from './answers.js';
import { buildId, serverSocketPath, type ServerReply, type ServerRequest } from './client.js';
import { errorFields } from './log.js';
import { parseHookInput } from './protocol.js';

/** Options of {@link serveHooks}. */
interface HookServerOptions {
  home: string;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  /** Idle time before exiting, in ms. Default `LOCI_HOOK_SERVER_IDLE_MS` or 900,000; 1,000 … 86,400,000. */
  idleMs?: number | undefined;
}

/** Default idle lifetime of the server, in ms. */
const SERVER_IDLE_MS = 15 * 60_000;

function idleOf(o: HookServerOptions): number {
  const v = o.idleMs ?? readSettings(o.env).hookServerIdleMs;
  return Number.isFinite(v) && v > 0 ? Math.min(86_400_000, Math.max(1_000, v)) : SERVER_IDLE_MS;
}

function alive(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(path);
    s.on('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });
}

/** A palace shared by the requests, reopened when the database file is replaced. */
function sharedPalace(o: HookServerOptions): PalaceSource & { close(): Promise<void> } {
  let open: { palace: Palace; ino: number } | undefined;
  const db = homePaths(o.home).db;
  const drop = async () => {
    const p = open?.palace;
    open = undefined;
    await p?.close().catch(() => {});
  };
  return {
    async acquire() {
      let ino: number | undefined;
      try {
        ino = statSync(db).ino;
      } catch {
        ino = undefined;
      }
      if (open && open.ino !== ino) await drop();
      if (ino === undefined) return { palace: undefined, release: async () => {} };
      if (!open) open = { palace: await openPalace({ home: o.home, logger: o.logger }), ino };
      return { palace: open.palace, release: async () => {} };
    },
    close: drop,
  };
}

/** A request line as a {@link ServerRequest}, or why it is not one. */
function parseRequest(line: string): ServerRequest | string {
  let req: ServerRequest;
  try {
    req = JSON.parse(line) as ServerRequest;
  } catch (e) {
    return (e as Error).message;
  }
  const ok = !!req && req.v === 1 && (req.event === 'user-prompt-submit' || req.event === 'session-start');
  return ok ? req : 'not a request';
}

/** Runs the server until it exits (see the module comment). Resolves when it has stopped. */
export async function serveHooks(o: HookServerOptions): Promise<void> {
  const path = serverSocketPath(o.home);
  if (!path) return;
  if (process.platform !== 'win32') {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    chmodSync(dirname(path), 0o700);
    if (existsSync(path)) {
      if (await alive(path)) return o.logger.log('debug', 'hook server: another server is listening; exiting');
      rmSync(path, { force: true });
    }
  }
  // The build this server runs, taken now: taken at the first request, after an upgrade had
  // rewritten the files, it named the new build while the old code kept answering.
  const build = buildId();
  const palaces = sharedPalace(o);
  const idleMs = idleOf(o);
  const embedder = readSettings(o.env).embedder ?? '';
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let finish: () => void = () => {};
  const server = createServer();
  const stop = (why: string) => {
    if (stopped) return;
    stopped = true;
    clearTimeout(timer);
    clearInterval(watch);
    o.logger.log('info', 'hook server stopping', { why });
    server.close();
    if (process.platform !== 'win32') rmSync(path, { force: true });
    void palaces.close().finally(() => finish());
  };
  const touch = () => {
    clearTimeout(timer);
    timer = setTimeout(() => stop('idle'), idleMs);
  };
  const watch = setInterval(() => {
    if (!existsSync(o.home)) stop('home removed');
  }, 30_000);
  watch.unref();

  const answer = async (req: ServerRequest): Promise<ServerReply & { later?: (() => Promise<void>)[] }> => {
    if (req.build !== build) {
      setImmediate(() => stop('another build'));
      return { ok: false, reason: 'build' };
    }
    if ((readSettings(req.env ?? {}).embedder ?? '') !== embedder) return { ok: false, reason: 'env' };
    const env = { ...o.env, ...req.env };
    const input = parseHookInput(req.event, req.stdin);
    const later: (() => Promise<void>)[] = [];
    const ctx = {
      home: o.home,
      env,
      cwd: req.cwd,
      log: o.logger,
      palaces,
      defer: (w: () => Promise<void>) => void later.push(w),
    };
    const out =
      req.event === 'user-prompt-submit' ? await promptAnswer(input, ctx) : await sessionStartAnswer(input, ctx);
    return { ok: true, out, later };
  };

  server.on('connection', (sock: Socket) => {
    touch();
    let data = '';
    sock.setEncoding('utf8');
    sock.on('error', () => {});
    sock.on('data', (d: string) => {
      data += d;
      const nl = data.indexOf('\n');
      if (nl < 0) return;
      const req = parseRequest(data.slice(0, nl));
      if (typeof req === 'string') {
        sock.end(`${JSON.stringify({ ok: false, reason: `bad request: ${req}` })}\n`);
        return;
      }
      answer(req)
        .catch((e: unknown): ServerReply => {
          o.logger.log('error', 'hook server: answer failed (the hook answers itself)', {
            event: req.event,
            ...errorFields(e),
          });
          return { ok: false, reason: 'error' };
        })
        .then(async (r) => {
          const { later = [], ...reply } = r as ServerReply & { later?: (() => Promise<void>)[] };
          sock.end(`${JSON.stringify(reply)}\n`);
          for (const work of later)
            await work().catch((e: unknown) => o.logger.log('warn', 'hook server: bookkeeping failed', errorFields(e)));
        });
    });
  });

  await new Promise<void>((resolve) => {
    finish = resolve;
    server.on('error', (e: NodeJS.ErrnoException) => {
      o.logger.log(e.code === 'EADDRINUSE' ? 'debug' : 'warn', 'hook server: cannot listen', {
        path,
        error: e.message,
      });
      stopped = true;
      clearInterval(watch);
      resolve();
    });
    server.listen(path, () => {
      if (process.platform !== 'win32') chmodSync(path, 0o600);
      o.logger.log('info', 'hook server listening', { path, idleMs });
      touch();
    });
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
}
