/**
 * @module cli/commands/chat
 * `loci chat`: a small terminal coding agent on the LLM configured by the `LOCI_LLM_*` variables.
 * Interactive by default (see `cli/chat-tui.ts`); `-p "<prompt>"` runs one turn and prints the
 * answer, or with `--json` one document with the turn's figures. The work is the library's: the
 * agent loop (`agent`), the conversation's context (`context`), recall, memory files and the palace.
 * This module only wires them together and formats what they return.
 */
import {
  createAgent,
  FILE_TOOLS,
  listChatSessions,
  loadChatSession,
  lociTools,
  replayMessages,
  saveChatSession,
  SHELL_TOOL,
  type Agent,
  type AgentEvent,
  type AgentTool,
  type TurnResult,
  toolGuidance,
} from '../../agent/index.js';
import { createContextManager, llmSummariser, palaceArchiver, type ContextManager } from '../../context/index.js';
import { resolveHome, type Env } from '../../core/env.js';
import { createError } from '../../core/errors.js';
import { wingForCwd } from '../../core/project-identity.js';
import { listMemories, selectMemoryDir } from '../../memdir/index.js';
import { openPalace, type Palace } from '../../palace/index.js';
import { providerFromEnv, type StreamingLlmProvider } from '../../providers/index.js';
import { loadRecallSession } from '../../recall/index.js';
import { runChatTui, type ChatController } from '../chat-tui.js';
import type { CliContext, RegisterCommand } from '../context.js';
import { colors, intOption, printJson } from '../format.js';

interface ChatCliOptions {
  print?: string;
  json?: boolean;
  allow?: string;
  resume?: string;
  maxCalls?: string;
  recall?: boolean;
}

/** Tools allowed to `-p` when `--allow` is not given: the ones without side effects. */
const READ_ONLY = ['read', 'list', 'grep', 'memory', 'search'];

/** One chat session: the provider, its tools and the context it currently works in. */
interface ChatSetup {
  provider: StreamingLlmProvider;
  home: string;
  cwd: string;
  memoryDir: string;
  palace: Palace | undefined;
  /** Reports a problem the user must know of (stderr, one line). */
  warn: (message: string) => void;
  tools: AgentTool[];
  started: string;
  title: string | undefined;
  context: ContextManager;
  agent: Agent;
  confirm: (summary: string) => Promise<boolean>;
  maxCalls: number;
  recall: boolean;
}

function newContext(s: Omit<ChatSetup, 'context' | 'agent'>): ContextManager {
  const wing = wingForCwd(s.cwd) ?? 'chat';
  return createContextManager({
    model: s.provider.model,
    provider: s.provider.name,
    home: s.home,
    cwd: s.cwd,
    memoryDir: s.memoryDir,
    summariser: llmSummariser(s.provider),
    ...(s.palace ? { archive: palaceArchiver(s.palace, { wing, room: 'chat', addedBy: 'loci-chat' }) } : {}),
    tools: s.tools.map((t) => t.spec),
    prompt: { toolGuidance: toolGuidance(s.tools) },
  });
}

function newAgent(s: Omit<ChatSetup, 'agent'>): Agent {
  return createAgent({
    provider: s.provider,
    context: s.context,
    tools: s.tools,
    cwd: s.cwd,
    confirm: ({ summary }) => s.confirm(summary),
    maxModelCalls: s.maxCalls,
    ...(s.recall
      ? {
          recall: () => ({
            dir: s.memoryDir,
            home: s.home,
            session: loadRecallSession(s.home, s.context.sessionId),
          }),
        }
      : {}),
  });
}

/** The tools named by `--allow` (all of them when `allow` is undefined), checked against what exists. */
function pickTools(all: AgentTool[], allow: string[] | undefined): AgentTool[] {
  if (!allow) return all;
  const names = new Set(all.map((t) => t.spec.name));
  const unknown = allow.filter((a) => !names.has(a));
  if (unknown.length > 0) {
    throw createError('INVALID_ARGUMENT', {
      name: '--allow',
      value: allow.join(','),
      expected: `a comma-separated list of ${[...names].join(', ')}`,
    });
  }
  return all.filter((t) => allow.includes(t.spec.name));
}

