/**
 * @module cli/commands/diary
 * `loci diary write|read --agent A`: an agent's journal, kept as searchable drawers.
 */
import { createError } from '../../core/errors.js';
import type { RegisterCommand } from '../context.js';
import { colors, dateOption, intOption, printJson } from '../format.js';
import { withPalace } from '../open.js';

export const register: RegisterCommand = (program, ctx) => {
  const diary = program.command('diary').description("an agent's journal, stored as drawers in the diary wing");
  diary
    .command('write')
    .description('add an entry (text from the arguments or stdin)')
    .requiredOption('--agent <name>', 'who is writing (e.g. claude)')
    .option('--topic <topic>', 'a topic label')
    .option('--json', 'print the new entry id as JSON')
    .argument('[text...]', 'the entry; read from stdin when omitted')
    .action(async (words: string[], o: { agent: string; topic?: string; json?: boolean }) => {
      const entry = words.length ? words.join(' ') : (await ctx.io.readStdin()).trim();
      if (!entry)
        throw createError('INVALID_ARGUMENT', { name: 'entry', value: '', expected: 'text as arguments or on stdin' });
      const r = await withPalace(ctx, (p) =>
        p.diaryWrite({ agent: o.agent, entry, ...(o.topic ? { topic: o.topic } : {}) }),
      );
      if (o.json) return printJson(ctx.io, { id: r.id, date: r.date });
      ctx.io.stdout(`wrote ${r.id} (${r.date})\n`);
    });
  diary
    .command('read')
    .description("an agent's entries, newest first")
    .requiredOption('--agent <name>', 'whose diary')
    .option('-n, --limit <n>', 'entries to show (default 10)')
    .option('--since <date>', 'only entries on or after this date')
    .option('--json', 'print as JSON')
    .action(async (o: { agent: string; limit?: string; since?: string; json?: boolean }) => {
      const limit = intOption('--limit', o.limit, 10, 1, 1000);
      dateOption('--since', o.since);
      const r = await withPalace(ctx, (p) => p.diaryRead(o.agent, { limit, ...(o.since ? { since: o.since } : {}) }));
      if (o.json) {
        return printJson(ctx.io, {
          total: r.total,
          entries: r.entries.map((d) => ({
            id: d.id,
            date: d.contentDate,
            topic: d.metadata['topic'] ?? null,
            text: d.text,
          })),
        });
      }
      const c = colors(ctx.io);
      const topicOf = (d: (typeof r.entries)[number]): string =>
        d.metadata['topic'] ? `  [${String(d.metadata['topic'])}]` : '';
      if (r.entries.length === 0) return ctx.io.stdout(`no diary entries for ${o.agent}\n`);
      for (const d of r.entries)
        ctx.io.stdout(`${c.dim(`${d.contentDate ?? ''}  ${d.id}${topicOf(d)}`)}\n` + `${d.text}\n\n`);
      ctx.io.stdout(c.dim(`${r.entries.length} of ${r.total}\n`));
    });
};
