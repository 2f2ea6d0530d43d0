/**
 * @module context/manager
 * The context manager of one agent session: it owns the live messages, counts their tokens by
 * section, persists large tool results, builds the system prompt once per session, compacts (manual,
 * automatic, incremental) after archiving what it replaces, and tracks the budget. An agent loop
 * calls `appendUser` → `prepare()` → (model call) → `appendAssistant` + `recordUsage` →
 * `appendToolResults` → `prepare()` … See `examples/context-use.ts`.
 */
import { randomUUID } from 'node:crypto';
import { createError } from '../core/errors.js';
import type { AgentMessage, ContentBlock } from '../providers/index.js';
import { createTokenBudget } from './budget.js';
import { planCut, summaryMessage, toolResultIds, type ArchiveBatch, type CompactionRecord } from './compaction.js';
import { blocksOf } from './messages.js';
import { captureSystemContext, loadUserContext, type SystemContext, type UserContext } from './session-context.js';
import { extractiveSummariser, runSummariser } from './summarise.js';
import { buildDynamicPrompt, buildStaticPrompt, systemPrompt, type SystemPrompt } from './system-prompt.js';
import {
  DEFAULT_CONTEXT_WINDOW,
  createTokenCounter,
  estimateBlockTokens,
  estimateToolsTokens,
  modelFamily,
} from './tokens.js';
import { createToolResultStore } from './tool-results.js';
import type { ContextManager, ContextManagerOptions, ContextSection, PreparedRequest } from './manager-types.js';

interface Entry {
  seq: number;
  message: AgentMessage;
  raw: number;
  memories: number;
  toolResults: number;
}

const PER_MESSAGE = 4;

