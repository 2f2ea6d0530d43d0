/**
 * @module agent/loop
 * The agent loop: one person's prompt becomes a turn of one or more streamed model calls, with the
 * tools the model asks for run between them. Each turn starts recall prefetch the moment the prompt
 * arrives (beside the context preparation) and injects what it selected (at most five memories,
 * within recall's byte budgets); the conversation lives in a context (`loci/context`'s manager:
 * large tool results persisted, automatic compaction, archiving into the palace), which the loop
 * flushes to the archive after every turn.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { createError } from '../core/errors.js';
import type { AgentMessage, StreamingLlmProvider, SystemPart, TokenUsage, ToolSpec } from '../providers/index.js';
import { startRecallPrefetch, type RecallOptions, type RecallResult } from '../recall/index.js';
import { addUsage, zeroUsage, type AgentEvent, type AgentTool, type ToolContext, type TurnResult } from './types.js';

/** One tool output handed to the context. */
interface AgentToolOutput {
  toolUseId: string;
  content: string;
  isError?: boolean;
  toolName?: string;
}

/**
 * What the loop needs of the conversation: the subset of `loci/context`'s `ContextManager` it
 * calls (any object with these methods will do).
 */
export interface AgentContext {
  /** The current session id. */
  readonly sessionId: string;
  appendUser(text: string, options?: { memories?: string }): AgentMessage;
  appendAssistant(message: AgentMessage): void;
  appendToolResults(results: readonly AgentToolOutput[]): AgentMessage;
  prepare(options?: { signal?: AbortSignal }): Promise<{
    request: { system: string | SystemPart[]; messages: AgentMessage[]; tools?: ToolSpec[] };
    compaction?: { mode: 'manual' | 'auto'; tokensBefore: number; tokensAfter: number };
    /** The context check; from the warning threshold its `nudge` is shown to the model (this call only). */
    check?: { fraction: number; nudge?: string | undefined };
  }>;
  recordUsage(usage: TokenUsage): void;
  flushArchive(): Promise<number>;
  /** The live messages (saved for `/resume`). */
  messages(): AgentMessage[];
}

/**
 * Appends saved `messages` to a fresh context, in order (`/resume`): plain user turns as prompts,
 * assistant turns as answers, tool results as tool results (large ones are persisted again, which
 * the content hash makes a no-op).
 */
export function replayMessages(context: AgentContext, messages: readonly AgentMessage[]): void {
  for (const m of messages) {
    if (m.role === 'assistant') {
      context.appendAssistant(m);
      continue;
    }
    if (typeof m.content === 'string') {
      context.appendUser(m.content);
      continue;
    }
    const results = m.content.flatMap((b) =>
      b.type === 'tool_result'
        ? [{ toolUseId: b.toolUseId, content: b.content, ...(b.isError ? { isError: true } : {}) }]
        : [],
    );
    if (results.length > 0) context.appendToolResults(results);
    const text = m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
    if (text !== '') context.appendUser(text);
  }
}

/** Recall settings of the loop. */
interface AgentRecallOptions extends Omit<RecallOptions, 'signal'> {
  /** The Loci home: with `session`, what was injected is recorded in `<home>/sessions/<id>.json`. */
  home?: string | undefined;
  /**
   * How long the first model call waits for recall, in ms (it runs beside the context
   * preparation; search selection takes milliseconds). Default 1,500; 0 … 60,000.
   */
  waitMs?: number | undefined;
}

/** Options of {@link createAgent}. */
interface AgentOptions {
  /** The model. */
  provider: StreamingLlmProvider;
  /** The conversation (a `loci/context` manager). */
  context: AgentContext;
  /** The tools the model may call. Default none. */
  tools?: readonly AgentTool[] | undefined;
  /** Working directory of the tools. */
  cwd: string;
  /** Asks the person before a side effect (shell). Default: refuse. */
  confirm?: ToolContext['confirm'] | undefined;
  /**
   * Recall from a memory directory each turn (a function is called per turn, e.g. to follow the
   * session id after `/clear`). Default: no recall.
   */
  recall?: AgentRecallOptions | (() => AgentRecallOptions) | undefined;
  /** Most model calls per turn (tool rounds + 1). Default 25; 1 … 1,000. */
  maxModelCalls?: number | undefined;
  /** `maxTokens` of each model call. Default the provider's stream default (4,096). */
  maxTokens?: number | undefined;
}