async function setUp(ctx: CliContext, o: ChatCliOptions): Promise<ChatSetup> {
  const env: Env = ctx.io.env;
  const provider = providerFromEnv(env);
  if (!provider) throw createError('CHAT_PROVIDER_MISSING', {});
  const home = resolveHome(ctx.globals().home, env);
  const cwd = ctx.io.cwd;
  const memoryDir = selectMemoryDir({ cwd, env, lociHome: home }).dir;
  let palace: Palace | undefined;
  try {
    palace = await openPalace({ home, env });
  } catch (e) {
    ctx.io.stderr(`loci: chat: the palace cannot be opened (${(e as Error).message}); no archive, no search\n`);
  }
  const all = [...FILE_TOOLS, SHELL_TOOL, ...lociTools({ memoryDir, palace })];
  const allow = o.allow
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const tools = pickTools(
    all,
    allow ?? (o.print !== undefined ? READ_ONLY.filter((n) => all.some((t) => t.spec.name === n)) : undefined),
  );
  // With -p nobody can answer a question: --allow shell is the confirmation.
  const confirm = async () => o.print !== undefined && (allow ?? []).includes('shell');
  const base = {
    provider,
    home,
    cwd,
    memoryDir,
    palace,
    warn: (m: string) => ctx.io.stderr(`loci: chat: ${m}\n`),
    tools,
    started: new Date().toISOString(),
    title: undefined,
    confirm,
    maxCalls: intOption('--max-calls', o.maxCalls, 25, 1, 1_000),
    recall: o.recall !== false,
  };
  const context = newContext(base);
  const s: ChatSetup = { ...base, context, agent: undefined as unknown as Agent };
  s.agent = newAgent(s);
  if (o.resume) resume(s, o.resume);
  return s;
}

/** Continues saved session `which` (an id, or a number from the list) in a fresh context. */
function resume(s: ChatSetup, which: string): string {
  const list = listChatSessions(s.home, s.cwd);
  const byIndex = /^\d+$/.test(which) ? list[Number(which) - 1] : undefined;
  const saved = loadChatSession(s.home, byIndex?.id ?? which);
  if (!saved) {
    throw createError('INVALID_ARGUMENT', {
      name: 'session',
      value: which,
      expected: 'a number or id from /resume (or `loci chat` without --resume)',
    });
  }
  s.context = newContext(s);
  replayMessages(s.context, saved.messages);
  s.agent = newAgent(s);
  s.title = saved.title;
  return `resumed "${saved.title}" (${saved.messages.length} messages)`;
}

async function turn(s: ChatSetup, prompt: string, signal: AbortSignal | undefined, onEvent: (e: AgentEvent) => void) {
  const r = await s.agent.runTurn(prompt, { ...(signal ? { signal } : {}), onEvent });
  s.title ??= prompt.replace(/\s+/g, ' ').slice(0, 80);
  saveChatSession(s.home, {
    id: s.context.sessionId,
    title: s.title,
    cwd: s.cwd,
    started: s.started,
    updated: new Date().toISOString(),
    messages: s.context.messages(),
  });
  return r;
}

function turnJson(r: TurnResult) {
  return {
    answer: r.answer,
    turns: r.modelCalls,
    usage: {
      input_tokens: r.usage.inputTokens,
      output_tokens: r.usage.outputTokens,
      cache_read_tokens: r.usage.cacheReadTokens,
      cache_creation_tokens: r.usage.cacheCreationTokens,
    },
    compactions: r.compactions,
    persisted_results: r.persistedResults,
    memories_injected: r.memoriesInjected,
  };
}

