/**
 * @module hooks/process
 * The hook process (run by `main.ts`, the entry that `loci hooks install` writes into Claude Code's
 * settings, from the bundle `dist/bundle/hooks.js` when it is built, else from here):
 *
 * ```
 * node /abs/dist/hooks/main.js <event> [--home DIR]   # one hook (stdin: Claude Code's JSON)
 * node /abs/dist/hooks/main.js hook-worker [--home DIR]  # the detached archive worker
 * node /abs/dist/hooks/main.js hook-server [--home DIR]  # the warm hook server (client.ts)
 * ```
 *
 * It does what `loci hook <event>` / `loci hook-worker` do, without loading the CLI (commander,
 * every command module and the whole library): only the hook fast path is imported, and the library
 * only when the event needs it (see `light-core.ts`). Always exits 0; stdout carries only the
 * protocol answer; stderr stays empty unless `LOCI_HOOK_DEBUG=1`.
 */
import { processEnv, resolveHome, type Env } from './light-core.js';
import { errorFields, hookLogger } from './log.js';
import { runHook } from './run.js';

/** Reads all of stdin ('' for a terminal). */
function readStdin(): Promise<string> {
  return new Promise((resolve) => {
    if (process.stdin.isTTY) return resolve('');
    const parts: Buffer[] = [];
    process.stdin.on('data', (c: Buffer) => parts.push(c));
    process.stdin.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    process.stdin.on('error', () => resolve(Buffer.concat(parts).toString('utf8')));
  });
}

function parseArgs(argv: string[]): { command: string; home?: string } {
  let command = '';
  let home: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--home' && i + 1 < argv.length) home = argv[++i];
    else if (a.startsWith('--home=')) home = a.slice('--home='.length);
    else if (!command) command = a;
  }
  return home === undefined ? { command } : { command, home };
}

/** Runs the worker in this process (`hook-worker`). Never throws. */
async function workerProcess(home: string | undefined, env: Env = processEnv()): Promise<void> {
  const h = resolveHome(home, env);
  const log = hookLogger(h, env, { event: 'hook-worker' });
  try {
    const { runHookWorker } = await import('./worker.js');
    const s = await runHookWorker({ home: h, logger: log, env });
    log.log(s.failed ? 'warn' : 'debug', 'hook worker finished', { ...s });
  } catch (e) {
    log.log('error', 'hook worker crashed', errorFields(e));
  }
}

/** Runs the warm hook server in this process (`hook-server`) until it exits. Never throws. */
async function serverProcess(home: string | undefined, env: Env = processEnv()): Promise<void> {
  const h = resolveHome(home, env);
  const log = hookLogger(h, env, { event: 'hook-server' });
  try {
    const { serveHooks } = await import('./server.js');
    await serveHooks({ home: h, env, logger: log });
  } catch (e) {
    log.log('error', 'hook server crashed', errorFields(e));
  }
  process.exit(0);
}

/** The whole process: parse argv, run, print, exit 0. */
export async function hookMain(argv: string[]): Promise<void> {
  process.exitCode = 0;
  process.stdout.on('error', () => {});
  const { command, home } = parseArgs(argv);
  const env = processEnv();
  const fatal = (e: unknown) => {
    try {
      hookLogger(resolveHome(home, env), env, { event: command }).log(
        'error',
        'hook crashed (answered with no output)',
        errorFields(e),
      );
    } finally {
      process.exit(0);
    }
  };
  process.on('uncaughtException', fatal);
  process.on('unhandledRejection', fatal);
  if (command === 'hook-worker') return workerProcess(home, env);
  if (command === 'hook-server') return serverProcess(home, env);
  const out = await runHook(command, await readStdin(), { home, env });
  if (out) process.stdout.write(`${out}\n`);
}
