/**
 * @module cli/main
 * Argument parsing for `loci`. Each command lives in `commands/<verb>.ts` and calls the library
 * through its doors. `runCli` is the programmatic entry used by tests.
 *
 * Start-up: this module loads no library module. Only the module of the command being run is
 * imported (see `commands/index.ts`); the other commands are listed for `--help` from their help
 * lines alone, and the error catalogue is loaded when an error is reported. A command whose module
 * exports a `direct` form (`loci search`) runs without commander when its argv is in the plain
 * forms of `cli/argv.ts`; everything else goes through the commander program (`cli/program.ts`).
 */
import type { LociError } from '../core/errors.js';
import type { Env } from '../core/env.js';
import { parseDirect } from './argv.js';
import { COMMANDS } from './commands/index.js';
import { EXIT, type CliContext, type CliIO } from './context.js';

function readStdinAll(): Promise<string> {
  return new Promise((resolve, reject) => {
    if (process.stdin.isTTY) return resolve('');
    const parts: Buffer[] = [];
    process.stdin.on('data', (c: Buffer) => parts.push(c));
    process.stdin.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    process.stdin.on('error', reject);
  });
}

/** The real process IO, with the environment `bin/loci.js` hands over. */
function processIO(env: Env): CliIO {
  return {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    isTTY: Boolean(process.stdout.isTTY),
    stderrColumns: process.stderr.isTTY ? (process.stderr.columns ?? 80) : undefined,
    readStdin: readStdinAll,
    env,
    cwd: process.cwd(),
  };
}

/** Global options that take a value (skipped when looking for the command name). */
const VALUE_OPTIONS = new Set(['--home', '--server', '--database-url']);

/**
 * The top-level command `argv` runs (`loci --home x search …` → `search`; `loci help kg` → `kg`),
 * or undefined when it names none (`loci --help`, `loci --version`).
 */
export function invokedCommand(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') return argv[i + 1];
    if (VALUE_OPTIONS.has(a)) i++;
    else if (!a.startsWith('-')) return a === 'help' && i + 1 < argv.length ? argv[i + 1] : a;
  }
  return undefined;
}

/** Prints an error in the documented one-line form and returns the exit code. */
function report(io: CliIO, e: LociError): number {
  io.stderr(`loci: ${e.message} [${e.code}]\n`);
  return e.category === 'user' ? EXIT.usage : EXIT.failure;
}

/**
 * Runs the command of `argv` without commander when its module has a `direct` form and the argv is
 * in the plain forms (see `cli/argv.ts`). Returns false when it did not run (commander will).
 */
async function runDirect(argv: string[], io: CliIO, setExit: (code: number) => void, wanted: string): Promise<boolean> {
  const entry = COMMANDS.find((m) => m.commands.some((c) => c.name === wanted));
  if (!entry || argv.includes('--help') || argv.includes('-h')) return false;
  const { direct } = await entry.load();
  const parsed = direct?.name === wanted ? parseDirect(argv, direct.name, direct.options, direct.maxArgs) : undefined;
  if (!direct || !parsed) return false;
  const ctx: CliContext = { io, globals: () => (parsed.home !== undefined ? { home: parsed.home } : {}), setExit };
  await direct.run(parsed.args, parsed.opts, ctx);
  return true;
}

/** Runs the CLI with `argv` (without `node` and the script) and returns the exit code. */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  let code: number = EXIT.ok;
  const setExit = (c: number) => {
    code = Math.max(code, c);
  };
  try {
    const wanted = invokedCommand(argv);
    if (wanted !== undefined && (await runDirect(argv, io, setExit, wanted))) return code;
    const { runProgram } = await import('./program.js');
    const r = await runProgram(argv, io, setExit, wanted);
    if (typeof r === 'number') return r;
    if (r !== undefined) return report(io, r);
  } catch (e) {
    const { createError, isLociError } = await import('../core/errors.js');
    if (isLociError(e)) return report(io, e);
    // A bug: one line with its message; the stack only on request (LOCI_DEBUG=1), on the lines after.
    const err = e instanceof Error ? e : new Error(String(e));
    const code = report(io, createError('INTERNAL', { what: `unexpected ${err.name}: ${err.message}` }));
    const { readSettings } = await import('../core/env.js');
    if (readSettings(io.env).debug) io.stderr(`${err.stack ?? ''}\n`);
    return code;
  }
  return code;
}

/**
 * Entry used by `bin/loci.js`, which hands over the process's environment (read only through
 * `core/env.ts`; not imported here, so that `--help` loads no library module).
 */
export async function main(argv: string[], env: Env): Promise<number> {
  // A closed pipe (e.g. `loci search … | head`) must not print a stack trace.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
  });
  return runCli(argv, processIO(env));
}
