/**
 * @module cli/main
 * Argument parsing for `loci`. Each command lives in `commands/<verb>.ts` and only calls the
 * public library (`src/index.ts`). `runCli` is the programmatic entry used by tests.
 */
import { Command, CommanderError } from 'commander';
import { isLociError } from '../index.js';
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
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) })
    .exitOverride();
  const ctx: CliContext = {
    io,
    globals: () => program.opts<GlobalOptions>(),
    setExit,
  };
  for (const register of COMMANDS) register(program, ctx);
  return program;
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
      // Help and version exit with 0; usage errors were already printed by commander.
      return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (isLociError(e)) {
      io.stderr(`loci: ${e.message} [${e.code}]\n`);
      return e.category === 'user' ? EXIT.usage : EXIT.failure;
    }
    io.stderr(`loci: unexpected error: ${(e as Error)?.stack ?? String(e)}\n`);
    return EXIT.failure;
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
