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
import type { Env } from '../core/env.js';
import { parseDirect } from './argv.js';
import { COMMANDS } from './commands/index.js';
import { EXIT, type CliContext, type CliIO } from './context.js';
import { failure, processIO, report } from './process-io.js';

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
    const [errors, { readSettings }] = await Promise.all([import('../core/errors.js'), import('../core/env.js')]);
    return failure(io, e, errors, () => readSettings(io.env).debug);
  }
  return code;
}

/**
 * Entry used by `bin/loci.js`, which hands over the process's environment (read only through
 * `core/env.ts`; not imported here, so that `--help` loads no library module).
 */
export async function main(argv: string[], env: Env): Promise<number> {
  return runCli(argv, processIO(env));
}