function controller(s: ChatSetup): ChatController {
  return {
    banner: () => `loci chat · ${s.provider.name} ${s.provider.model} · ${s.tools.map((t) => t.spec.name).join(', ')}`,
    runTurn: (prompt, signal, onEvent) => turn(s, prompt, signal, onEvent),
    async compact(instructions) {
      const r = await s.context.compact(instructions ? { instructions } : {});
      if (!r) return 'nothing to compact yet';
      return (
        `compacted ${r.replaced.count} message${r.replaced.count === 1 ? '' : 's'} into the summary ` +
        `(${r.kept} kept): ` +
        `${r.tokensBefore} → ${r.tokensAfter} tokens`
      );
    },
    context() {
      const b = s.context.breakdown();
      return {
        rows: b.sections.map((x) => ({ section: x.section, tokens: x.tokens })),
        total: b.total,
        window: b.window,
      };
    },
    memory() {
      const rows = listMemories(s.memoryDir).map((m) => [m.file, m.type ?? '-', m.description]);
      return { dir: s.memoryDir, rows: rows.length ? [['file', 'type', 'description'], ...rows] : [] };
    },
    async clear() {
      await s.context.clear();
      s.title = undefined;
      s.started = new Date().toISOString();
      return `new conversation (${s.context.sessionId}); the previous one is archived in the palace`;
    },
    async resume(which) {
      if (which !== undefined) return resume(s, which);
      const list = listChatSessions(s.home, s.cwd).slice(0, 20);
      if (list.length === 0) return 'no saved conversations for this folder';
      return list.map((x, i) => `${String(i + 1).padStart(3)}  ${x.updated.slice(0, 16)}  ${x.title}`).join('\n');
    },
    async close() {
      // An archive that fails at exit is said, never swallowed: those messages are not in the palace.
      await s.context
        .flushArchive()
        .catch((e: unknown) =>
          s.warn(`the last messages could not be archived into the palace: ${(e as Error)?.message ?? String(e)}`),
        );
      await s.palace?.close();
    },
  };
}

export const register: RegisterCommand = (program, ctx) => {
  program
    .command('chat')
    .description('a terminal coding agent on the LLM of LOCI_LLM_PROVIDER, with recall and the palace')
    .option('-p, --print <prompt>', 'run one turn for this prompt and print the answer (no terminal UI)')
    .option('--json', 'with -p: print {answer, turns, usage, compactions, persisted_results, memories_injected}')
    .option('--allow <tools>', `tools the model may use, comma-separated (-p default: ${READ_ONLY.join(',')})`)
    .option('--resume <id>', 'continue a saved conversation (an id, or its number in /resume)')
    .option('--max-calls <n>', 'most model calls per turn (default 25)')
    .option('--no-recall', 'do not recall memories each turn')
    .action(async (o: ChatCliOptions) => {
      if (o.print !== undefined && o.print.trim() === '') {
        throw createError('INVALID_ARGUMENT', { name: '--print', value: o.print, expected: 'a non-empty prompt' });
      }
      const s = await setUp(ctx, o);
      const ctrl = controller(s);
      if (o.print === undefined) {
        await runChatTui(ctrl, {
          input: process.stdin,
          output: process.stdout,
          style: colors(ctx.io),
          bindConfirm: (ask) => {
            s.confirm = ask;
          },
        });
        // The user quit and everything is archived and closed: end the process even if a stray
        // handle (a provider connection left open by a cancelled stream) would keep it alive. The
        // timer is unref'd, so a process with nothing left ends on its own first.
        setTimeout(() => process.exit(), 0).unref();
        return;
      }
      try {
        const r = await turn(s, o.print, undefined, (e) => {
          if (e.type === 'notice') ctx.io.stderr(`loci: chat: ${e.text}\n`);
        });
        if (o.json) printJson(ctx.io, turnJson(r));
        else ctx.io.stdout(`${r.answer}\n`);
      } finally {
        await ctrl.close();
      }
    });
};
