/**
 * @module cli/process-io
 * The process side of a CLI run, shared by the CLI entry (`main.ts`) and the start-up entry of
 * `loci search` (`search-main.ts`): the real stdin/stdout/stderr, the closed-pipe guard and how a
 * failed command is reported. Loads no library module: each entry hands in its own errors module.
 */
import type { Env } from '../core/env.js';
import type { createError, isLociError, LociError } from '../core/errors.js';
import { EXIT, type CliIO } from './context.js';

function readStdinAll(): Promise<string> {
  return new Promise((resolve, reject) => {
    if (process.stdin.isTTY) return resolve('');
    const parts: Buffer[] = [];
    process.stdin.on('data', (c: Buffer) => parts.push(c));
    process.stdin.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    process.stdin.on('error', reject);
  });
}

/**
 * The real process IO, with the environment `bin/loci.js` hands over. A closed pipe (e.g.
 * `loci search … | head`) ends the process quietly instead of printing a stack trace.
 */
export function processIO(env: Env): CliIO {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
  });
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

/** Prints an error in the documented one-line form and returns the exit code. */
export function report(io: CliIO, e: LociError): number {
  io.stderr(`loci: ${e.message} [${e.code}]\n`);
  return e.category === 'user' ? EXIT.usage : EXIT.failure;
}

/**
 * Reports what a command threw and returns the exit code: a catalogue error in its one-line form; anything
 * else is a bug, reported as INTERNAL with its message, and its stack on the lines after when `debug()`
 * (LOCI_DEBUG=1). `errors` is the caller's own errors module (a bundle has its own copy of the classes).
 */
export function failure(
  io: CliIO,
  e: unknown,
  errors: { createError: typeof createError; isLociError: typeof isLociError },
  debug: () => boolean,
): number {
  if (errors.isLociError(e)) return report(io, e);
  const err = e instanceof Error ? e : new Error(String(e));
  const code = report(io, errors.createError('INTERNAL', { what: `unexpected ${err.name}: ${err.message}` }));
  if (debug()) io.stderr(`${err.stack ?? ''}\n`);
  return code;
}
