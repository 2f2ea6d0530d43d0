/**
 * @module cli/commands/mine
 * `loci mine <path>`: mine a folder or file — project files and/or conversation transcripts
 * (incremental); `loci mine --claude`: every Claude Code transcript; `loci sync`: drop deleted files.
 */
import { resolve } from 'node:path';
import { createError } from '../../core/errors.js';
import type { MineConvosSummary, MineOptions } from '../../internal.js';
import type { CliContext, DirectCommand, RegisterCommand } from '../context.js';
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
  mode?: string;
  claude?: boolean;
  redact?: boolean;
  flush?: boolean;
  idleMinutes?: string;
  verbose?: boolean;
}

const MODES = ['auto', 'projects', 'convos'] as const;

/** `too-large` → `too_large`: JSON keys of the per-reason counts. */
const key = (r: string) => r.replace(/-/g, '_');

/** The JSON shape of a mining summary (`skipped_files` only with `verbose`). */
function summaryJson(s: MineConvosSummary, verbose = false) {
  return {
    files_scanned: s.filesScanned,
    files_mined: s.filesMined,
    files_skipped: s.filesSkipped,
    skipped: Object.fromEntries(Object.entries(s.skipped).map(([r, n]) => [key(r), n])),
    ...(verbose
      ? {
          skipped_files: s.skippedFiles.map((f) => ({
            path: f.path,
            reason: key(f.reason),
            ...(f.detail ? { detail: f.detail } : {}),
          })),
        }
      : {}),
    files_unchanged: s.filesUnchanged,
    drawers_added: s.drawersAdded,
    drawers_updated: s.drawersUpdated,
    drawers_removed: s.drawersRemoved,
    bytes_read: s.bytesRead,
    seconds: Math.round(s.seconds * 1000) / 1000,
    wing: s.wing,
    warnings: s.warnings,
    redactions: s.redactions,
    conversations: s.conversations,
  };
}

/** Mines `path` (or every Claude Code transcript with `--claude`) and prints the summary. */
async function run(path: string | undefined, o: MineFlags, ctx: CliContext): Promise<void> {
  const mode = (o.mode ?? 'auto') as (typeof MODES)[number];
  if (!MODES.includes(mode))
    throw createError('INVALID_ARGUMENT', { name: '--mode', value: o.mode, expected: MODES.join(', ') });
  if (path === undefined && !o.claude)
    throw createError('INVALID_ARGUMENT', {
      name: 'path',
      value: null,
      expected: 'a folder or file to mine, or --claude',
    });
  const chunk: { targetChars?: number; maxChars?: number; overlapChars?: number } = {};
  if (o.chunkSize) {
    chunk.targetChars = intOption('--chunk-size', o.chunkSize, 1200, 100, 100_000);
    chunk.maxChars = chunk.targetChars * 2;
  }
  if (o.chunkOverlap) chunk.overlapChars = intOption('--chunk-overlap', o.chunkOverlap, 200, 0, 10_000);
  const progress = progressLine(ctx.io, !o.json);
  const opts: MineOptions = {
    ...(o.wing ? { wing: o.wing } : {}),
    ...(o.room ? { room: o.room } : {}),
    ...(o.prune ? { prune: true } : {}),
    ...(o.maxFileSize ? { maxFileBytes: intOption('--max-file-size', o.maxFileSize, 2 << 20, 1, 2 ** 40) } : {}),
    ...(Object.keys(chunk).length ? { chunk } : {}),
    ...(o.gitignore === false ? { respectGitignore: false } : {}),
    ...(o.ignore ? { ignore: o.ignore } : {}),
    ...(o.redact === false ? { redact: false } : {}),
    ...(o.flush ? { flush: true } : {}),
    ...(o.idleMinutes ? { idleMinutes: intOption('--idle-minutes', o.idleMinutes, 10, 0, 100_000) } : {}),
    onProgress: (pr) =>
      progress.update(
        `${bar(pr.bytesTotal ? pr.bytesRead / pr.bytesTotal : pr.filesSeen / Math.max(1, pr.filesTotal))} ` +
          `${pr.filesSeen}/${pr.filesTotal} files, ${bytes(pr.bytesRead)} of ${bytes(pr.bytesTotal)} — ` +
          `${pr.current}`,
      ),
  };
  const s = await withPalace(ctx, (p) =>
    o.claude
      ? p.mineClaude({
          ...opts,
          env: ctx.io.env,
          ...(path !== undefined ? { configDir: resolve(ctx.io.cwd, path) } : {}),
        })
      : p.mine(resolve(ctx.io.cwd, path!), { ...opts, mode }),
  ).finally(() => progress.done());
  if (o.json) return printJson(ctx.io, summaryJson(s, o.verbose === true));
  const c = colors(ctx.io);
  for (const w of s.warnings) ctx.io.stderr(`loci: warning: ${w}\n`);
  const reasons = Object.entries(s.skipped)
    .filter(([, n]) => n > 0)
    .map(([r, n]) => `${n} ${r}`);
  ctx.io.stdout(
    `${c.bold('mined')} ${s.path} → wing ${c.cyan(s.wing)}: ${s.filesScanned} files scanned ` +
      `(${s.filesMined} mined, ${s.filesUnchanged} unchanged, ${s.filesSkipped} ` +
      `skipped${reasons.length ? `: ${reasons.join(', ')}` : ''}), ` +
      `drawers +${s.drawersAdded} ~${s.drawersUpdated} -${s.drawersRemoved}, ` +
      (s.conversations || s.redactions ? `${s.conversations} conversations, ${s.redactions} secrets redacted, ` : '') +
      `${bytes(s.bytesRead)} in ${s.seconds.toFixed(2)} s\n`,
  );
  if (o.verbose) {
    for (const f of s.skippedFiles)
      ctx.io.stdout(`  skipped (${f.reason}${f.detail ? `: ${f.detail}` : ''}) ${f.path}\n`);
    if (s.skippedFiles.length < s.filesSkipped)
      ctx.io.stdout(`  … and ${s.filesSkipped - s.skippedFiles.length} more\n`);
  } else if (s.filesSkipped > 0 && (s.skipped.ignored || s.skipped.unrecognised || s.skipped.unreadable)) {
    ctx.io.stdout(`  (--verbose lists the skipped files)\n`);
  }
}