/** Creates a {@link ContextManager}. */
export function createContextManager(options: ContextManagerOptions): ContextManager {
  const family = options.family ?? modelFamily(options.model, options.provider);
  const anthropic = (options.provider ?? (family === 'claude' ? 'anthropic' : 'openai')) === 'anthropic';
  const contextWindow = options.contextWindow ?? DEFAULT_CONTEXT_WINDOW[family];
  const reserve = options.reserveOutputTokens ?? Math.min(8_192, Math.floor(contextWindow * 0.1));
  const now = options.now ?? Date.now;
  const counter = createTokenCounter({ family });
  const newBudget = () =>
    createTokenBudget({
      contextWindow,
      reserveOutputTokens: reserve,
      ...(options.warnFraction !== undefined ? { warnFraction: options.warnFraction } : {}),
      ...(options.compactFraction !== undefined ? { compactFraction: options.compactFraction } : {}),
      ...(options.turnTokens !== undefined ? { turnTokens: options.turnTokens } : {}),
      now,
    });
  let budget = newBudget();
  const keepRecent = () => options.keepRecentTokens ?? Math.floor(budget.window * 0.25);
  const summaryMax = options.summaryMaxTokens ?? Math.min(8_000, Math.floor(budget.window * 0.1));
  const toolResults = createToolResultStore({
    home: options.home ?? '',
    maxResultSizeChars: options.home
      ? (options.maxResultSizeChars ?? Math.min(20_000, Math.max(2_000, Math.floor(budget.window * 0.05 * 4))))
      : Number.MAX_SAFE_INTEGER,
    ...(options.previewChars !== undefined ? { previewChars: options.previewChars } : {}),
  });
  const summariser = options.summariser ?? extractiveSummariser;
  /** The session notes for one compaction; a failing reader only leaves them out. */
  const notesNow = (): { sessionNotes?: string } => {
    let notes: string | undefined;
    try {
      notes = options.sessionNotes?.();
    } catch {
      notes = undefined; // notes are a help to the summary, never a reason to fail a compaction
    }
    return notes?.trim() ? { sessionNotes: notes } : {};
  };
  const toolsRaw = options.tools?.length ? estimateToolsTokens(options.tools, family) : 0;

  let sessionId = options.sessionId ?? randomUUID();
  let entries: Entry[] = [];
  let liveRaw = 0;
  let seq = 0;
  let summary: { text: string; message: AgentMessage; raw: number; upToSeq: number } | undefined;
  let persistedPaths: string[] = [];
  let records: CompactionRecord[] = [];
  const archived = new Set<number>();
  const replaced = new Set<number>();
  let lastRequestRaw = 0;

  let sysCtx: SystemContext | undefined;
  let prompt: { sp: SystemPrompt; staticRaw: number; dynamicRaw: number } | undefined;
  let staticText: string | undefined;
  const builds = { static: 0, dynamic: 0 };

  const userContext = (): UserContext | undefined => {
    if (options.userContext) return options.userContext();
    if (!options.cwd) return undefined;
    return loadUserContext({
      ...options.userContextOptions,
      cwd: options.cwd,
      ...(options.memoryDir ? { memoryDir: options.memoryDir } : {}),
      ...(options.claudeMd === false ? { claudeMd: false } : {}),
    });
  };
  const systemCtx = (): SystemContext | undefined => {
    if (options.systemContext) return options.systemContext;
    if (!options.cwd) return undefined;
    sysCtx ??= captureSystemContext({ cwd: options.cwd, now: now(), noGit: options.git === false });
    return sysCtx;
  };
  const ensurePrompt = () => {
    if (prompt) return prompt;
    if (staticText === undefined) {
      staticText = buildStaticPrompt(options.prompt);
      builds.static++;
    }
    const sc = systemCtx();
    const uc = userContext();
    const dynamicText = buildDynamicPrompt({ ...(sc ? { system: sc } : {}), ...(uc ? { user: uc } : {}) });
    builds.dynamic++;
    prompt = {
      sp: systemPrompt(staticText, dynamicText),
      staticRaw: counter.raw(staticText),
      dynamicRaw: counter.raw(dynamicText),
    };
    return prompt;
  };

  const push = (message: AgentMessage, memoryBlock?: ContentBlock): Entry => {
    let raw = PER_MESSAGE;
    let memories = 0;
    let results = 0;
    for (const b of blocksOf(message)) {
      const n = estimateBlockTokens(b, family);
      raw += n;
      if (b === memoryBlock) memories += n;
      else if (b.type === 'tool_result') results += n;
    }
    const e: Entry = { seq: seq++, message, raw, memories, toolResults: results };
    entries.push(e);
    liveRaw += raw;
    return e;
  };

  const messages = (): AgentMessage[] => {
    const out = entries.map((e) => e.message);
    return summary ? [summary.message, ...out] : out;
  };
  const rawTotal = () => {
    const p = ensurePrompt();
    return p.staticRaw + p.dynamicRaw + toolsRaw + (summary?.raw ?? 0) + liveRaw;
  };
  const contextTokens = () => counter.correct(rawTotal());

  let archiveQueue: Promise<unknown> = Promise.resolve();
  /** Archive calls run one at a time, in order, so no message is archived twice. */
  const enqueueArchive = (list: () => Entry[], reason: ArchiveBatch['reason']): Promise<number> => {
    const run = archiveQueue.then(() => archiveEntries(list(), reason));
    archiveQueue = run.catch(() => undefined);
    return run;
  };
  const archiveInBackground = () => {
    if (!options.archive || options.archiveEagerly === false) return;
    if (entries.every((e) => archived.has(e.seq))) return;
    // After the caller has sent its request: the archive runs while the model works.
    setImmediate(() => void enqueueArchive(() => entries, 'turn').catch(() => undefined));
  };
  const archiveEntries = async (list: Entry[], reason: ArchiveBatch['reason']): Promise<number> => {
    const todo = list.filter((e) => !archived.has(e.seq));
    if (!options.archive || todo.length === 0) return 0;
    try {
      await options.archive({ sessionId, reason, messages: todo.map((e) => ({ seq: e.seq, message: e.message })) });
    } catch (e) {
      throw createError('CONTEXT_ARCHIVE_FAILED', { reason: e instanceof Error ? e.message : String(e) }, e);
    }
    for (const e of todo) archived.add(e.seq);
    return todo.length;
  };

  const request = (): PreparedRequest => {
    const p = ensurePrompt();
    lastRequestRaw = rawTotal();
    budget.check(counter.correct(lastRequestRaw));
    return {
      system: anthropic ? p.sp.parts() : p.sp.text(),
      messages: messages(),
      ...(options.tools?.length ? { tools: options.tools } : {}),
    };
  };

  const compact = async (
    mode: CompactionRecord['mode'],
    instructions?: string,
    signal?: AbortSignal,
  ): Promise<CompactionRecord | undefined> => {
    const started = now();
    const liveTokens = entries.reduce((s, e) => s + e.raw, 0);
    const keep = mode === 'manual' ? Math.min(keepRecent(), Math.floor(liveTokens / 2)) : keepRecent();
    const cut = planCut(
      entries.map((e) => e.message),
      entries.map((e) => e.raw),
      keep,
    );
    if (cut <= 0) return undefined;
    const tokensBefore = contextTokens();
    const part = entries.slice(0, cut);
    await enqueueArchive(() => part, 'compact');
    const ids = toolResultIds(part.map((e) => e.message));
    const paths = ids.map((id) => toolResults.get(id)?.path).filter((p): p is string => !!p);
    const t0 = now();
    const result = await runSummariser(summariser, {
      ...(summary ? { previousSummary: summary.text } : {}),
      messages: part.map((e) => e.message),
      ...(instructions?.trim() ? { instructions: instructions.trim() } : {}),
      persistedPaths: [...new Set(paths)],
      ...notesNow(),
      maxTokens: summaryMax,
      ...(signal ? { signal } : {}),
    });
    const summariserMs = now() - t0;
    // Nothing below can fail: the replacement is all-or-nothing.
    persistedPaths = [...new Set([...persistedPaths, ...paths])];
    const upToSeq = part.at(-1)!.seq;
    const message = summaryMessage({
      summary: result.text,
      sessionId,
      upToSeq,
      compactions: records.length + 1,
      persistedPaths,
      archived: !!options.archive,
    });
    const raw = counter.rawMessage(message);
    summary = { text: result.text, message, raw, upToSeq };
    for (const e of part) replaced.add(e.seq);
    entries = entries.slice(cut);
    liveRaw = entries.reduce((s, e) => s + e.raw, 0);
    toolResults.markSummarised(ids);
    prompt = undefined; // the dynamic part is rebuilt (CLAUDE.md and memories re-read)
    const record: CompactionRecord = {
      mode,
      ...(instructions?.trim() ? { instructions: instructions.trim() } : {}),
      replaced: { from: part[0]!.seq, to: upToSeq, count: part.length },
      kept: entries.length,
      tokensBefore,
      tokensAfter: contextTokens(),
      summaryTokens: counter.correct(raw),
      by: result.by,
      persistedPaths: [...new Set(paths)],
      durationMs: now() - started,
      summariserMs,
    };
    records.push(record);
    return record;
  };

  const api: ContextManager = {
    get sessionId() {
      return sessionId;
    },
    counter,
    get budget() {
      return budget;
    },
    toolResults,
    messages,
    appendUser(text, opts = {}) {
      const memoryBlock: ContentBlock | undefined = opts.memories?.trim()
        ? { type: 'text', text: opts.memories }
        : undefined;
      const message: AgentMessage = memoryBlock
        ? { role: 'user', content: [memoryBlock, { type: 'text', text }] }
        : { role: 'user', content: text };
      push(message, memoryBlock);
      budget.startTurn();
      return message;
    },
    appendAssistant(message) {
      push(message.role === 'assistant' ? message : { ...message, role: 'assistant' });
    },
    appendToolResults(results) {
      const blocks = results.map((r) => toolResults.add(r));
      const message: AgentMessage = { role: 'user', content: blocks };
      push(message);
      return message;
    },
    system: () => ensurePrompt().sp,
    request,
    async prepare(opts = {}) {
      let compaction: CompactionRecord | undefined;
      if (options.autoCompact !== false && budget.check(contextTokens(), { track: false }).shouldCompact)
        compaction = await compact('auto', undefined, opts.signal);
      const req = request();
      const check = budget.check(counter.correct(lastRequestRaw), { track: false });
      archiveInBackground();
      return { request: req, check, ...(compaction ? { compaction } : {}) };
    },
    recordUsage(usage) {
      counter.observe(lastRequestRaw, usage);
      budget.recordUsage(usage);
    },
    contextTokens,
    breakdown() {
      const p = ensurePrompt();
      let mem = 0;
      let res = 0;
      for (const e of entries) {
        mem += e.memories;
        res += e.toolResults;
      }
      const rows: [ContextSection, number][] = [
        ['system (static)', p.staticRaw],
        ['system (dynamic)', p.dynamicRaw],
        ['tools', toolsRaw],
        ['summary', summary?.raw ?? 0],
        ['memories', mem],
        ['messages', liveRaw - mem - res],
        ['tool results', res],
      ];
      const sections = rows.map(([section, raw]) => ({ section, tokens: counter.correct(raw) }));
      const total = sections.reduce((s, r) => s + r.tokens, 0);
      return {
        sections,
        total,
        window: budget.window,
        fraction: total / budget.window,
        ratio: counter.ratio,
        messages: entries.map((e) => ({ seq: e.seq, role: e.message.role, tokens: counter.correct(e.raw) })),
      };
    },
    compact: (o = {}) => compact('manual', o.instructions, o.signal),
    async clear() {
      await enqueueArchive(() => entries, 'clear');
      for (const e of entries) replaced.add(e.seq);
      entries = [];
      liveRaw = 0;
      summary = undefined;
      persistedPaths = [];
      records = [];
      toolResults.reset();
      sessionId = randomUUID();
      sysCtx = undefined;
      staticText = undefined; // both parts of the prompt are rebuilt: every cache is invalidated
      prompt = undefined;
      budget = newBudget();
    },
    flushArchive: () => enqueueArchive(() => entries, 'flush'),
    compactions: () => records,
    summary: () => summary?.text,
    bookkeeping: () => ({
      appended: seq,
      live: entries.map((e) => e.seq),
      archived: [...archived].sort((a, b) => a - b),
      replaced: [...replaced].sort((a, b) => a - b),
    }),
    promptBuilds: () => ({ ...builds }),
  };
  return api;
}
