/**
 * @module cli/commands
 * The command modules, loaded on demand. A command module imports the library; this list does not:
 * it holds each module's loader and, for `loci --help`, the help line of every top-level command it
 * registers. So `loci --version` and `loci --help` load no library module, and `loci search` loads
 * only `search.ts` and what it imports. `cli/commands.test.ts` checks that these help lines are the
 * ones the modules register. Add one entry per command file.
 */
import type { DirectCommand, RegisterCommand } from '../context.js';

/** The help line of one top-level command (what `loci --help` lists). */
interface CommandSummary {
  name: string;
  /** The command term as commander prints it, e.g. `search [options] <query...>`. */
  term: string;
  description: string;
  hidden?: boolean;
}

/** One command module: its loader and the top-level commands it registers. */
interface CommandModule {
  /** The module; `direct`, when it exports one, runs the plain argv forms without commander. */
  load: () => Promise<{ register: RegisterCommand; direct?: DirectCommand }>;
  commands: readonly CommandSummary[];
}

const line = (name: string, args: string, description: string, hidden = false): CommandSummary => ({
  name,
  term: args ? `${name} ${args}` : name,
  description,
  ...(hidden ? { hidden } : {}),
});

/** In the order `loci --help` lists them: everyday verbs first. */
export const COMMANDS: readonly CommandModule[] = [
  {
    load: () => import('./init.js'),
    commands: [line('init', '[options]', 'create the palace folder and database (safe to run again)')],
  },
  {
    load: () => import('./mine.js'),
    commands: [
      line(
        'mine',
        '[options] [path]',
        'mine a folder or file (project files and conversation transcripts) into the palace; ' +
          're-running only picks up changes',
      ),
      line('sync', '[options] [path]', 'remove drawers whose source files were deleted (optionally only under a path)'),
    ],
  },
  {
    load: () => import('./search.js'),
    commands: [line('search', '[options] <query...>', 'search everything mined, best first')],
  },
  {
    load: () => import('./status.js'),
    commands: [
      line('status', '[options]', 'show the palace: location, drawers per wing and room, size, index health'),
      line('get', '[options] <id>', 'print one drawer by id (verbatim)'),
      line('list', '[options] <what>', 'list wings, rooms or drawers with counts'),
    ],
  },
  {
    load: () => import('./memory.js'),
    commands: [line('memory', '', 'Claude Code–compatible memory files (MEMORY.md and topic files)')],
  },
  {
    load: () => import('./extract.js'),
    commands: [
      line(
        'extract',
        '[options]',
        'propose memories from the new part of a session and write them (or --dry-run to see the diff)',
      ),
      line(
        'notes',
        '[options]',
        'bring the running notes of a session up to date (thresholds: 10K tokens, then 5K + 3 tool calls)',
      ),
    ],
  },
  {
    load: () => import('./dream.js'),
    commands: [
      line(
        'dream',
        '[options]',
        'consolidate the memory files: merge duplicates, date relative words, drop contradicted facts (undoable)',
      ),
    ],
  },
  {
    load: () => import('./recall.js'),
    commands: [
      line(
        'recall',
        '[options] <query...>',
        'print what recall would inject for a prompt (memory files, optionally palace drawers)',
      ),
    ],
  },
  {
    load: () => import('./chat.js'),
    commands: [
      line('chat', '[options]', 'a terminal coding agent on the LLM of LOCI_LLM_PROVIDER, with recall and the palace'),
    ],
  },
  {
    load: () => import('./kg.js'),
    commands: [
      line('kg', '', 'the temporal knowledge graph: facts with validity windows, filled at ingest'),
      line(
        'traverse',
        '[options] <wing/room>',
        'walk from a room to rooms of the same name in other wings and through explicit tunnels',
      ),
    ],
  },
  {
    load: () => import('./diary.js'),
    commands: [line('diary', '', "an agent's journal, stored as drawers in the diary wing")],
  },
  {
    load: () => import('./wake-up.js'),
    commands: [line('wake-up', '[options]', 'print the wake-up text injected when a session starts')],
  },
  {
    load: () => import('./mcp.js'),
    commands: [
      line('mcp', '[options]', 'run the MCP server for agents (stdio by default; --http for Streamable HTTP)'),
    ],
  },
  // ── team server (issue 15) ──
  {
    load: () => import('./add.js'),
    commands: [line('add', '[options] [text...]', 'store a piece of text as a drawer (from the arguments or stdin)')],
  },
  {
    load: () => import('./serve.js'),
    commands: [
      line(
        'serve',
        '[options]',
        'run the team server: MCP over HTTP and the API of remote mode, with per-member tokens',
      ),
    ],
  },
  {
    load: () => import('./ui.js'),
    commands: [
      line(
        'ui',
        '[options]',
        'serve the web UI on 127.0.0.1: browse, search, the knowledge graph, memory files, agents, status',
      ),
    ],
  },
  {
    load: () => import('./hooks.js'),
    commands: [line('hooks', '', 'Claude Code hooks: wake-up, recall on every prompt, zero-token archiving')],
  },
  {
    load: () => import('./hook.js'),
    commands: [
      line(
        'hook',
        '<event>',
        'run a Claude Code hook: reads the hook JSON on stdin, prints the answer (always exits 0)',
      ),
      line('hook-worker', '[options]', 'drain the hook archive queue (started detached by the hooks)', true),
    ],
  },
  {
    load: () => import('./embed.js'),
    commands: [
      line(
        'embed',
        '[options]',
        'embed drawers that have no vector yet (rebuilds everything after an embedder change)',
      ),
    ],
  },
  {
    load: () => import('./bench.js'),
    commands: [line('bench', '', 'retrieval benchmarks (Loci vs plain BM25 in the same run)')],
  },
];
