/**
 * @module cli/commands/wake-up
 * `loci wake-up [--wing W] [--max-tokens N] [--json]`: prints the wake-up text the session-start
 * hook injects — identity, pinned memories, then the project's most important recent memories
 * and decisions (importance = recency × use × kind), each with its age, within the token budget.
 */
import { wakeUp } from '../../internal.js';
import type { RegisterCommand } from '../context.js';
import { intOption, printJson } from '../format.js';
import { withPalace } from '../open.js';

/** Registers `loci wake-up`. */
export const register: RegisterCommand = (program, ctx) => {
  program
    .command('wake-up')
    .description('print the wake-up text injected when a session starts')
    .option('--wing <wing>', "the project's wing (default: the git root name of the current folder)")
    .option('--max-tokens <n>', 'token budget, estimated as characters / 4 (default 800)')
    .option('--json', 'print {text, tokens, wing, sections, omitted} as JSON')
    .action(async (o: { wing?: string; maxTokens?: string; json?: boolean }) => {
      const maxTokens = intOption('--max-tokens', o.maxTokens, 800, 100, 8000);
      const r = await withPalace(ctx, (palace) =>
        wakeUp({ palace, cwd: ctx.io.cwd, env: ctx.io.env, maxTokens, ...(o.wing ? { wing: o.wing } : {}) }),
      );
      if (o.json) return printJson(ctx.io, r);
      if (r.text) ctx.io.stdout(`${r.text}\n`);
      else
        ctx.io.stderr(
          `loci: nothing to wake up with for wing ${r.wing}: no identity file, memories or decisions yet\n`,
        );
    });
};
