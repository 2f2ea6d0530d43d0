/**
 * @module cli/commands/memory
 * `loci memory list|show|add|edit|forget|index|where|sync`: Claude Code–compatible memory files, in
 * Claude Code's memory directory when it is in use here, else in Loci's own (`where` says which).
 */
import type { Command } from 'commander';
import {
  addMemory,
  createError,
  editMemory,
  findMemory,
  forgetMemory,
  invalidMemoryFiles,
  listMemories,
  loadMemoryIndex,
  parseMemoryType,
  rebuildIndex,
  resolveHome,
  selectMemoryDir,
  type AddMemoryInput,
  type IndexStats,
  type MemoryDirChoice,
  type MemoryEntry,
} from '../../internal.js';
import type { CliContext, RegisterCommand } from '../context.js';
import { bytes, colors, printJson, table } from '../format.js';
import { registerMemorySync } from './memory-sync.js';

interface DirOptions {
  dir?: string;
  claude?: boolean;
  user?: boolean;
  json?: boolean;
}

function withDirOptions(cmd: Command): Command {
  return cmd
    .option('--dir <dir>', 'work on this memory directory')
    .option('--claude', "use Claude Code's memory directory even if it does not exist yet")
    .option('--user', 'use the user-level memories (they follow you across projects)')
    .option('--json', 'print as JSON');
}

function choose(ctx: CliContext, o: DirOptions): MemoryDirChoice {
  const choice = selectMemoryDir({
    cwd: ctx.io.cwd,
    env: ctx.io.env,
    lociHome: resolveHome(ctx.globals().home, ctx.io.env),
    ...(o.dir !== undefined ? { dir: o.dir } : {}),
    ...(o.claude ? { claude: true } : {}),
    ...(o.user ? { user: true } : {}),
  });
  if (choice.merged) {
    const m = choice.merged;
    if (m.moved.length)
      ctx.io.stderr(
        `loci: note: moved ${m.moved.length} ${m.moved.length === 1 ? 'memory' : 'memories'} from Loci's own ` +
          `folder ${m.from} into Claude Code's ${choice.dir}\n`,
      );
    for (const [a, b] of m.renamed)
      ctx.io.stderr(`loci: note: ${a} was taken by a different memory in Claude Code's folder; moved as ${b}\n`);
    for (const e of m.errors) ctx.io.stderr(`loci: warning: ${e}\n`);
  }
  for (const e of choice.tidied?.errors ?? []) ctx.io.stderr(`loci: warning: ${e}\n`);
  // One broken file never breaks the folder: it is skipped, and named here once per command.
  for (const f of invalidMemoryFiles(choice.dir)) {
    ctx.io.stderr(
      `loci: warning: skipped ${f.path}: its frontmatter cannot be read (${f.reason}); fix the YAML or delete the ` +
        'file\n',
    );
  }
  return choice;
}

function entryJson(m: MemoryEntry) {
  return {
    name: m.name,
    type: m.type,
    description: m.description,
    file: m.file,
    modified: m.modified,
    title: m.title,
    privacy: m.privacy,
    pinned: m.pinned,
    bytes: m.bytes,
    team: m.team,
    links: m.links,
    path: m.path,
  };
}

function indexLine(s: IndexStats): string {
  return (
    `MEMORY.md: ${s.entries} ${s.entries === 1 ? 'entry' : 'entries'}, ${s.lines} lines, ${bytes(s.bytes)}` +
    (s.omitted ? `, ${s.omitted} left out to stay within 200 lines / 25 KB` : '') +
    (s.dropped ? `, ${s.dropped} dangling lines dropped` : '') +
    '\n'
  );
}

async function bodyFrom(
  ctx: CliContext,
  body: string | undefined,
  readWhenAbsent: boolean,
): Promise<string | undefined> {
  if (body === '-' || (body === undefined && readWhenAbsent)) {
    const text = await ctx.io.readStdin();
    return text.trim() === '' ? undefined : text;
  }
  return body;
}

