/**
 * @module cli/commands/memory-sync
 * `loci memory sync`: pushes and pulls the team-shareable memories of this project (`reference`, and
 * `project` marked `metadata.privacy: team` or kept under `team/`) with the team server; `user`
 * and `feedback` memories never leave the machine. Registered by `memory.ts` under `loci memory`.
 */
import type { Command } from 'commander';
import { createError, readSettings, resolveHome, type MemoryDirChoice } from '../../internal.js';
import { projectWing } from '../../core/project-identity.js';
import type { CliContext } from '../context.js';
import { colors, printJson } from '../format.js';
import { remoteServer } from '../open.js';

interface SyncFlags {
  dir?: string;
  claude?: boolean;
  project?: string;
  dryRun?: boolean;
  json?: boolean;
}

/** Adds `sync` to the `loci memory` command; `choose` picks the memory folder as the other subcommands do. */
export function registerMemorySync(
  memory: Command,
  ctx: CliContext,
  choose: (ctx: CliContext, o: { dir?: string; claude?: boolean }) => MemoryDirChoice,
): void {
  memory
    .command('sync')
    .description('push and pull the team memories of this project with the team server (three-way merge)')
    .option('--dir <dir>', 'work on this memory directory')
    .option('--claude', "use Claude Code's memory directory even if it does not exist yet")
    .option('--project <wing>', "the project on the server (default: this folder's project wing)")
    .option('--dry-run', 'show what would be pushed, pulled or merged; change nothing')
    .option('--json', 'print as JSON')
    .addHelpText(
      'after',
      '\nShared: reference memories, and project memories marked `metadata.privacy: team` (or under team/).\n' +
        'Never shared: user and feedback memories. When both sides changed the same lines, both versions\n' +
        'are kept in the file between <<<<<<< and >>>>>>> lines: edit it, then sync again.\n',
    )
    .action(async (o: SyncFlags) => {
      const server = remoteServer(ctx);
      if (!server) throw createError('TEAM_SERVER_MISSING', { command: 'loci memory sync' });
      const choice = choose(ctx, o);
      const project = o.project ?? projectWing(choice.projectRoot);
      const { createTeamClient, syncMemoryDir, syncStatePath } = await import('../../team/index.js');
      const client = createTeamClient({ url: server, token: readSettings(ctx.io.env).token });
      const report = await syncMemoryDir({
        dir: choice.dir,
        project,
        statePath: syncStatePath(resolveHome(ctx.globals().home, ctx.io.env), client.url, project),
        send: (req) => client.call('memory-sync', req),
        ...(o.dryRun ? { dryRun: true } : {}),
      });
      if (o.json)
        return printJson(ctx.io, {
          ...report,
          dir: choice.dir,
          server: client.url,
          outcomes: report.outcomes.map(({ text: _text, ...rest }) => rest),
        });
      const c = colors(ctx.io);
      const verb = o.dryRun ? 'would sync' : 'synced';
      ctx.io.stdout(
        `${verb} ${project} with ${client.url}: ${report.pushed.length} pushed, ${report.written.length} written here` +
          `${report.conflicts.length ? `, ${c.yellow(`${report.conflicts.length} with conflicts`)}` : ''}\n`,
      );
      for (const out of report.outcomes)
        if (out.status !== 'unchanged')
          ctx.io.stdout(`  ${out.status.padEnd(9)} ${out.file}${out.reason ? c.dim(`  (${out.reason})`) : ''}\n`);
      for (const f of report.skipped) ctx.io.stdout(c.dim(`  skipped   ${f}  (a private file of this name is here)\n`));
      if (report.conflicts.length)
        ctx.io.stdout(
          c.yellow(
            `conflicts: both sides changed the same lines of ${report.conflicts.join(', ')}; both versions are ` +
              'in the file between <<<<<<< and >>>>>>> lines — keep what is right, then run `loci memory sync` again\n',
          ),
        );
    });
}
