/**
 * @module cli/commands/hooks
 * `loci hooks install [--scope project|local|user] [--uninstall] [--print] [--json]`: merges Loci's
 * hook handlers into Claude Code's settings (see `src/hooks/install.ts` for the merge rules).
 */
import { HOOK_EVENT_NAMES, installHooks, type HooksInstallScope } from '../../hooks/index.js';
import type { RegisterCommand } from '../context.js';
import { colors, printJson } from '../format.js';

interface InstallCliOptions {
  scope?: string;
  uninstall?: boolean;
  print?: boolean;
  json?: boolean;
}

/** Registers `loci hooks install`. */
export const register: RegisterCommand = (program, ctx) => {
  const hooks = program
    .command('hooks')
    .description('Claude Code hooks: wake-up, recall on every prompt, zero-token archiving');
  hooks
    .command('install')
    .description(
      'add (or with --uninstall remove) the Loci hooks in a Claude Code settings file, leaving other hooks alone',
    )
    .option(
      '--scope <scope>',
      'project (.claude/settings.json), local (.claude/settings.local.json) or user (~/.claude/settings.json)',
      'local',
    )
    .option('--uninstall', "remove Loci's hook handlers (and nothing else)")
    .option('--print', 'print the settings file as it would be written, without writing it')
    .option('--json', 'print the result as JSON')
    .action(async (o: InstallCliOptions) => {
      const home = ctx.globals().home;
      const r = await installHooks({
        scope: o.scope as HooksInstallScope,
        uninstall: o.uninstall === true,
        print: o.print === true,
        cwd: ctx.io.cwd,
        env: ctx.io.env,
        ...(home !== undefined ? { home } : {}),
      });
      if (o.json) return printJson(ctx.io, r);
      if (o.print) return ctx.io.stdout(r.json || '{}\n');
      const c = colors(ctx.io);
      const what: Record<typeof r.action, string> = {
        created: 'installed the Loci hooks in a new',
        updated: 'installed the Loci hooks in',
        unchanged: o.uninstall ? 'no Loci hooks to remove in' : 'the Loci hooks are already installed in',
        removed: 'removed the Loci hooks from',
        absent: 'nothing to remove: there is no',
        printed: 'would write',
      };
      ctx.io.stdout(`${what[r.action]} ${r.file}\n`);
      for (const [event, h] of Object.entries(r.handlers))
        ctx.io.stdout(c.dim(`  ${event.padEnd(16)} ${h.command}  (timeout ${h.timeout} s)\n`));
      for (const n of r.notes) ctx.io.stderr(`loci: note: ${n}\n`);
      if (!o.uninstall && r.action !== 'unchanged')
        ctx.io.stdout(
          c.dim(
            `events: ${Object.values(HOOK_EVENT_NAMES).join(', ')}; restart Claude Code (or run /hooks) to load them\n`,
          ),
        );
    });
};
