/**
 * @module mcp/tools/recall
 * Recall: which memory files matter for a question, with their bodies (Loci's hybrid search over
 * the memory files; no model call).
 */
import * as z from 'zod';
import { MEMORY_TYPES, readMemoryFile } from '../../memdir/index.js';
import { selectRelevantMemories } from '../../recall/index.js';
import { READ, defineTool, type AnyTool } from '../tool.js';
import { plural } from '../shapes.js';

const recall = defineTool({
  name: 'loci_memory_recall',
  title: 'Recall memories for a task',
  description:
    'Finds the saved memory files that are clearly useful for a question or task (preferences, feedback, project ' +
    'decisions, references) and returns them with their bodies, best first. Cheaper than listing and reading ' +
    "every memory; use loci_search for the palace's drawers.",
  input: {
    query: z.string().trim().min(1).max(2000).describe('the task or question'),
    max: z.number().int().min(1).max(20).default(5).describe('most memories returned, 1–20 (default 5)'),
    scope: z.enum(['project', 'user']).default('project'),
  },
  output: {
    dir: z.string(),
    selector: z.enum(['llm', 'search']),
    reason: z.string().nullable().describe('why nothing (or fewer) was recalled, when that happens'),
    memories: z.array(
      z.object({
        file: z.string(),
        name: z.string(),
        type: z.enum(MEMORY_TYPES).nullable(),
        description: z.string(),
        modified: z.string(),
        body: z.string(),
      }),
    ),
  },
  annotations: READ,
  async run(ctx, a, extras) {
    const dir = ctx.memoryDir({ user: a.scope === 'user' }).dir;
    const sel = await selectRelevantMemories(a.query, { dir, max: a.max, signal: extras.signal, logger: ctx.logger });
    const memories = [];
    for (const file of sel.files) {
      const m = readMemoryFile(dir, file);
      if (m)
        memories.push({
          file: m.file,
          name: m.name,
          type: m.type,
          description: m.description,
          modified: m.modified,
          body: m.body,
        });
    }
    const text = memories.length
      ? `${plural(memories.length, 'memory', 'memories')} for ${JSON.stringify(a.query)}\n` +
        memories
          .map(
            (m) =>
              `\n[${m.type ?? '-'}] ${m.name} (${m.file}, ${m.modified.slice(0, 10)}): ${m.description}\n` +
              `${m.body.trim()}`,
          )
          .join('\n')
      : `no memory recalled${sel.reason ? `: ${sel.reason}` : ''}`;
    return { data: { dir, selector: sel.selector, reason: sel.reason ?? null, memories }, text };
  },
});

/** Recall tools. */
export const recallTools: AnyTool[] = [recall];
