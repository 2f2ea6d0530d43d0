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
import type { AgentMessage, ContentBlock, ProviderName, SystemPart, TokenUsage, ToolSpec } from '../providers/index.js';
import { createTokenBudget, type ContextCheck, type TokenBudget } from './budget.js';
import {
  planCut,
  summaryMessage,
  toolResultIds,
  type Archiver,
  type ArchiveBatch,
  type CompactionRecord,
} from './compaction.js';
import { blocksOf } from './messages.js';
import {
  captureSystemContext,
  loadUserContext,
  type SystemContext,
  type UserContext,
  type UserContextOptions,
} from './session-context.js';
import { extractiveSummariser, runSummariser, type Summariser } from './summarise.js';
import {
  buildDynamicPrompt,
  buildStaticPrompt,
  systemPrompt,
  type StaticPromptInput,
  type SystemPrompt,
} from './system-prompt.js';
import {
  DEFAULT_CONTEXT_WINDOW,
  createTokenCounter,
  estimateBlockTokens,
  estimateToolsTokens,
  modelFamily,
  type ModelFamily,
  type TokenCounter,
} from './tokens.js';
import { createToolResultStore, type ToolResultStore } from './tool-results.js';

/** Sections of the context, as `breakdown()` reports them. */
export type ContextSection =
  'system (static)' | 'system (dynamic)' | 'tools' | 'summary' | 'memories' | 'messages' | 'tool results';

/** Options of {@link createContextManager}. */
export interface ContextManagerOptions {
  /** The model name (picks the token family and the default window). Required. */
  model: string;
  /**
   * The provider protocol: `anthropic` gets system parts with cache breakpoints, others plain text.
   * Default: anthropic for a claude model, else openai.
   */
  provider?: ProviderName;
  /** Token family. Default: {@link modelFamily}(model, provider). */
  family?: ModelFamily;
  /**
   * Context window in tokens. Default per family: claude 200,000, openai 128,000, llama 8,192;
   * 1,000 … 10,000,000.
   */
  contextWindow?: number;
  /** Tokens kept free for the answer. Default min(8,192, 10 % of the window). */
  reserveOutputTokens?: number;
  /** Warning and nudge threshold, as a fraction of the usable window. Default 0.9. */
  warnFraction?: number;
  /** Automatic compaction threshold, as a fraction of the usable window. Default 0.85. */
  compactFraction?: number;
  /** Compact automatically in `prepare()` when the threshold is crossed. Default true. */
  autoCompact?: boolean;
  /** Tokens of recent messages kept verbatim by a compaction. Default 25 % of the usable window. */
  keepRecentTokens?: number;
  /** Size limit asked of a summary, in tokens. Default min(8,000, 10 % of the usable window). */
  summaryMaxTokens?: number;
  /** Per-turn output budget for continuations (see `TokenBudget`). Default none. */
  turnTokens?: number;
  /** The Loci home: large tool results go to `<home>/tool-results/`. Default: none (results stay inline). */
  home?: string;
  /**
   * Results longer than this are persisted (needs `home`). Default: 5 % of the usable window at
   * four characters a token, between 2,000 and 20,000 characters (20,000 for a 200k window, about
   * 5,900 for 32k), so that no single result takes a large share of a small window.
   */
  maxResultSizeChars?: number;
  /** Characters of a persisted result shown to the model. Default 2,000. */
  previewChars?: number;
  /** Writes the summaries. Default {@link extractiveSummariser}; use `llmSummariser(provider)` for a model. */
  summariser?: Summariser;
  /** Stores messages before they leave the context (e.g. `palaceArchiver`). Default: none. */
  archive?: Archiver;
  /**
   * The session's running notes, read at each compaction (e.g. `() => readSessionNotes(home, id)`
   * from the extract capability, or Claude Code's `session-memory/summary.md`): the summariser keeps
   * them as "where we left off". Default: none.
   */
  sessionNotes?: () => string | undefined;
  /**
   * Archive new messages in the background after each `prepare()` (while the model works), so that
   * compactions find them archived already. Background failures are retried by the next archive
   * call; a compaction still refuses to replace what is not archived. Default true.
   */
  archiveEagerly?: boolean;
  /** Session id (archive keys, summary text). Default: a random UUID, renewed by `clear()`. */
  sessionId?: string;
  /** Working directory for the git snapshot and the CLAUDE.md chain. Default: none (no environment section). */
  cwd?: string;
  /** Memory directory for the memory section. Default: none. */
  memoryDir?: string;
  /** Load the CLAUDE.md chain from `cwd`. Default true. */
  claudeMd?: boolean;
  /** Take the git snapshot. Default true. */
  git?: boolean;
  /** The static prompt's pieces. Default: Loci's identity and rules. */
  prompt?: StaticPromptInput;
  /** A system context to use instead of capturing one (tests, hosts that have their own). */
  systemContext?: SystemContext;
  /** Loads the user context instead of {@link loadUserContext} (called at start, after `compact`, after `clear`). */
  userContext?: () => UserContext;
  /** Passed to {@link loadUserContext} (home, managedPath, configDir). */
  userContextOptions?: Omit<UserContextOptions, 'cwd' | 'memoryDir' | 'claudeMd'>;
  /** Tool definitions sent with each request (counted in the breakdown). Default none. */
  tools?: ToolSpec[];
  /** Clock in ms. Default `Date.now`. */
  now?: () => number;
}

