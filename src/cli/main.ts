/**
 * @module cli/main
 * Argument parsing for `loci`. Each command lives in `commands/<verb>.ts` and only calls the
 * public library (`src/index.ts`). `runCli` is the programmatic entry used by tests.
 */
import { Command, CommanderError } from 'commander';
import { createError, isLociError, type LociError } from '../index.js';
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

/** The real process IO. */
export function processIO(): CliIO {
  return {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    isTTY: Boolean(process.stdout.isTTY),
    stderrColumns: process.stderr.isTTY ? (process.stderr.columns ?? 80) : undefined,
    readStdin: readStdinAll,
    env: process.env,
    cwd: process.cwd(),
  };
}

/** Builds the commander program (exported for `--help` tests). */
export function buildProgram(io: CliIO, setExit: (code: number) => void): Command {
  const program = new Command('loci')
    .description('Local-first memory for AI coding agents: mine, search and recall what was said and written.')
    .version(VERSION, '-V, --version')
    .option('--home <dir>', 'palace folder (default: $LOCI_HOME or ~/.loci)')
    // Usage errors are printed by runCli in the one-line form (CLI_USAGE), not by commander.
    .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s), outputError: () => {} })
    .exitOverride();
  const ctx: CliContext = {
    io,
    globals: () => program.opts<GlobalOptions>(),
    setExit,
  };
  for (const register of COMMANDS) register(program, ctx);
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
function usageError(e: CommanderError, program: Command, argv: readonly string[]): LociError {
  const problem = e.message
    .replace(/^error:\s*/i, '')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
  return createError('CLI_USAGE', { problem, command: commandPath(program, argv) });
}

/** Prints an error in the documented one-line form and returns the exit code. */
function report(io: CliIO, e: LociError): number {
  io.stderr(`loci: ${e.message} [${e.code}]\n`);
  return e.category === 'user' ? EXIT.usage : EXIT.failure;
}

/** Runs the CLI with `argv` (without `node` and the script) and returns the exit code. */
export async function runCli(argv: string[], io: CliIO = processIO()): Promise<number> {
  let code: number = EXIT.ok;
  const setExit = (c: number) => {
    code = Math.max(code, c);
  };
  const program = buildProgram(io, setExit);
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      // Help and version (also help shown for a bare command group) were printed by commander.
      if (e.exitCode === 0 || e.code === 'commander.help' || e.code === 'commander.helpDisplayed')
        return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
      return report(io, usageError(e, program, argv));
    }
    if (isLociError(e)) return report(io, e);
    // A bug: one line with its message; the stack only on request (LOCI_DEBUG=1), on the lines after.
    const err = e instanceof Error ? e : new Error(String(e));
    const code = report(io, createError('INTERNAL', { what: `unexpected ${err.name}: ${err.message}` }));
    if (io.env['LOCI_DEBUG']) io.stderr(`${err.stack ?? ''}\n`);
    return code;
  }
  return code;
}

/** Entry used by `bin/loci.js`. */
export async function main(argv: string[]): Promise<number> {
  // A closed pipe (e.g. `loci search … | head`) must not print a stack trace.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
  });
  return runCli(argv);
}
