/**
 * @module cli/mine-main
 * The start-up entry of `loci mine <path>` in its plain forms (issue 12: an unchanged 10K-file tree
 * re-mines in ≤ 0.4 CPU-seconds). `bin/loci.js` runs it before the CLI, and the bundle build makes it
 * a build of its own (scripts/build-bundles.mjs): the modules an unchanged re-mine loads come in 25
 * files instead of the CLI build's 35 (its chunks are cut by what the other commands share), while
 * everything only a changed file needs (chunkers, redaction, the graph, parsers) stays in chunks
 * loaded on first use. It declines — returns undefined, and the whole CLI runs the same argv — for
 * every form that is not the direct form of `cli/commands/mine.ts` (help, `--no-redact`, `--ignore`…).
 */
import type { Env } from '../core/env.js';
import { direct } from './commands/mine.js';
import { runDirectEntry } from './direct-entry.js';

/**
 * Runs `loci mine` for `argv` (without `node` and the script) and returns the exit code, or undefined
 * when it is not in the direct form (the caller then runs the CLI with the same argv).
 */
export async function mineMain(argv: string[], env: Env): Promise<number | undefined> {
  return runDirectEntry(argv, env, direct);
}
