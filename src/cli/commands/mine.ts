/**
 * @module cli/commands/mine
 * `loci mine <path>`: mine a project folder (incremental), and `loci sync`: drop deleted files.
 */
import type { MineSummary } from '../../index.js';
import type { RegisterCommand } from '../context.js';
import { bytes, colors, intOption, printJson } from '../format.js';
import { withPalace } from '../open.js';
import { bar, progressLine } from '../progress.js';

interface MineFlags {
  wing?: string;
  room?: string;
  json?: boolean;
  prune?: boolean;
  maxFileSize?: string;
  chunkSize?: string;
  chunkOverlap?: string;
  gitignore?: boolean;
  ignore?: string[];
}

/** The JSON shape of a mining summary. */
export function summaryJson(s: MineSummary) {
  return {
    files_scanned: s.filesScanned,
    files_skipped: s.filesSkipped,
    files_unchanged: s.filesUnchanged,
    drawers_added: s.drawersAdded,
    drawers_updated: s.drawersUpdated,
    drawers_removed: s.drawersRemoved,
    bytes_read: s.bytesRead,
    seconds: Math.round(s.seconds * 1000) / 1000,
    wing: s.wing,
    warnings: s.warnings,
  };
}

export const register: RegisterCommand = (program, ctx) => {
  program
    .command('mine')
    .description('mine a project folder (or file) into the palace; re-running only picks up changes')
    .argument('<path>', 'folder or file to mine')
    .option('--wing <wing>', 'wing for everything mined (default: git root or folder name)')
    .option('--room <room>', 'put everything in this room (default: from the folder structure)')
    .option('--prune', 'remove drawers of files that no longer exist under <path>')
    .option('--max-file-size <bytes>', 'skip files larger than this (default 2097152)')
    .option('--chunk-size <chars>', 'target chunk size in characters (default 1200)')
    .option('--chunk-overlap <chars>', 'overlap when a block must be cut (default 200)')
    .option('--no-gitignore', 'do not read .gitignore files (.lociignore still applies)')
    .option('--ignore <pattern...>', 'extra gitignore-style patterns to skip')
    .option('--json', 'print the summary as JSON')
    .addHelpText('after', '\nExamples:\n  loci mine ~/code/myapp\n  loci mine ./docs --wing myapp --room docs --json\n')
    .action(async (path: string, o: MineFlags) => {
      const chunk: { targetChars?: number; maxChars?: number; overlapChars?: number } = {};
      if (o.chunkSize) {
        chunk.targetChars = intOption('--chunk-size', o.chunkSize, 1200, 100, 100_000);
        chunk.maxChars = chunk.targetChars * 2;
      }
      if (o.chunkOverlap) chunk.overlapChars = intOption('--chunk-overlap', o.chunkOverlap, 200, 0, 10_000);
      const progress = progressLine(!o.json);
      const s = await withPalace(ctx, (p) =>
        p.mine(path, {
          ...(o.wing ? { wing: o.wing } : {}),
          ...(o.room ? { room: o.room } : {}),
          ...(o.prune ? { prune: true } : {}),
          ...(o.maxFileSize ? { maxFileBytes: intOption('--max-file-size', o.maxFileSize, 2 << 20, 1, 2 ** 40) } : {}),
          ...(Object.keys(chunk).length ? { chunk } : {}),
          ...(o.gitignore === false ? { respectGitignore: false } : {}),
          ...(o.ignore ? { ignore: o.ignore } : {}),
          onProgress: (pr) =>
            progress.update(
              `${bar(pr.bytesTotal ? pr.bytesRead / pr.bytesTotal : pr.filesSeen / Math.max(1, pr.filesTotal))} ` +
                `${pr.filesSeen}/${pr.filesTotal} files, ${bytes(pr.bytesRead)} of ${bytes(pr.bytesTotal)} — ${pr.current}`,
            ),
        }),
      ).finally(() => progress.done());
      if (o.json) return printJson(ctx.io, summaryJson(s));
      const c = colors(ctx.io);
      for (const w of s.warnings) ctx.io.stderr(`loci: warning: ${w}\n`);
      ctx.io.stdout(
        `${c.bold('mined')} ${s.path} → wing ${c.cyan(s.wing)}: ${s.filesScanned} files scanned ` +
          `(${s.filesMined} mined, ${s.filesUnchanged} unchanged, ${s.filesSkipped} skipped), ` +
          `drawers +${s.drawersAdded} ~${s.drawersUpdated} -${s.drawersRemoved}, ` +
          `${bytes(s.bytesRead)} in ${s.seconds.toFixed(2)} s\n`,
      );
    });

  program
    .command('sync')
    .description('remove drawers whose source files were deleted (optionally only under a path)')
    .argument('[path]', 'only check sources under this path')
    .option('--json', 'print the result as JSON')
    .action(async (path: string | undefined, o: { json?: boolean }) => {
      const r = await withPalace(ctx, (p) => p.sync(path));
      if (o.json) {
        return printJson(ctx.io, { sources_checked: r.sourcesChecked, sources_removed: r.sourcesRemoved, drawers_removed: r.drawersRemoved });
      }
      ctx.io.stdout(`checked ${r.sourcesChecked} sources: removed ${r.sourcesRemoved} (${r.drawersRemoved} drawers)\n`);
    });
};
