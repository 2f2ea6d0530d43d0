/**
 * @module cli/main
 * Argument parsing for `loci`. Each command lives in `commands/<verb>.ts` and calls the library
 * through its doors. `runCli` is the programmatic entry used by tests.
 *
 * Start-up: this module loads no library module. Only the module of the command being run is
 * imported (see `commands/index.ts`); the other commands are listed for `--help` from their help
 * lines alone, and the error catalogue is loaded when an error is reported.
 */
import { Command, CommanderError, Help } from 'commander';
import type { LociError } from '../core/errors.js';
import type { Env } from '../core/env.js';
import { COMMANDS } from './commands/index.js';
import { EXIT, type CliContext, type CliIO, type GlobalOptions } from './context.js';
import { VERSION } from './version.js';

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
const VALUE_OPTIONS = new Set(['--home', '--database-url']);

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

/**
 * Builds the commander program for `argv` (exported for `--help` tests): the module of the command
 * `argv` runs is loaded and registered; every other command is a stub carrying its help line.
 */
async function buildProgram(
  io: CliIO,
  setExit: (code: number) => void,
  argv: readonly string[] = [],
): Promise<Command> {
  const program = new Command('loci')
    .description('Local-first memory for AI coding agents: mine, search and recall what was said and written.')
    .version(VERSION, '-V, --version')
    .option('--home <dir>', 'palace folder (default: $LOCI_HOME or ~/.loci)')
    .option('--database-url <url>', 'a PostgreSQL palace: postgres://user@host/db (default: $LOCI_DATABASE_URL)')
    // Usage errors are printed by runCli in the one-line form (CLI_USAGE), not by commander.
    .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s), outputError: () => {} })
    .exitOverride();
  const ctx: CliContext = {
    io,
    globals: () => program.opts<GlobalOptions>(),
    setExit,
  };
  const wanted = invokedCommand(argv);
  const terms = new Map<Command, string>();
  for (const m of COMMANDS) {
    if (wanted !== undefined && m.commands.some((c) => c.name === wanted)) {
      (await m.load()).register(program, ctx);
      continue;
    }
    for (const c of m.commands) {
      terms.set(program.command(c.name, c.hidden ? { hidden: true } : {}).description(c.description), c.term);
    }
  }
  program.configureHelp({
    subcommandTerm(this: Help, cmd: Command) {
      return terms.get(cmd) ?? Help.prototype.subcommandTerm.call(this, cmd);
    },
  });
  return program;
}

/** The command `argv` names (`loci diary read`), for the `--help` hint of a usage error. */
function commandPath(program: Command, argv: readonly string[]): string {
  const names = ['loci'];
  let cmd = program;
  for (const a of argv) {
    if (a === '--') break;
    const sub = cmd.commands.find((c) => c.name() === a || c.aliases().includes(a));
    if (!sub) continue;
    names.push(sub.name());
    cmd = sub;
  }
  return names.join(' ');
}

/** Commander's usage error (`error: …`, possibly with a second `(Did you mean …?)` line) as CLI_USAGE. */
async function usageError(e: CommanderError, program: Command, argv: readonly string[]): Promise<LociError> {
  const problem = e.message
    .replace(/^error:\s*/i, '')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
  const { createError } = await import('../core/errors.js');
  return createError('CLI_USAGE', { problem, command: commandPath(program, argv) });
}

/** Prints an error in the documented one-line form and returns the exit code. */
function report(io: CliIO, e: LociError): number {
  io.stderr(`loci: ${e.message} [${e.code}]\n`);
  return e.category === 'user' ? EXIT.usage : EXIT.failure;
}

/** Runs the CLI with `argv` (without `node` and the script) and returns the exit code. */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  let code: number = EXIT.ok;
  const setExit = (c: number) => {
    code = Math.max(code, c);
  };
  const program = await buildProgram(io, setExit, argv);
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      // Help and version (also help shown for a bare command group) were printed by commander.
      if (e.exitCode === 0 || e.code === 'commander.help' || e.code === 'commander.helpDisplayed')
        return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
      return report(io, await usageError(e, program, argv));
    }
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
