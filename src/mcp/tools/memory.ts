/**
 * @module mcp/tools/memory
 * Claude Code–compatible memory files (MEMORY.md plus one topic file per memory): list, read,
 * write, edit, forget, and where they live. They live in Claude Code's memory directory when it is
 * in use for the project, else in Loci's own; `scope: "user"` picks the memories that follow the
 * user across projects.
 */
import * as z from 'zod';
import {
  MEMORY_TYPES,
  addMemory,
  editMemory,
  findMemory,
  forgetMemory,
  listMemories,
  type IndexStats,
  type MemoryEntry,
} from '../../memdir/index.js';
import { DESTRUCTIVE, READ, WRITE, defineTool, type AnyTool } from '../tool.js';
import { plural } from '../shapes.js';

const scope = z
  .enum(['project', 'user'])
  .default('project')
  .describe("project (default): this project's memories; user: memories that follow the user everywhere");
const memoryType = z.enum(MEMORY_TYPES);
const memoryName = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .describe('the memory\'s name, slug or file (e.g. "testing policy" or feedback_testing-policy.md)');

const Entry = z.object({
  name: z.string(),
  title: z.string(),
  type: memoryType.nullable(),
  description: z.string(),
  file: z.string().describe('path relative to the memory directory'),
  modified: z.string(),
  privacy: z.enum(['private', 'team']),
  pinned: z.boolean(),
  team: z.boolean(),
  bytes: z.number().int(),
});
const Index = z.object({
  entries: z.number().int(),
  lines: z.number().int(),
  bytes: z.number().int(),
  omitted: z.number().int(),
});
const Dir = { dir: z.string().describe('the memory directory'), kind: z.enum(['claude', 'loci', 'explicit']) };

function entryOf(m: MemoryEntry): z.output<typeof Entry> {
  return {
    name: m.name,
    title: m.title,
    type: m.type,
    description: m.description,
    file: m.file,
    modified: m.modified,
    privacy: m.privacy,
    pinned: m.pinned,
    team: m.team,
    bytes: m.bytes,
  };
}
const indexOf = (s: IndexStats): z.output<typeof Index> => ({
  entries: s.entries,
  lines: s.lines,
  bytes: s.bytes,
  omitted: s.omitted,
});
const line = (m: z.output<typeof Entry>) =>
  `${m.pinned ? '* ' : ''}[${m.type ?? '-'}] ${m.name} (${m.file}): ${m.description}`;

const list = defineTool({
  name: 'loci_memory_list',
  title: 'List memory files',
  description:
    'Lists the saved memories (one topic file each, indexed by MEMORY.md): name, type (user, feedback, project, ' +
    'reference), one-line description, file — pinned first, then newest. Bodies are not included: read one ' +
    'with loci_memory_read.',
  input: { type: memoryType.optional().describe('only this type'), scope },
  output: { ...Dir, memories: z.array(Entry) },
  annotations: READ,
  async run(ctx, a) {
    const choice = ctx.memoryDir({ user: a.scope === 'user' });
    const all = listMemories(choice.dir, a.type ? { type: a.type } : {}).map(entryOf);
    const memories = [...all.filter((m) => m.pinned), ...all.filter((m) => !m.pinned)];
    const text = memories.length
      ? `${plural(memories.length, 'memory', 'memories')} in ${choice.dir}\n${memories.map(line).join('\n')}`
      : `no memories in ${choice.dir}`;
    return { data: { dir: choice.dir, kind: choice.kind, memories }, text };
  },
});

const read = defineTool({
  name: 'loci_memory_read',
  title: 'Read a memory file',
  description:
    'Returns one memory with its body (the fact, plus why and how to apply it for feedback and project memories). ' +
    'Find names with loci_memory_list.',
  input: { name: memoryName, scope },
  output: { ...Dir, memory: Entry.extend({ body: z.string() }) },
  annotations: READ,
  async run(ctx, a) {
    const choice = ctx.memoryDir({ user: a.scope === 'user' });
    const m = findMemory(choice.dir, a.name);
    return {
      data: { dir: choice.dir, kind: choice.kind, memory: { ...entryOf(m), body: m.body } },
      text: `${m.file}\n${m.text}`,
    };
  },
});

