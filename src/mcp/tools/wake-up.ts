/**
 * @module mcp/tools/wake-up
 * The wake-up: what an agent should know at the start of a session — identity, pinned memories,
 * then the project's most important recent memories and drawers — within a token budget. The
 * same text the `session-start` hook injects and `loci wake-up` prints.
 */
import * as z from 'zod';
import { wakeUp, type WakeUpItem } from '../../index.js';
import { READ, defineTool, type AnyTool } from '../tool.js';

const Item = z.object({
  kind: z.enum(['memory', 'drawer']),
  id: z.string().describe('memory: file relative to the memory directory; drawer: the drawer id'),
  label: z.string().describe('memory type or drawer hall'),
  text: z.string(),
  date: z.string().nullable(),
  age_days: z.number().int().nullable(),
  pinned: z.boolean(),
  uses: z.number().int(),
});

const itemOf = (i: WakeUpItem): z.output<typeof Item> => ({ kind: i.kind, id: i.id, label: i.label, text: i.text, date: i.date, age_days: i.ageDays, pinned: i.pinned, uses: i.uses });

const wake = defineTool({
  name: 'loci_wake_up',
  title: 'Wake-up briefing',
  description:
    'A short briefing for the start of a session: who the user is, pinned memories, then the most important recent memories and decisions of this project (ranked by recency, use and kind), each with its age, within max_tokens. Call it once when starting work if it was not already injected.',
  input: {
    wing: z.string().trim().min(1).max(200).optional().describe('the project\'s wing (default: this project\'s)'),
    max_tokens: z.number().int().min(100).max(8000).default(800).describe('budget, 100–8000 (default 800)'),
  },
  output: {
    text: z.string(),
    tokens: z.number().int(),
    wing: z.string(),
    memory_dir: z.string().nullable(),
    identity_file: z.string().nullable(),
    pinned: z.array(Item),
    recent: z.array(Item),
    omitted: z.number().int().describe('candidates that did not fit the budget'),
  },
  annotations: READ,
  async run(ctx, a) {
    const r = await wakeUp({
      palace: ctx.palace,
      cwd: ctx.cwd,
      env: ctx.env,
      memoryDir: ctx.memoryDir().dir,
      maxTokens: a.max_tokens,
      logger: ctx.logger,
      ...(a.wing ? { wing: a.wing } : {}),
    });
    const data = {
      text: r.text,
      tokens: r.tokens,
      wing: r.wing,
      memory_dir: r.memoryDir,
      identity_file: r.sections.identity?.file ?? null,
      pinned: r.sections.pinned.map(itemOf),
      recent: r.sections.recent.map(itemOf),
      omitted: r.omitted,
    };
    return { data, text: r.text || `nothing to wake up to yet for wing ${r.wing}: no identity, memories or recent drawers` };
  },
});

/** Wake-up tool. */
export const wakeUpTools: AnyTool[] = [wake];