export const register: RegisterCommand = (program, ctx) => {
  const memory = program
    .command('memory')
    .description('Claude Code–compatible memory files (MEMORY.md and topic files)');

  withDirOptions(memory.command('list').description('list memories, pinned and newest first'))
    .option('-t, --type <type>', 'only this type: user, feedback, project, reference')
    .action((o: DirOptions & { type?: string }) => {
      const type = o.type === undefined ? undefined : parseMemoryType(o.type);
      const choice = choose(ctx, o);
      const all = listMemories(choice.dir, type ? { type } : {});
      const list = [...all.filter((m) => m.pinned), ...all.filter((m) => !m.pinned)];
      if (o.json) return printJson(ctx.io, { memories: list.map(entryJson) });
      const c = colors(ctx.io);
      if (list.length === 0) {
        ctx.io.stdout(
          `no memories in ${choice.dir} — add one with \`loci memory add --type feedback --name … --description …\`\n`,
        );
        return;
      }
      const rows = [['TYPE', 'NAME', 'MODIFIED', 'DESCRIPTION']];
      for (const m of list)
        rows.push([m.type ?? '-', (m.pinned ? '* ' : '') + m.name, m.modified.slice(0, 10), m.description]);
      ctx.io.stdout(table(rows));
      ctx.io.stdout(c.dim(`${list.length} memories in ${choice.dir} (${choice.kind})\n`));
    });

  withDirOptions(
    memory.command('show').description('print one memory').argument('<name>', 'name, slug or file'),
  ).action((name: string, o: DirOptions) => {
    const m = findMemory(choose(ctx, o).dir, name);
    if (o.json) return printJson(ctx.io, { memory: { ...entryJson(m), body: m.body } });
    ctx.io.stdout(colors(ctx.io).dim(`${m.path}\n`));
    ctx.io.stdout(m.text + (m.text.endsWith('\n') ? '' : '\n'));
  });

  withDirOptions(memory.command('add').description('save a new memory (body from --body or stdin)'))
    .requiredOption('-t, --type <type>', 'user, feedback, project or reference')
    .requiredOption('-n, --name <name>', 'short title; slugged for the file name')
    .requiredOption('-d, --description <text>', 'one line saying when the memory is relevant')
    .option('-b, --body <text>', 'the fact ("-" reads stdin; without --body stdin is read unless it is a terminal)')
    .option('--why <text>', 'feedback/project: the reason')
    .option('--how <text>', 'feedback/project: how to apply it')
    .option('--privacy <p>', 'private or team (default by type)')
    .option('--pinned', 'pin it (applies globally)')
    .option('--team', 'write it under team/')
    .action(async (o: DirOptions & AddMemoryInput) => {
      parseMemoryType(o.type);
      const choice = choose(ctx, o);
      const body = await bodyFrom(ctx, o.body, true);
      const r = addMemory(choice.dir, {
        type: o.type,
        name: o.name,
        description: o.description,
        ...(body !== undefined ? { body } : {}),
        ...(o.why !== undefined ? { why: o.why } : {}),
        ...(o.how !== undefined ? { how: o.how } : {}),
        ...(o.privacy !== undefined ? { privacy: o.privacy } : {}),
        ...(o.pinned ? { pinned: true } : {}),
        ...(o.team ? { team: true } : {}),
      });
      if (o.json)
        return printJson(ctx.io, { memory: entryJson(r.memory), index: r.index, dir: choice.dir, kind: choice.kind });
      ctx.io.stdout(`saved ${r.memory.type} memory ${r.memory.name} → ${r.memory.path}\n`);
      ctx.io.stdout(colors(ctx.io).dim(indexLine(r.index)));
    });

  withDirOptions(
    memory
      .command('edit')
      .description('change a memory in place (frontmatter keys and order are kept)')
      .argument('<name>', 'name, slug or file'),
  )
    .option('-d, --description <text>', 'new one-line description')
    .option('-b, --body <text>', 'new body ("-" reads stdin; stdin is also read when nothing else is given)')
    .option('--why <text>', 'feedback/project: new reason')
    .option('--how <text>', 'feedback/project: new how-to-apply')
    .option('-t, --type <type>', 'new type (renames a {type}_ file)')
    .option('--privacy <p>', 'private or team')
    .option('--pinned', 'pin it')
    .option('--unpinned', 'unpin it')
    .action(
      async (
        name: string,
        o: DirOptions & {
          description?: string;
          body?: string;
          why?: string;
          how?: string;
          type?: string;
          privacy?: string;
          pinned?: boolean;
          unpinned?: boolean;
        },
      ) => {
        if (o.type !== undefined) parseMemoryType(o.type);
        if (o.pinned && o.unpinned)
          throw createError('INVALID_ARGUMENT', {
            name: '--pinned/--unpinned',
            value: 'both',
            expected: 'one of them',
          });
        const choice = choose(ctx, o);
        const nothingElse = [o.description, o.why, o.how, o.type, o.privacy, o.pinned, o.unpinned].every(
          (v) => v === undefined,
        );
        const body = await bodyFrom(ctx, o.body, nothingElse);
        const r = editMemory(choice.dir, name, {
          ...(o.description !== undefined ? { description: o.description } : {}),
          ...(body !== undefined ? { body } : {}),
          ...(o.why !== undefined ? { why: o.why } : {}),
          ...(o.how !== undefined ? { how: o.how } : {}),
          ...(o.type !== undefined ? { type: o.type } : {}),
          ...(o.privacy !== undefined ? { privacy: o.privacy } : {}),
          ...(o.pinned ? { pinned: true } : o.unpinned ? { pinned: false } : {}),
        });
        if (o.json) return printJson(ctx.io, { memory: entryJson(r.memory), changed: r.changed, index: r.index });
        ctx.io.stdout(`${r.changed ? 'updated' : 'unchanged:'} ${r.memory.name} (${r.memory.path})\n`);
        ctx.io.stdout(colors(ctx.io).dim(indexLine(r.index)));
      },
    );

  withDirOptions(
    memory
      .command('forget')
      .description('delete a memory file and rebuild MEMORY.md')
      .argument('<name>', 'name, slug or file'),
  ).action((name: string, o: DirOptions) => {
    const r = forgetMemory(choose(ctx, o).dir, name);
    if (o.json) return printJson(ctx.io, { forgotten: entryJson(r.memory), index: r.index });
    ctx.io.stdout(`forgot ${r.memory.name} (deleted ${r.memory.path})\n`);
    ctx.io.stdout(colors(ctx.io).dim(indexLine(r.index)));
  });

  withDirOptions(memory.command('index').description('rebuild MEMORY.md from the topic files and print its stats'))
    .option('--regenerate', 'rewrite every line from the frontmatter (drops hand-written hooks)')
    .action((o: DirOptions & { regenerate?: boolean }) => {
      const dir = choose(ctx, o).dir;
      const stats = rebuildIndex(dir, o.regenerate ? { regenerate: true } : {});
      const loaded = loadMemoryIndex(dir);
      if (o.json)
        return printJson(ctx.io, {
          index: stats,
          loaded: { lines: loaded.lines, bytes: loaded.bytes, truncated: loaded.truncated },
        });
      ctx.io.stdout(`${stats.written ? 'rebuilt' : 'up to date:'} ${stats.file}\n`);
      ctx.io.stdout(indexLine(stats));
      if (stats.preserved) ctx.io.stdout(`${stats.preserved} lines not written by Loci kept\n`);
    });

  withDirOptions(memory.command('where').description('print which memory directory is used, and why')).action(
    (o: DirOptions) => {
      const w = choose(ctx, o);
      const out = {
        dir: w.dir,
        kind: w.kind,
        reason: w.reason,
        projectRoot: w.projectRoot,
        projectId: w.projectId,
        claudeDir: w.claude.dir,
        claudeExists: w.claude.exists,
        claudeEnabled: w.claude.enabled,
        lociDir: w.lociDir,
        userDir: w.userDir,
        warnings: w.claude.warnings,
        ...(w.merged ? { merged: w.merged } : {}),
        ...(w.tidied ? { tidied: w.tidied } : {}),
      };
      if (o.json) return printJson(ctx.io, out);
      const c = colors(ctx.io);
      ctx.io.stdout(`${c.bold(w.dir)}\n`);
      ctx.io.stdout(
        table([
          ['kind', w.kind],
          ['why', w.reason],
          ['project root', w.projectRoot],
          ['project id', w.projectId],
          [
            'claude code',
            `${w.claude.dir}${w.claude.exists ? '' : ' (does not exist)'}` +
              `${w.claude.enabled ? '' : ' (auto memory off)'}`,
          ],
          ['loci', w.lociDir],
          ['user-level', w.userDir],
        ]),
      );
      for (const warn of w.claude.warnings) ctx.io.stderr(`loci: warning: ${warn}\n`);
    },
  );

  registerMemorySync(memory, ctx, choose);
};
