/**
 * @module agent/tools-loci
 * Loci's own tools for the agent: `memory` (list, read and add memory files in the session's
 * memory directory, through `memdir`) and `search` (the palace's hybrid search).
 */
import { isLociError } from '../core/errors.js';
import { addMemory, getMemory, listMemories } from '../memdir/index.js';
import type { Palace } from '../palace/index.js';
import type { AgentTool, ToolRun } from './types.js';

/** Where Loci's tools read and write. */
interface LociToolsOptions {
  /** The memory directory (`MEMORY.md` plus topic files). Without it there is no `memory` tool. */
  memoryDir?: string | undefined;
  /** The open palace. Without it there is no `search` tool. */
  palace?: Pick<Palace, 'search'> | undefined;
}

const failed = (e: unknown): ToolRun => ({
  content: isLociError(e) ? e.message : `failed: ${(e as Error)?.message ?? String(e)}`,
  isError: true,
});

function memoryTool(dir: string): AgentTool {
  return {
    spec: {
      name: 'memory',
      description:
        'Persistent memory files shared with future sessions. action "list" lists them (name, type, ' +
        'description); "read" returns one by name; "add" saves a new one (type user, feedback, project or ' +
        'reference; name; description; body). Memories are snapshots: verify them against the code.',
      inputSchema: {
        type: 'object',
        properties: {
          action: { type: 'string', enum: ['list', 'read', 'add'] },
          name: { type: 'string' },
          type: { type: 'string', enum: ['user', 'feedback', 'project', 'reference'] },
          description: { type: 'string' },
          body: { type: 'string' },
        },
        required: ['action'],
      },
    },
    async run(input) {
      try {
        const action = input['action'];
        if (action === 'list') {
          const all = listMemories(dir);
          if (all.length === 0) return { content: 'no memories yet' };
          return { content: all.map((m) => `${m.file} (${m.type ?? 'untyped'}): ${m.description}`).join('\n') };
        }
        if (action === 'read') {
          const m = getMemory(dir, String(input['name'] ?? ''));
          return m ? { content: m.text } : { content: `no memory named ${String(input['name'])}`, isError: true };
        }
        if (action === 'add') {
          const r = addMemory(dir, {
            type: String(input['type'] ?? 'project'),
            name: String(input['name'] ?? ''),
            description: String(input['description'] ?? ''),
            ...(typeof input['body'] === 'string' ? { body: input['body'] } : {}),
          });
          return { content: `saved ${r.memory.file}` };
        }
        return { content: 'action must be list, read or add', isError: true };
      } catch (e) {
        return failed(e);
      }
    },
  };
}

function searchTool(palace: Pick<Palace, 'search'>): AgentTool {
  return {
    spec: {
      name: 'search',
      description:
        "Search Loci's palace: every mined project file and past conversation, best first. Returns the top " +
        'drawers with their wing/room, source and text.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string' },
          wing: { type: 'string', description: 'Only this wing (a project)' },
          limit: { type: 'integer', description: 'Hits (default 5, at most 20)' },
        },
        required: ['query'],
      },
    },
    async run(input) {
      try {
        const limit = Math.min(20, Math.max(1, Number(input['limit'] ?? 5) || 5));
        const r = await palace.search(String(input['query'] ?? ''), {
          limit,
          ...(typeof input['wing'] === 'string' && input['wing'] ? { wing: input['wing'] } : {}),
        });
        if (r.hits.length === 0) return { content: 'no hits' };
        const lines = r.hits.map(
          (h, i) =>
            `[${i + 1}] ${h.wing}/${h.room}${h.source ? ` ${h.source}` : ''}${h.lines ? `:${h.lines[0]}` : ''}\n` +
            h.text,
        );
        return { content: lines.join('\n\n') };
      } catch (e) {
        return failed(e);
      }
    },
  };
}

/** Loci's tools available with `opts`. */
export function lociTools(opts: LociToolsOptions): AgentTool[] {
  return [...(opts.memoryDir ? [memoryTool(opts.memoryDir)] : []), ...(opts.palace ? [searchTool(opts.palace)] : [])];
}
