/**
 * @module cli/context
 * What every command receives: global options, output helpers and the exit-code convention.
 */
import type { Command } from 'commander';
import type { OptionSpec } from './argv.js';

/** Global options shared by all commands. */
export interface GlobalOptions {
  /** `--home DIR`. */
  home?: string;
  /** `--database-url postgres://…`: a PostgreSQL palace. */
  databaseUrl?: string;
  /** `--server URL`: the team server of remote mode. */
  server?: string;
}

/** Output sinks; tests pass in-memory ones through `runCli`. */
export interface CliIO {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  /** True when stdout is a terminal (colours). */
  isTTY: boolean;
  /** The width of stderr when it is a terminal (progress lines are drawn only then); else undefined. */
  stderrColumns?: number | undefined;
  /** Stdin reader (whole input as a string). */
  readStdin: () => Promise<string>;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** Passed to every command's `register`. */
export interface CliContext {
  io: CliIO;
  /** Reads the global options (call inside an action). */
  globals(): GlobalOptions;
  /** Sets the process exit code (the highest wins). */
  setExit(code: number): void;
}

/** A command module: `src/cli/commands/<verb>.ts` exports `register`. */
export type RegisterCommand = (program: Command, ctx: CliContext) => void;

/**
 * What a command module may export besides `register` to run without commander (start-up): its
 * name, its options (the ones `register` declares) and its action. Used only when the argv is in
 * the plain forms `cli/argv.ts` reads; anything else goes through commander.
 */
export interface DirectCommand {
  name: string;
  options: readonly OptionSpec[];
  /**
   * The most positional words it takes (more go to commander, which reports them); 0: none (otherwise at least
   * one). Default: no limit.
   */
  maxArgs?: number;
  run(args: string[], opts: Record<string, string | true>, ctx: CliContext): Promise<void>;
}

/** Exit codes. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;
