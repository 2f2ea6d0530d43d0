/**
 * @module hooks/client
 * The hook side of the warm hook server (`server.ts`).
 *
 * Why a server: a hook that recalls (user-prompt-submit) or computes a wake-up must load the
 * library and open SQLite — ~120 modules and better-sqlite3, about 3× the start-up of Node itself.
 * A detached per-home server keeps them loaded and the palace open; a hook then only connects to
 * a Unix socket (`<LOCI_HOME>/run/hooks.sock`, folder mode 0700; a named pipe on Windows), sends
 * one JSON line and reads one back. Anything else — no server, a refused or stale socket, a server
 * of another build or embedder, no answer within 3 s — falls back to doing the work in the hook
 * process, and (re)starts a server for the next hook. The server exits after 15 idle minutes
 * (`LOCI_HOOK_SERVER_IDLE_MS`). `LOCI_HOOK_SERVER=0` turns it off. Node built-ins only (fast path).
 */
import { existsSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSettings, sha256, type Logger } from './light-core.js';
import { spawnDetached } from './queue.js';

/** Variables a request carries: they change what the answer is. */
const SERVER_ENV_KEYS = [
  'HOME',
  'USERPROFILE',
  'LOCI_EMBEDDER',
  'CLAUDE_CONFIG_DIR',
  'CLAUDE_CODE_PROJECT_DIR_NAME',
  'CLAUDE_CODE_DISABLE_AUTO_MEMORY',
] as const;

/** Time allowed to the server to answer before the hook does the work itself, in ms. */
const SERVER_TIMEOUT_MS = 3_000;

/** One request. */
export interface ServerRequest {
  v: 1;
  /** Build of the hook code (see {@link buildId}); a server of another build refuses and exits. */
  build: string;
  event: 'user-prompt-submit' | 'session-start';
  /** The hook's stdin, as received. */
  stdin: string;
  /** The hook process's working directory. */
  cwd: string;
  env: Partial<Record<(typeof SERVER_ENV_KEYS)[number], string>>;
}

/** One answer: the hook's stdout, or why the server did not answer. */
export type ServerReply = { ok: true; out: string } | { ok: false; reason: string };

/** True unless `LOCI_HOOK_SERVER=0`. */
export function serverEnabled(env: NodeJS.ProcessEnv): boolean {
  return readSettings(env).hookServer;
}

/** The socket of a home, or null when its path is too long for a Unix socket (no server then). */
export function serverSocketPath(home: string): string | null {
  if (process.platform === 'win32') return `\\\\.\\pipe\\loci-hooks-${sha256(home).slice(0, 16)}`;
  const p = join(home, 'run', 'hooks.sock');
  return Buffer.byteLength(p) <= 100 ? p : null;
}

let build: string | undefined;
/**
 * Identifies the installed hook code: size and mtime of this module's file, of the tsc build's
 * `dist/.tsbuildinfo` and of the bundles' `dist/bundle/inputs.json` (an incremental build rewrites
 * only changed files, so this module's file alone could outlive a rebuild). Taken once per process:
 * a server takes it when it starts (see `server.ts`).
 */
export function buildId(): string {
  if (build === undefined) {
    const files = [import.meta.url, new URL('../.tsbuildinfo', import.meta.url).href];
    files.push(new URL('../bundle/inputs.json', import.meta.url).href);
    build = files
      .map((u) => {
        try {
          const st = statSync(fileURLToPath(u));
          return `${st.size}:${Math.floor(st.mtimeMs)}`;
        } catch {
          return '-';
        }
      })
      .join('|');
  }
  return build;
}

/** The request variables of `env`. */
export function requestEnv(env: NodeJS.ProcessEnv): ServerRequest['env'] {
  const out: ServerRequest['env'] = {};
  for (const k of SERVER_ENV_KEYS) if (env[k] !== undefined) out[k] = env[k];
  return out;
}

/** Sends one request; never throws (`ok: false` with a reason: absent, refused, timeout, build, env, error…). */
export function askServer(
  home: string,
  req: Omit<ServerRequest, 'v' | 'build'>,
  timeoutMs = SERVER_TIMEOUT_MS,
): Promise<ServerReply> {
  const path = serverSocketPath(home);
  if (!path) return Promise.resolve({ ok: false, reason: 'socket path too long' });
  if (process.platform !== 'win32' && !existsSync(path)) return Promise.resolve({ ok: false, reason: 'absent' });
  return new Promise((resolve) => {
    let settled = false;
    let data = '';
    const sock = connect(path);
    const done = (r: ServerReply) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      sock.destroy();
      resolve(r);
    };
    const timer = setTimeout(() => done({ ok: false, reason: 'timeout' }), timeoutMs);
    sock.setEncoding('utf8');
    sock.on('connect', () => sock.write(`${JSON.stringify({ v: 1, build: buildId(), ...req })}\n`));
    sock.on('data', (d: string) => {
      data += d;
      const nl = data.indexOf('\n');
      if (nl < 0) return;
      try {
        const r = JSON.parse(data.slice(0, nl)) as ServerReply;
        done(
          r && typeof r === 'object' && (r.ok ? typeof r.out === 'string' : typeof r.reason === 'string')
            ? r
            : { ok: false, reason: 'bad reply' },
        );
      } catch {
        done({ ok: false, reason: 'bad reply' });
      }
    });
    sock.on('error', (e: NodeJS.ErrnoException) =>
      done({
        ok: false,
        reason: e.code === 'ECONNREFUSED' || e.code === 'ENOENT' ? 'refused' : `error ${e.code ?? e.message}`,
      }),
    );
    sock.on('close', () => done({ ok: false, reason: 'closed' }));
  });
}

/** Starts a detached server for `home` (it exits at once if another one is listening). Never throws. */
export function spawnServer(home: string, log: Logger, env: NodeJS.ProcessEnv): void {
  spawnDetached('hook-server', home, log, env);
}
