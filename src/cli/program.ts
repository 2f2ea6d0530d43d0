/**
 * @module cli/program
 * The commander program of `loci`: every command that `cli/main.ts` does not run directly (see
 * `cli/argv.ts`), `--help` and usage errors. Loaded on demand, so that the hot commands start
 * without commander.
 */
import { Command, CommanderError, Help } from 'commander';
import type { LociError } from '../core/errors.js';
import { COMMANDS } from './commands/index.js';
import { EXIT, type CliContext, type CliIO, type GlobalOptions } from './context.js';
import { VERSION } from './version.js';

/**
 * Builds the commander program for `argv`: the module of the command `argv` runs (`wanted`) is
 * loaded and registered; every other command is a stub carrying its help line.
 */
async function buildProgram(io: CliIO, setExit: (code: number) => void, wanted: string | undefined): Promise<Command> {
  const program = new Command('loci')
    .description('Local-first memory for AI coding agents: mine, search and recall what was said and written.')
    .version(VERSION, '-V, --version')
    .option('--home <dir>', 'palace folder (default: $LOCI_HOME or ~/.loci)')
    .option('--database-url <url>', 'a PostgreSQL palace: postgres://user@host/db (default: $LOCI_DATABASE_URL)')
    .option(
      '--server <url>',
      'use this team server instead of the local palace (default: $LOCI_SERVER; token: $LOCI_TOKEN)',
    )
    // Usage errors are printed by runCli in the one-line form (CLI_USAGE), not by commander.
    .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s), outputError: () => {} })
    .exitOverride();
  const ctx: CliContext = {
    io,
    globals: () => program.opts<GlobalOptions>(),
    setExit,
  };
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

/**
 * Parses and runs `argv` with commander. Returns the exit code of help, version and usage errors
 * (a usage error as a LociError to report), or undefined when a command ran; other errors propagate.
 */
export async function runProgram(
  argv: string[],
  io: CliIO,
  setExit: (code: number) => void,
  wanted: string | undefined,
): Promise<number | LociError | undefined> {
  const program = await buildProgram(io, setExit, wanted);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return undefined;
  } catch (e) {
    if (!(e instanceof CommanderError)) throw e;
    // Help and version (also help shown for a bare command group) were printed by commander.
    if (e.exitCode === 0 || e.code === 'commander.help' || e.code === 'commander.helpDisplayed')
      return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
    return usageError(e, program, argv);
  }
}
