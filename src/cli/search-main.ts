/**
 * @module cli/search-main
 * The start-up entry of `loci search` in its plain forms (issue 12). `bin/loci.js` runs it before the
 * CLI, and the bundle build makes it one file holding everything a local search loads: the module
 * loader's work per file (resolve, an asynchronous read, link) was a third of the process's CPU
 * above the floor script's. It declines — returns undefined, and the whole CLI runs the same argv
 * — for any other form: not the direct form of `cli/argv.ts` (help, unknown options, no words), a
 * remote palace (`LOCI_SERVER`), a PostgreSQL one (`LOCI_DATABASE_URL`) or an embedder
 * (`LOCI_EMBEDDER`): those load modules of their own, through the CLI as before.
 */
import { readSettings, type Env } from '../core/env.js';
import { createError, isLociError } from '../core/errors.js';
import { parseDirect } from './argv.js';
import { direct } from './commands/search.js';
import { EXIT, type CliContext } from './context.js';
import { failure, processIO } from './process-io.js';

/** An embedder spec that turns vectors on (`openPalace`: unset, empty, `none` and `off` do not). */
const embedderOn = (spec: string | undefined) => !['', 'none', 'off'].includes((spec ?? '').trim());

/**
 * Runs `loci search` for `argv` (without `node` and the script) and returns the exit code, or
 * undefined when it is not a plain local search (the caller then runs the CLI with the same argv).
 */
export async function searchMain(argv: string[], env: Env): Promise<number | undefined> {
  if (argv.includes('--help') || argv.includes('-h')) return undefined;
  const parsed = parseDirect(argv, direct.name, direct.options, direct.maxArgs);
  const settings = readSettings(env);
  if (!parsed || settings.server || settings.databaseUrl || embedderOn(settings.embedder)) return undefined;
  const io = processIO(env);
  let code: number = EXIT.ok;
  const ctx: CliContext = {
    io,
    globals: () => (parsed.home !== undefined ? { home: parsed.home } : {}),
    setExit: (c) => {
      code = Math.max(code, c);
    },
  };
  try {
    await direct.run(parsed.args, parsed.opts, ctx);
    return code;
  } catch (e) {
    return failure(io, e, { createError, isLociError }, () => settings.debug);
  }
}
