/**
 * @module test/helpers/cli-in-process
 * Runs `loci …args` in this process through the CLI's entry function (`runCli` of
 * `src/cli/main.ts`) with injected streams, environment, working directory and stdin: the same
 * commands, parsing, output and exit codes as the binary, without starting a process (a spawned
 * `bin/loci.js` costs ~0.25 CPU-seconds before it does any work). Use {@link loci} of
 * `./cli.ts` (a real child process) where the process boundary is the point: kills and crashes,
 * hooks reading stdin as Claude Code runs them, MCP over stdio, concurrent writers, start-up.
 *
 * The CLI reads no `process.env`, `process.cwd()` or stdio of its own when given an IO, so runs do
 * not leak into each other or into the test process. Kept apart from `./cli.ts` so that tests
 * which only need temp folders do not load the whole library.
 */
import type { CliIO } from '../../src/cli/context.js';
import { runCli } from '../../src/cli/main.js';
import { ROOT, type RunResult } from './cli.js';

/** Options of {@link lociIn}: those of `loci()` in `./cli.ts`. */
export interface InProcessOptions {
  /** `LOCI_HOME` of the run. */
  home?: string;
  /** Working directory of the run. Default: the repository root. */
  cwd?: string;
  /** Standard input. Default: empty. */
  input?: string;
  /** Variables over the test process's environment (`undefined` removes one). */
  env?: NodeJS.ProcessEnv;
}

/** The IO a run gets, and what it wrote. */
export function captureIO(opts: InProcessOptions = {}): { io: CliIO; out: { stdout: string; stderr: string } } {
  const out = { stdout: '', stderr: '' };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NO_COLOR: '1',
    ...(opts.home ? { LOCI_HOME: opts.home } : {}),
    ...opts.env,
  };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  const io: CliIO = {
    stdout: (s) => void (out.stdout += s),
    stderr: (s) => void (out.stderr += s),
    isTTY: false,
    readStdin: async () => opts.input ?? '',
    env,
    cwd: opts.cwd ?? ROOT,
  };
  return { io, out };
}

/** Runs `loci …args` in this process; resolves to the exit code and what was written. */
export async function lociIn(args: string[], opts: InProcessOptions = {}): Promise<RunResult> {
  const { io, out } = captureIO(opts);
  const code = await runCli(args, io);
  return { code, stdout: out.stdout, stderr: out.stderr };
}