/** One row of {@link ContextManager.breakdown}. */
export interface SectionTokens {
  section: ContextSection;
  /** Corrected estimate, in tokens. */
  tokens: number;
}

/** The context by section. */
export interface ContextBreakdown {
  sections: SectionTokens[];
  /** Sum of the sections. */
  total: number;
  /** The usable window. */
  window: number;
  /** `total ÷ window`. */
  fraction: number;
  /** The correction ratio in use (1 before the first reported usage). */
  ratio: number;
  /** Each verbatim message in context: sequence number, role and corrected tokens, oldest first. */
  messages: { seq: number; role: 'user' | 'assistant'; tokens: number }[];
}

/** The fields of a `StreamRequest` that the manager fills. */
export interface PreparedRequest {
  system: string | SystemPart[];
  messages: AgentMessage[];
  tools?: ToolSpec[];
}

/** One tool's output, as the agent loop has it. */
export interface ToolOutput {
  toolUseId: string;
  content: string;
  isError?: boolean;
  toolName?: string;
}

/** Sequence-number accounting, for checks that nothing was lost. */
export interface Bookkeeping {
  /** Messages appended so far (sequence numbers 0 … appended − 1). */
  appended: number;
  /** Sequence numbers of the verbatim messages in context, ascending. */
  live: number[];
  /** Sequence numbers handed to the archive, ascending. */
  archived: number[];
  /** Sequence numbers replaced by summaries (or cleared), ascending. */
  replaced: number[];
}

/** The context of one agent session. */
export interface ContextManager {
  /** The current session id. */
  readonly sessionId: string;
  /** The token estimator (with its correction ratio). */
  readonly counter: TokenCounter;
  /** The session's budget. */
  readonly budget: TokenBudget;
  /** The tool-result store and ledger. */
  readonly toolResults: ToolResultStore;
  /** The live messages, summary first when there is one. */
  messages(): AgentMessage[];
  /**
   * Appends a person's prompt and starts a turn of the budget (`budget.continuation()` then decides
   * whether to go on). `memories` (already wrapped, e.g. in a system reminder) goes first, counted apart.
   */
  appendUser(text: string, options?: { memories?: string }): AgentMessage;
  /** Appends the model's answer (the `message` of a stream's `done` event). */
  appendAssistant(message: AgentMessage): void;
  /** Appends one user turn with tool results, persisting the large ones. Returns the message. */
  appendToolResults(results: readonly ToolOutput[]): AgentMessage;
  /** The system prompt of the session (built on first use; rebuilt after `compact` and `clear`). */
  system(): SystemPrompt;
  /** The request for the next model call (no compaction). Tracks the peak context. */
  request(): PreparedRequest;
  /**
   * Compacts automatically when the threshold is crossed (and `autoCompact`), then returns the
   * request, the context check (with a nudge from 90 %) and the compaction, if one ran. When even
   * the compacted context is over the window (one exchange larger than it), `check.level` is
   * `over` and the caller decides (e.g. clear, or refuse the turn).
   */
  prepare(options?: { signal?: AbortSignal }): Promise<{
    request: PreparedRequest;
    check: ContextCheck;
    compaction?: CompactionRecord;
  }>;
  /** Learns from the provider's usage for the last request (correction ratio, budget totals). */
  recordUsage(usage: TokenUsage): void;
  /** Corrected estimate of the next request's prompt, in tokens. */
  contextTokens(): number;
  /** The context by section (for `/context`). */
  breakdown(): ContextBreakdown;
  /**
   * Compacts now (`/compact [instructions]`): archives, then summarises only what was added since
   * the last compaction into the running summary, keeping recent turns verbatim. Undefined when
   * there is nothing to compact. Throws `CONTEXT_ARCHIVE_FAILED` or `CONTEXT_SUMMARY_FAILED`, in
   * which case nothing changed.
   */
  compact(options?: { instructions?: string; signal?: AbortSignal }): Promise<CompactionRecord | undefined>;
  /** `/clear`: archives what is not archived yet, then starts a new session (new id, new snapshot, new prompt). */
  clear(): Promise<void>;
  /** Archives the live messages not archived yet (e.g. at exit). Returns how many. */
  flushArchive(): Promise<number>;
  /** The compactions of this session. */
  compactions(): readonly CompactionRecord[];
  /** The running summary, if any. */
  summary(): string | undefined;
  /** Sequence-number accounting. */
  bookkeeping(): Bookkeeping;
  /** How many times each part of the system prompt was (re)built: cache invalidations plus one. */
  promptBuilds(): { static: number; dynamic: number };
}

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
