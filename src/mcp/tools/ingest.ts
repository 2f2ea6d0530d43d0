/**
 * @module mcp/tools/ingest
 * Filling and pruning the palace: mine a path, sync away drawers of deleted files.
 */
import { isAbsolute, resolve } from 'node:path';
import * as z from 'zod';
import { DESTRUCTIVE, WRITE, defineTool, type AnyTool } from '../tool.js';
import { plural } from '../shapes.js';

const mine = defineTool({
  name: 'loci_mine',
  title: 'Mine a folder or file',
  description:
    'Reads a project folder (or one file) into the palace: every text file is split into verbatim drawers, filed ' +
    'under a wing (default: the git repository or folder name) and rooms from the folder structure. ' +
    'Incremental: unchanged files are skipped, changed ones replaced, so re-mining is cheap. .gitignore and ' +
    '.lociignore are respected; secrets are redacted. Returns counts, not content. ' +
    'Only paths inside the project and the Claude Code folder (or the folders in LOCI_MINE_ROOTS) can be mined; ' +
    'others fail with MINE_OUTSIDE_ROOTS.',
  input: {
    path: z
      .string()
      .min(1)
      .max(4096)
      .describe("folder or file to mine; relative paths are resolved from the server's working directory"),
    wing: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .describe('wing for every drawer (default: repository or folder name)'),
    room: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .describe('force one room for every drawer (default: from the folders)'),
    mode: z
      .enum(['auto', 'projects', 'convos'])
      .default('auto')
      .describe('projects: files as documents; convos: chat transcripts; auto: decide per file'),
  },
  output: {
    path: z.string(),
    wing: z.string(),
    files_scanned: z.number().int(),
    files_mined: z.number().int(),
    files_unchanged: z.number().int(),
    files_skipped: z.number().int(),
    drawers_added: z.number().int(),
    drawers_updated: z.number().int(),
    drawers_removed: z.number().int(),
    bytes_read: z.number().int(),
    conversations: z.number().int().describe('conversations that received new drawers'),
    redactions: z.number().int().describe('secrets replaced by [REDACTED:<kind>] before storing'),
    seconds: z.number(),
    warnings: z.array(z.string()).describe('files that could not be mined as-is, and why (at most 50)'),
  },
  annotations: WRITE(true),
  async run(ctx, a, extras) {
    const path = isAbsolute(a.path) ? a.path : resolve(ctx.cwd, a.path);
    let last = 0;
    const s = await ctx.palace.mine(path, {
      mode: a.mode,
      roots: await ctx.mineRoots(),
      ...(a.wing ? { wing: a.wing } : {}),
      ...(a.room ? { room: a.room } : {}),
      signal: extras.signal,
      logger: ctx.logger,
      onProgress: (p) => {
        const now = Date.now();
        if (now - last < 250 && p.filesSeen < p.filesTotal) return;
        last = now;
        extras.progress(p.filesSeen, p.filesTotal, p.current);
      },
    });
    const data = {
      path: s.path,
      wing: s.wing,
      files_scanned: s.filesScanned,
      files_mined: s.filesMined,
      files_unchanged: s.filesUnchanged,
      files_skipped: s.filesSkipped,
      drawers_added: s.drawersAdded,
      drawers_updated: s.drawersUpdated,
      drawers_removed: s.drawersRemoved,
      bytes_read: s.bytesRead,
      conversations: s.conversations,
      redactions: s.redactions,
      seconds: Math.round(s.seconds * 1000) / 1000,
      warnings: s.warnings.slice(0, 50),
    };
    const text =
      `mined ${s.path} into wing ${s.wing}: ${plural(s.filesMined, 'file')} mined, ${s.filesUnchanged} unchanged, ` +
      `${s.filesSkipped} skipped; ` +
      `${s.drawersAdded} drawers added, ${s.drawersUpdated} updated, ${s.drawersRemoved} removed in ${data.seconds} s` +
      (s.conversations ? `; ${plural(s.conversations, 'conversation')}` : '') +
      (s.redactions ? `; ${plural(s.redactions, 'secret')} redacted` : '') +
      (s.warnings.length ? `\n${plural(s.warnings.length, 'warning')}:\n${data.warnings.join('\n')}` : '');
    return { data, text };
  },
});

const sync = defineTool({
  name: 'loci_sync',
  title: 'Forget deleted files',
  description:
    'Removes the drawers of mined files that no longer exist on disk (under `path` when given, else everywhere), ' +
    'so searches stop returning deleted code and notes. This includes chat files that were mined and then ' +
    'deleted. Drawers added directly (no source file) are never touched.',
  input: {
    path: z
      .string()
      .min(1)
      .max(4096)
      .optional()
      .describe("only sources under this folder; relative paths are resolved from the server's working directory"),
  },
  output: { sources_checked: z.number().int(), sources_removed: z.number().int(), drawers_removed: z.number().int() },
  annotations: DESTRUCTIVE(true),
  async run(ctx, a) {
    const path = a.path === undefined ? undefined : isAbsolute(a.path) ? a.path : resolve(ctx.cwd, a.path);
    const r = await ctx.palace.sync(path);
    const data = {
      sources_checked: r.sourcesChecked,
      sources_removed: r.sourcesRemoved,
      drawers_removed: r.drawersRemoved,
    };
    return {
      data,
      text:
        `checked ${plural(r.sourcesChecked, 'source')}: ${r.sourcesRemoved} gone, ` +
        `${plural(r.drawersRemoved, 'drawer')} removed`,
    };
  },
});

/** Ingest tools. */
export const ingestTools: AnyTool[] = [mine, sync];
