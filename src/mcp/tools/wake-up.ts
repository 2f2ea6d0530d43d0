/**
 * @module mcp/tools/wake-up
 * The wake-up: what an agent should know at the start of a session — identity, pinned memories,
 * then the project's most important recent memories and drawers — within a token budget. The
 * same text the `session-start` hook injects and `loci wake-up` prints.
 */
import * as z from 'zod';
import { wakeUp, type WakeUpResult } from '../../wakeup/index.js';
import { READ, defineTool, type AnyTool } from '../tool.js';

/** Every memory file and drawer id the text refers to, in order of appearance (no repeats). */
function refsOf(r: WakeUpResult): string[] {
  const out = new Set<string>();
  for (const i of r.sections.pinned) out.add(i.id);
  for (const s of r.sections.sessions)
    for (const id of [s.summary?.ids[0], s.request?.id, s.final?.id]) if (id) out.add(id);
  for (const i of r.sections.recent) out.add(i.id);
  return [...out];
}

const wake = defineTool({
  name: 'loci_wake_up',
  title: 'Wake-up briefing',
  description:
    'A short briefing for the start of a session: who the user is, pinned memories, where the latest sessions of ' +
    'this project left off (compaction summary, last request, final words), then the most important memories ' +
    'and decisions (ranked by recency, use and kind), each with its age, within max_tokens. Call it once ' +
    'when starting work if it was not already injected.',
  input: {
    wing: z.string().trim().min(1).max(200).optional().describe("the project's wing (default: this project's)"),
    max_tokens: z.number().int().min(100).max(8000).default(800).describe('budget, 100–8000 (default 800)'),
  },
  // Claude Code hands the model JSON.stringify(structuredContent): the text once, plus the ids it cites.
  output: {
    wing: z.string(),
    text: z.string().describe('the briefing; every line names its source (memory file or drawer id) and age'),
    tokens: z.number().int(),
    omitted: z.number().int().describe('candidates that did not fit the budget'),
    refs: z.array(z.string()).describe('memory files (relative to memory_dir) and drawer ids the text cites, in order'),
    memory_dir: z.string().nullable(),
  },
  annotations: READ,
  async run(ctx, a) {
    const choice = ctx.memoryDir();
    const r = await wakeUp({
      palace: ctx.palace,
      cwd: ctx.cwd,
      env: ctx.env,
      memoryDir: choice.dir,
      indexLoaded: choice.kind === 'claude',
      maxTokens: a.max_tokens,
      logger: ctx.logger,
      ...(a.wing ? { wing: a.wing } : {}),
    });
    const data = {
      wing: r.wing,
      text: r.text,
      tokens: r.tokens,
      omitted: r.omitted,
      refs: refsOf(r),
      memory_dir: r.memoryDir,
    };
    return {
      data,
      text: r.text || `nothing to wake up to yet for wing ${r.wing}: no identity, memories or recent drawers`,
    };
  },
});

/** Wake-up tool. */
export const wakeUpTools: AnyTool[] = [wake];