const write = defineTool({
  name: 'loci_memory_write',
  title: 'Save a new memory',
  description:
    'Saves a new memory as its own file and indexes it in MEMORY.md (loaded into every future session). Types: ' +
    'user (who the user is, their role and preferences), feedback (how to work: corrections and confirmed ' +
    'approaches), project (goals, decisions, deadlines not visible in code), reference (where to find things ' +
    'outside the repo). ' +
    'Give a short name and a one-line description saying when it is relevant; for feedback and project add why and ' +
    'how. Do not save what the code or git history already says. Fails with MEMORY_EXISTS when the name is ' +
    'taken: use loci_memory_edit.',
  input: {
    type: memoryType,
    name: z.string().trim().min(1).max(200).describe('short title, e.g. "testing policy"; it becomes the file name'),
    description: z.string().trim().min(1).max(300).describe('one line: when this memory is relevant'),
    body: z.string().min(1).max(20_000).optional().describe('the fact itself (default: the description)'),
    why: z.string().max(2000).optional().describe('feedback/project: the reason'),
    how: z.string().max(2000).optional().describe('feedback/project: when and how to apply it'),
    privacy: z.enum(['private', 'team']).optional().describe('default by type; user memories are always private'),
    pinned: z.boolean().default(false).describe('always load it first'),
    team: z.boolean().default(false).describe('share it with the team (written under team/; not for user memories)'),
    scope,
  },
  output: { ...Dir, memory: Entry, index: Index },
  annotations: WRITE(false),
  async run(ctx, a) {
    const choice = ctx.memoryDir({ user: a.scope === 'user' });
    const r = addMemory(choice.dir, {
      type: a.type,
      name: a.name,
      description: a.description,
      ...(a.body !== undefined ? { body: a.body } : {}),
      ...(a.why !== undefined ? { why: a.why } : {}),
      ...(a.how !== undefined ? { how: a.how } : {}),
      ...(a.privacy !== undefined ? { privacy: a.privacy } : {}),
      ...(a.pinned ? { pinned: true } : {}),
      ...(a.team ? { team: true } : {}),
    });
    return {
      data: { dir: choice.dir, kind: choice.kind, memory: entryOf(r.memory), index: indexOf(r.index) },
      text:
        `saved ${r.memory.type} memory ${r.memory.name} → ${r.memory.path} (MEMORY.md: ` +
        `${plural(r.index.entries, 'entry', 'entries')})`,
    };
  },
});

const edit = defineTool({
  name: 'loci_memory_edit',
  title: 'Change a memory',
  description:
    'Updates an existing memory in place when a fact changed or was wrong: its description, body, why / how, type, ' +
    'privacy or pin. Give only what changes; the rest of the file is kept as it is. Use loci_memory_forget ' +
    'when it no longer holds at all.',
  input: {
    name: memoryName,
    description: z.string().trim().min(1).max(300).optional(),
    body: z.string().min(1).max(20_000).optional(),
    why: z.string().max(2000).optional(),
    how: z.string().max(2000).optional(),
    type: memoryType.optional(),
    privacy: z.enum(['private', 'team']).optional(),
    pinned: z.boolean().optional(),
    scope,
  },
  output: { ...Dir, memory: Entry, changed: z.boolean().describe('false when nothing differed') },
  annotations: DESTRUCTIVE(true),
  async run(ctx, a) {
    const choice = ctx.memoryDir({ user: a.scope === 'user' });
    const r = editMemory(choice.dir, a.name, {
      ...(a.description !== undefined ? { description: a.description } : {}),
      ...(a.body !== undefined ? { body: a.body } : {}),
      ...(a.why !== undefined ? { why: a.why } : {}),
      ...(a.how !== undefined ? { how: a.how } : {}),
      ...(a.type !== undefined ? { type: a.type } : {}),
      ...(a.privacy !== undefined ? { privacy: a.privacy } : {}),
      ...(a.pinned !== undefined ? { pinned: a.pinned } : {}),
    });
    return {
      data: { dir: choice.dir, kind: choice.kind, memory: entryOf(r.memory), changed: r.changed },
      text: `${r.changed ? 'updated' : 'unchanged:'} ${r.memory.name} (${r.memory.path})`,
    };
  },
});

const forget = defineTool({
  name: 'loci_memory_forget',
  title: 'Forget a memory',
  description:
    'Deletes a memory file and removes it from MEMORY.md, when what it says no longer holds or the user asks to ' +
    'forget it. There is no undo.',
  input: { name: memoryName, scope },
  output: { ...Dir, forgotten: Entry },
  annotations: DESTRUCTIVE(false),
  async run(ctx, a) {
    const choice = ctx.memoryDir({ user: a.scope === 'user' });
    const r = forgetMemory(choice.dir, a.name);
    return {
      data: { dir: choice.dir, kind: choice.kind, forgotten: entryOf(r.memory) },
      text: `forgot ${r.memory.name} (deleted ${r.memory.path})`,
    };
  },
});

const where = defineTool({
  name: 'loci_memory_where',
  title: 'Where memories live',
  description:
    "Says which memory directory is used for this project and why (Claude Code's own when it is in use here, else " +
    "Loci's), plus the project root and the user-level directory.",
  input: { scope },
  output: {
    ...Dir,
    reason: z.string(),
    project_root: z.string(),
    project_id: z.string(),
    claude_dir: z.string(),
    user_dir: z.string(),
    warnings: z.array(z.string()),
  },
  annotations: READ,
  async run(ctx, a) {
    const w = ctx.memoryDir({ user: a.scope === 'user' });
    const data = {
      dir: w.dir,
      kind: w.kind,
      reason: w.reason,
      project_root: w.projectRoot,
      project_id: w.projectId,
      claude_dir: w.claude.dir,
      user_dir: w.userDir,
      warnings: [...w.claude.warnings],
    };
    return { data, text: `${w.dir} (${w.kind}): ${w.reason}` };
  },
});

/** Memory-file tools. */
export const memoryTools: AnyTool[] = [list, read, write, edit, forget, where];
