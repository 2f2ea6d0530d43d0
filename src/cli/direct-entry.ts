/**
 * @module cli/direct-entry
 * What the start-up entries of the hot commands share (`search-main.ts`, `mine-main.ts`, each bundled
 * into one file or a few by scripts/build-bundles.mjs): run a command's direct form (`cli/argv.ts`)
 * without the CLI, or decline — return undefined, and `bin/loci.js` runs the whole CLI on the same argv.
 */
import { readSettings, type Env, type LociSettings } from '../core/env.js';
import { createError, isLociError } from '../core/errors.js';
import { parseDirect } from './argv.js';
import { EXIT, type CliContext, type DirectCommand } from './context.js';
import { failure, processIO } from './process-io.js';

/**
 * Runs `direct` for `argv` (without `node` and the script) and returns the exit code, or undefined when
 * the argv is not in its plain forms (help, unknown options…) or `declines` says no for these settings.
 */
export async function runDirectEntry(
  argv: string[],
  env: Env,
  direct: DirectCommand,
  declines: (settings: LociSettings) => boolean = () => false,
): Promise<number | undefined> {
  if (argv.includes('--help') || argv.includes('-h')) return undefined;
  const parsed = parseDirect(argv, direct.name, direct.options, direct.maxArgs);
  const settings = readSettings(env);
  if (!parsed || declines(settings)) return undefined;
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
