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
import type { Env } from '../core/env.js';
import { direct } from './commands/search.js';
import { runDirectEntry } from './direct-entry.js';

/** An embedder spec that turns vectors on (`openPalace`: unset, empty, `none` and `off` do not). */
const embedderOn = (spec: string | undefined) => !['', 'none', 'off'].includes((spec ?? '').trim());

/**
 * Runs `loci search` for `argv` (without `node` and the script) and returns the exit code, or
 * undefined when it is not a plain local search (the caller then runs the CLI with the same argv).
 */
export async function searchMain(argv: string[], env: Env): Promise<number | undefined> {
  return runDirectEntry(argv, env, direct, (s) => !!s.server || !!s.databaseUrl || embedderOn(s.embedder));
}