/**
 * `loci mine <path>` without commander, for the everyday options (re-mining an unchanged tree is
 * mostly start-up); every other option goes through commander.
 */
export const direct: DirectCommand = {
  name: 'mine',
  maxArgs: 1,
  options: ['--mode <mode>', '--claude', '--verbose', '--wing <wing>', '--room <room>', '--prune', '--json'].map(
    (flags) => ({ flags, description: '' }),
  ),
  run: (args, opts, ctx) => run(args[0], opts as MineFlags, ctx),
};

export const register: RegisterCommand = (program, ctx) => {
  program
    .command('mine')
    .description(
      'mine a folder or file (project files and conversation transcripts) into the palace; re-running only picks ' +
        'up changes',
    )
    .argument(
      '[path]',
      'folder or file to mine (with --claude: the Claude Code folder; default $CLAUDE_CONFIG_DIR or ~/.claude)',
    )
    .option(
      '--mode <mode>',
      'auto (each file by its content), projects (files as documents) or convos (transcripts only)',
      'auto',
    )
    .option('--claude', 'mine every Claude Code transcript (sessions, subagents, history.jsonl), one wing per project')
    .option('--no-redact', 'store secrets (API keys, tokens, passwords) as they are instead of [REDACTED:…]')
    .option(
      '--flush',
      'accepted for compatibility, no effect: the last exchange of a transcript is always stored at once',
    )
    .option('--idle-minutes <n>', 'accepted for compatibility, no effect (see --flush)')
    .option('--verbose', 'list every skipped file with its reason')
    .option(
      '--wing <wing>',
      'wing for everything mined (default: git root or folder name; conversations: their project)',
    )
    .option(
      '--room <room>',
      'put everything in this room (default: from the folder structure, or the conversation topic)',
    )
    .option('--prune', 'remove drawers of project files that no longer exist under <path> (conversations are kept)')
    .option('--max-file-size <bytes>', 'skip files larger than this (default 2097152)')
    .option('--chunk-size <chars>', 'target chunk size in characters (default 1200)')
    .option('--chunk-overlap <chars>', 'overlap when a block must be cut (default 200)')
    .option('--no-gitignore', 'do not read .gitignore files (.lociignore still applies)')
    .option('--ignore <pattern...>', 'extra gitignore-style patterns to skip')
    .option('--json', 'print the summary as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  loci mine ~/code/myapp\n  loci mine ./docs --wing myapp --room docs --json\n' +
        '  loci mine --claude\n  loci mine ~/Downloads/chatgpt-export --mode convos\n',
    )
    .action((path: string | undefined, o: MineFlags) => run(path, o, ctx));

  program
    .command('sync')
    .description('remove drawers whose source files were deleted (optionally only under a path)')
    .argument('[path]', 'only check sources under this path')
    .option('--json', 'print the result as JSON')
    .action(async (path: string | undefined, o: { json?: boolean }) => {
      const r = await withPalace(ctx, (p) => p.sync(path === undefined ? undefined : resolve(ctx.io.cwd, path)));
      if (o.json) {
        return printJson(ctx.io, {
          sources_checked: r.sourcesChecked,
          sources_removed: r.sourcesRemoved,
          drawers_removed: r.drawersRemoved,
        });
      }
      ctx.io.stdout(`checked ${r.sourcesChecked} sources: removed ${r.sourcesRemoved} (${r.drawersRemoved} drawers)\n`);
    });
};
