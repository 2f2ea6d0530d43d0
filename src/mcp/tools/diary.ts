/**
 * @module mcp/tools/diary
 * An agent's journal: entries are drawers in the `diary` wing, one room per agent, searchable like
 * everything else.
 */
import * as z from 'zod';
import { READ, WRITE, defineTool, type AnyTool } from '../tool.js';
import { dateArg } from '../args.js';
import { plural } from '../shapes.js';

const agent = z.string().trim().min(1).max(64).describe('the agent\'s name, e.g. "claude"; one diary per name');

const write = defineTool({
  name: 'loci_diary_write',
  title: 'Write a diary entry',
  description:
    'Appends a dated entry to your own diary: what you worked on, what you learned, what to remember next time. ' +
    'Entries are stored verbatim and found again by loci_diary_read and loci_search. Write plain sentences; ' +
    'one entry per session or milestone.',
  input: {
    agent,
    entry: z.string().trim().min(1).max(20_000).describe('the entry, stored verbatim'),
    topic: z.string().trim().min(1).max(200).optional().describe('a label, e.g. "auth refactor"'),
    project: z.string().trim().min(1).max(200).optional().describe('the project the entry is about'),
  },
  output: { drawer_id: z.string(), date: z.string(), agent: z.string() },
  annotations: WRITE(false),
  async run(ctx, a) {
    const r = await ctx.palace.diaryWrite({
      agent: a.agent,
      entry: a.entry,
      ...(a.topic ? { topic: a.topic } : {}),
      ...(a.project ? { project: a.project } : {}),
    });
    return {
      data: { drawer_id: r.id, date: r.date, agent: a.agent },
      text: `diary entry ${r.id} written for ${a.agent} at ${r.date}`,
    };
  },
});

const Entry = z.object({
  id: z.string().describe('drawer id of the entry'),
  date: z.string().nullable(),
  topic: z.string().nullable(),
  project: z.string().nullable(),
  text: z.string(),
});

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

const read = defineTool({
  name: 'loci_diary_read',
  title: 'Read a diary',
  description:
    "Returns an agent's diary entries, newest first (what it noted in earlier sessions). Page with offset; since " +
    'limits to recent entries.',
  input: {
    agent,
    limit: z.number().int().min(1).max(100).default(10).describe('entries to return, 1–100 (default 10)'),
    offset: z.number().int().min(0).default(0),
    since: dateArg.optional().describe('only entries on or after this date'),
  },
  output: { agent: z.string(), total: z.number().int(), entries: z.array(Entry) },
  annotations: READ,
  async run(ctx, a) {
    const r = await ctx.palace.diaryRead(a.agent, {
      limit: a.limit,
      offset: a.offset,
      ...(a.since ? { since: a.since } : {}),
    });
    const entries = r.entries.map((d) => ({
      id: d.id,
      date: d.contentDate,
      topic: str(d.metadata['topic']),
      project: str(d.metadata['project']),
      text: d.text,
    }));
    const text = entries.length
      ? `${plural(r.total, 'entry', 'entries')} for ${a.agent}, newest first\n` +
        entries
          .map(
            (e) =>
              `\n${e.id} · ${e.date?.slice(0, 16).replace('T', ' ') ?? '-'}${e.topic ? ` · ${e.topic}` : ''}\n` +
              `${e.text}`,
          )
          .join('\n')
      : `no diary entries for ${a.agent}`;
    return { data: { agent: a.agent, total: r.total, entries }, text };
  },
});

/** Diary tools. */
export const diaryTools: AnyTool[] = [write, read];
