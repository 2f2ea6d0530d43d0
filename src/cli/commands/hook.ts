/**
 * @module cli/commands/hook
 * `loci hook <event>`: one Claude Code hook (session-start, user-prompt-submit, stop, pre-compact,
 * post-compact, session-end) — reads Claude Code's JSON on stdin and prints the protocol answer.
 * Fails open: always exit 0, no output on error (logged to `<LOCI_HOME>/logs/hooks.log`).
 * `loci hook-worker` (hidden) drains the archive queue; hooks start it detached.
 * `loci hooks install` writes this command (`bin/loci.js hook <event>` goes straight to the light hook entry).
 */
import { join } from 'node:path';
import { fileLogger, homePaths, readSettings, resolveHome } from '../../internal.js';
import { runHook, runHookWorker } from '../../hooks/index.js';
import type { RegisterCommand } from '../context.js';
import { printJson } from '../format.js';

/** Registers `loci hook <event>` and the hidden `loci hook-worker`. */
export const register: RegisterCommand = (program, ctx) => {
  program
    .command('hook')
    .description('run a Claude Code hook: reads the hook JSON on stdin, prints the answer (always exits 0)')
    .argument('<event>', 'session-start | user-prompt-submit | stop | pre-compact | post-compact | session-end')
    .action(async (event: string) => {
      let stdin = '';
      try {
        stdin = await ctx.io.readStdin();
      } catch {
        // an unreadable stdin is an invalid input: runHook logs it
      }
      const out = await runHook(event, stdin, { home: ctx.globals().home, env: ctx.io.env, cwd: ctx.io.cwd });
      if (out) ctx.io.stdout(`${out}\n`);
    });
  program
    .command('hook-worker', { hidden: true })
    .description('drain the hook archive queue (started detached by the hooks)')
    .option('--json', 'print what was done as JSON')
    .action(async (o: { json?: boolean }) => {
      const home = resolveHome(ctx.globals().home, ctx.io.env);
      const logger = fileLogger(
        join(homePaths(home).logs, 'hooks.log'),
        readSettings(ctx.io.env).hookDebug ? 'debug' : 'info',
      );
      const s = await runHookWorker({ home, logger, env: ctx.io.env });
      if (o.json) printJson(ctx.io, s);
    });
};
