/**
 * @module cli/commands/dream
 * `loci dream [--dir D] [--dry-run] [--json] [--force] [--undo]`: consolidates the project's memory
 * folder (the one `loci memory` uses) through `dreamProject` of `src/dream/`; prints what it did and
 * why, and where the report is.
 */
import { existsSync } from 'node:fs';
import { homePaths, resolveHome } from '../../internal.js';
import { dreamModel, dreamProject, dreamTarget, undoDream, type DreamResult } from '../../dream/index.js';
import type { CliContext, RegisterCommand } from '../context.js';
import { withPalace } from '../open.js';
import { printJson } from '../format.js';

interface DreamCliOptions {
  dir?: string;
  dryRun?: boolean;
  json?: boolean;
  force?: boolean;
  undo?: boolean;
}

function toJson(r: DreamResult & { dir: string }) {
  return {
    ran: r.ran,
    reason: r.reason,
    changes: r.changes.map((c) => ({
      action: c.action,
      file: c.file,
      ...(c.from ? { from: c.from } : {}),
      reason: c.reason,
      by: c.by,
    })),
    report: r.report,
    dir: r.dir,
    dryRun: r.dryRun,
    model: r.model,
    tokensSent: r.tokensSent,
    conflicts: r.conflicts,
    refused: r.refused,
    notes: r.notes,
  };
}

function printText(ctx: CliContext, r: DreamResult & { dir: string }): void {
  const out = ctx.io.stdout;
  if (!r.ran) {
    out(`loci dream: not run: ${r.reason}\n`);
    return;
  }
  out(`loci dream${r.dryRun ? ' (dry run: nothing written)' : ''}: ${r.dir}\n  why: ${r.reason}\n`);
  for (const n of r.notes) out(`  ${n}\n`);
  if (!r.changes.length) out('  no change\n');
  for (const c of r.changes) {
    const from = c.from?.length ? ` ← ${c.from.join(', ')}` : '';
    out(`  ${c.action.padEnd(13)} ${c.file}${from}: ${c.reason}\n`);
  }
  for (const c of r.conflicts) {
    out(
      `  conflict      ${c.file} vs ${c.claudeMd}: ${c.outcome === 'memory-kept' ? 'memory kept' : 'memory loses'}\n`,
    );
  }
  for (const x of r.refused) out(`  refused       ${x.file}: ${x.reason}\n`);
  if (r.report) out(`  report: ${r.report}\n`);
  if (r.changes.length && !r.dryRun) out('  undo: loci dream --undo\n');
}

export const register: RegisterCommand = (program, ctx) => {
  program
    .command('dream')
    .description(
      'consolidate the memory files: merge duplicates, date relative words, drop contradicted facts (undoable)',
    )
    .option('--dir <dir>', 'work on this memory directory')
    .option('--dry-run', 'show what would change; write nothing')
    .option('--force', 'skip the time and session gates (never the lock)')
    .option('--undo', 'put back the files of the last run')
    .option('--json', 'print as JSON')
    .action(async (o: DreamCliOptions) => {
      const home = resolveHome(ctx.globals().home, ctx.io.env);
      const base = { home, cwd: ctx.io.cwd, env: ctx.io.env, ...(o.dir !== undefined ? { dir: o.dir } : {}) };
      if (o.undo) {
        const t = dreamTarget(base);
        const u = undoDream({ dir: t.dir, home });
        if (o.json) return printJson(ctx.io, { ...u, dir: t.dir });
        ctx.io.stdout(`loci dream --undo: run ${u.runId} undone in ${t.dir}\n`);
        for (const f of u.restored) ctx.io.stdout(`  restored ${f}\n`);
        for (const s of u.skipped) ctx.io.stdout(`  left     ${s.file}: ${s.reason}\n`);
        return;
      }
      const opts = { ...base, ...(o.dryRun ? { dryRun: true } : {}), ...(o.force ? { force: true } : {}) };
      // The archive is searched only for the model, and only when a palace exists (opening creates one).
      const useArchive = dreamModel(ctx.io.env).llm !== undefined && existsSync(homePaths(home).db);
      const r = useArchive
        ? await withPalace(ctx, (palace) => dreamProject({ ...opts, palace }))
        : await dreamProject(opts);
      if (o.json) return printJson(ctx.io, toJson(r));
      printText(ctx, r);
    });
};