/** A running agent session. */
export interface Agent {
  /** Runs one turn for `prompt`; `onEvent` sees text deltas, tool calls and results as they happen. */
  runTurn(prompt: string, opts?: { signal?: AbortSignal; onEvent?: (e: AgentEvent) => void }): Promise<TurnResult>;
  /** The tools' specs, as sent to the model. */
  readonly toolSpecs: ToolSpec[];
}

/** Creates an agent over `opts.context`. */
export function createAgent(opts: AgentOptions): Agent {
  const tools = new Map((opts.tools ?? []).map((t) => [t.spec.name, t]));
  const toolSpecs = [...tools.values()].map((t) => t.spec);
  const maxCalls = opts.maxModelCalls ?? 25;
  if (!Number.isInteger(maxCalls) || maxCalls < 1 || maxCalls > 1_000) {
    throw createError('INVALID_ARGUMENT', { name: 'maxModelCalls', value: maxCalls, expected: 'an integer 1 … 1000' });
  }
  const confirm = opts.confirm ?? (async () => false);

  async function recallFor(prompt: string, signal: AbortSignal | undefined): Promise<RecallResult | undefined> {
    if (!opts.recall) return undefined;
    const { waitMs = 1_500, ...recall } = typeof opts.recall === 'function' ? opts.recall() : opts.recall;
    const prefetch = startRecallPrefetch(prompt, { ...recall, ...(signal ? { signal } : {}) });
    if (!prefetch.settled) {
      const ac = new AbortController();
      await Promise.race([prefetch.done, delay(waitMs, undefined, { signal: ac.signal }).catch(() => undefined)]);
      ac.abort();
    }
    const r = prefetch.consume();
    prefetch.abort();
    return r;
  }

  async function runTools(
    calls: { id: string; name: string; input: Record<string, unknown> }[],
    signal: AbortSignal | undefined,
    emit: (e: AgentEvent) => void,
  ): Promise<AgentToolOutput[]> {
    const outputs: AgentToolOutput[] = [];
    for (const call of calls) {
      const tool = tools.get(call.name);
      let run;
      if (!tool)
        run = { content: `unknown tool ${call.name}; available: ${[...tools.keys()].join(', ')}`, isError: true };
      else {
        try {
          run = await tool.run(call.input, { cwd: opts.cwd, signal, confirm });
        } catch (e) {
          run = { content: `the ${call.name} tool failed: ${(e as Error)?.message ?? String(e)}`, isError: true };
        }
      }
      const isError = run.isError === true;
      emit({
        type: 'tool_result',
        id: call.id,
        name: call.name,
        content: run.content,
        isError,
        ...(run.display !== undefined ? { display: run.display } : {}),
      });
      outputs.push({ toolUseId: call.id, content: run.content, toolName: call.name, ...(isError ? { isError } : {}) });
    }
    return outputs;
  }

  return {
    toolSpecs,
    async runTurn(prompt, turnOpts = {}) {
      const { signal } = turnOpts;
      const emit = turnOpts.onEvent ?? (() => {});
      const ctx = opts.context;
      const usage = zeroUsage();
      let compactions = 0;
      let persisted = 0;
      let answer = '';
      let stopReason: string | undefined;
      let truncated = false;

      const recalled = await recallFor(prompt, signal);
      const memories = recalled && recalled.text ? recalled.memories.slice(0, 5) : [];
      ctx.appendUser(prompt, memories.length > 0 ? { memories: recalled!.text } : undefined);
      if (memories.length > 0) emit({ type: 'memories', files: memories.map((m) => m.file) });

      let calls = 0;
      // True while the conversation ends with a user turn (a prompt or tool results) owed an answer.
      let owed = true;
      let text = '';
      try {
        for (;;) {
          if (signal?.aborted) throw createError('ABORTED', { operation: 'chat turn' }, signal.reason);
          const prepared = await ctx.prepare(signal ? { signal } : {});
          if (prepared.check?.nudge && calls === 0) {
            const pct = Math.round(prepared.check.fraction * 100);
            emit({ type: 'notice', text: `the context is ${pct} % full — /compact to make room` });
          }
          if (prepared.compaction) {
            compactions++;
            const c = prepared.compaction;
            emit({ type: 'compaction', mode: c.mode, tokensBefore: c.tokensBefore, tokensAfter: c.tokensAfter });
          }
          calls++;
          let message: AgentMessage | undefined;
          let callUsage: TokenUsage | undefined;
          const uses: { id: string; name: string; input: Record<string, unknown> }[] = [];
          text = '';
          const stream = opts.provider.stream({
            system: prepared.request.system,
            messages: withNudge(prepared.request.messages, prepared.check?.nudge),
            ...(toolSpecs.length > 0 ? { tools: prepared.request.tools ?? toolSpecs } : {}),
            ...(opts.maxTokens !== undefined ? { maxTokens: opts.maxTokens } : {}),
            ...(signal ? { signal } : {}),
          });
          for await (const ev of stream) {
            if (ev.type === 'text') {
              text += ev.text;
              emit({ type: 'text', text: ev.text });
            } else if (ev.type === 'tool_use') {
              uses.push(ev.block);
              emit({ type: 'tool_call', id: ev.block.id, name: ev.block.name, input: ev.block.input });
            } else {
              message = ev.message;
              callUsage = ev.usage;
              stopReason = ev.stopReason;
            }
          }
          ctx.appendAssistant(message ?? { role: 'assistant', content: text });
          owed = false;
          if (callUsage) {
            ctx.recordUsage(callUsage);
            addUsage(usage, callUsage);
          }
          emit({ type: 'model_call', usage: callUsage, stopReason });
          if (text.trim() !== '') answer = text;
          if (uses.length === 0) break;
          const outputs = await runTools(uses, signal, emit);
          const sent = ctx.appendToolResults(outputs);
          owed = true;
          persisted += countPersisted(outputs, sent);
          if (calls >= maxCalls) {
            truncated = true;
            emit({ type: 'notice', text: `stopped after ${calls} model calls (the limit of one turn)` });
            break;
          }
        }
      } catch (e) {
        // Keep the roles alternating for the next turn: the interrupted call gets a short answer.
        if (owed) {
          const why = `[the turn was interrupted: ${(e as Error)?.message ?? String(e)}]`;
          ctx.appendAssistant({
            role: 'assistant',
            content: [{ type: 'text', text: text ? `${text}\n\n${why}` : why }],
          });
        }
        await ctx.flushArchive().catch(() => 0);
        throw e;
      }
      try {
        await ctx.flushArchive();
      } catch (e) {
        emit({ type: 'notice', text: `archiving into the palace failed: ${(e as Error)?.message ?? String(e)}` });
      }
      return {
        answer,
        modelCalls: calls,
        usage,
        compactions,
        persistedResults: persisted,
        memoriesInjected: memories.length,
        stopReason,
        truncated,
      };
    },
  };
}

/** `messages` with `nudge` added as a last text block of the final user turn (not kept in the context). */
function withNudge(messages: AgentMessage[], nudge: string | undefined): AgentMessage[] {
  const last = messages.at(-1);
  if (!nudge || !last || last.role !== 'user') return messages;
  const blocks = typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content;
  return [...messages.slice(0, -1), { role: 'user', content: [...blocks, { type: 'text', text: nudge }] }];
}

/** Tool results the context replaced by a preview (their content differs from what the tool returned). */
function countPersisted(outputs: readonly AgentToolOutput[], sent: AgentMessage): number {
  if (typeof sent.content === 'string') return 0;
  const byId = new Map(outputs.map((o) => [o.toolUseId, o.content]));
  return sent.content.filter(
    (b) => b.type === 'tool_result' && byId.has(b.toolUseId) && byId.get(b.toolUseId) !== b.content,
  ).length;
}
