/**
 * @module hooks/run
 * `runHook(event, stdin)`: one Claude Code hook invocation → the text for stdout ('' = no output).
 *
 * Per event, the answer and the work:
 * - session-start: `additionalContext` = wake-up text. A cached draft when fresh (no library
 *   load), else computed; leftover jobs get a worker; `source: resume` queues a catch-up archive.
 * - user-prompt-submit: `additionalContext` = recalled memories + drawers (≤ 10,000 chars).
 *   Skipped for trivial prompts (slash commands, one word).
 * - stop: none, or with `LOCI_HOOK_NUDGE=1` a short `additionalContext` every
 *   `LOCI_HOOK_SAVE_EVERY` (15) human prompts. Queues an archive job when the transcript grew (the
 *   turn that just ended); nothing when `stop_hook_active`.
 * - pre-compact, session-end: none. Queue an archive job (`flush` on session-end).
 * - post-compact: none. Queues an archive job carrying `compact_summary`.
 *
 * **Fail open**: never throws; any error is logged to `<LOCI_HOME>/logs/hooks.log` and the answer
 * is ''. Heavy work (mining) runs in the detached worker (`queue.ts`). Recall and a stale wake-up
 * are asked of the warm hook server first (`client.ts`); without one, the library is imported
 * into the hook process (`answers.ts`) and a server is started for the next hook.
 *
 * Start-up: the server client (`client.ts`, with `node:net`) loads only with the events that may
 * ask the server; the archiving events do without it.
 */
import { existsSync } from 'node:fs';
import {
  cachedWakeUpText,
  createError,
  homePaths,
  processEnv,
  readSettings,
  resolveHome,
  type Logger,
} from './light-core.js';
import { errorFields, hookLogger } from './log.js';
import {
  contextAnswer,
  continuedSession,
  isTrivialPrompt,
  parseHookEvent,
  parseHookInput,
  type HookEvent,
  type HookInput,
} from './protocol.js';
import { enqueue, queuedFiles, spawnWorker } from './queue.js';
import { loadState, saveState } from './state.js';
import { countHumanPrompts } from './transcript.js';

/** Options of {@link runHook}. */
export interface RunHookOptions {
  /** Loci home. Default `LOCI_HOME` from `env`, else `~/.loci`. */
  home?: string | undefined;
  /** Environment (`LOCI_HOOK_SAVE_EVERY`, `LOCI_HOOK_NUDGE`, `LOCI_HOOK_DEBUG`, …). Default: the process's. */
  env?: NodeJS.ProcessEnv | undefined;
  /** Working directory when the input has no `cwd`. Default `process.cwd()`. */
  cwd?: string | undefined;
  /**
   * Start the detached worker after queueing. Default true; `LOCI_HOOK_WORKER=0` in `env` also
   * turns it off (jobs then wait for `loci hook-worker`).
   */
  spawnWorker?: boolean | undefined;
}

/** The Stop nudge (phrased as a fact, not a command; A6). */
function nudgeText(prompts: number): string {
  return (
    `Loci archived this conversation (${prompts} prompts since the last checkpoint). The archive keeps the ` +
    'transcript verbatim, ' +
    'but decisions, preferences and corrections from it reach later sessions reliably only when they are saved as ' +
    'memory files ' +
    '(MCP tool loci_memory_write, or `loci memory add`). If nothing of that kind came up, no action is needed.'
  );
}

interface Ctx {
  home: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  log: Logger;
  spawn: boolean;
}

function kick(ctx: Ctx): void {
  if (ctx.spawn && readSettings(ctx.env).hookWorker) spawnWorker(ctx.home, ctx.log, ctx.env);
}

/**
 * The opt-in lifecycle steps a job carries: session notes (on unless `LOCI_SESSION_NOTES=0`) and
 * memory extraction (only with `LOCI_EXTRACT_ON_END=1` and an LLM named by `LOCI_LLM_PROVIDER`).
 * Both run in the detached worker; the hook only sets the flags.
 */
function lifecycle(ctx: Ctx, extract: boolean): { extract?: true; notes?: true } {
  const s = readSettings(ctx.env);
  const llm = !!s.llmProvider?.trim() && s.llmProvider.trim().toLowerCase() !== 'none';
  return { ...(extract && s.extractOnEnd && llm ? { extract: true } : {}), ...(s.sessionNotes ? { notes: true } : {}) };
}

function requireTranscript(event: HookEvent, input: HookInput): string {
  const t = input.transcriptPath;
  if (!t) throw createError('HOOK_INPUT_INVALID', { event, reason: 'it has no transcript_path' });
  if (!existsSync(t)) throw createError('PATH_NOT_FOUND', { path: t });
  return t;
}

function stop(input: HookInput, ctx: Ctx): string {
  if (input.stopHookActive) return '';
  const transcript = requireTranscript('stop', input);
  const every = readSettings(ctx.env).hookSaveEvery;
  const { state, existed } = loadState(ctx.home, transcript, input.sessionId ?? null);
  const c = countHumanPrompts(transcript, state.offset, state.humans);
  if (c.reset) state.queuedAt = 0;
  const grew = c.offset !== state.offset || !existed;
  const changed = grew || c.humans !== state.humans;
  state.offset = c.offset;
  state.humans = c.humans;
  let out = '';
  let queued = false;
  const since = state.humans - state.queuedAt;
  // The turn that just ended is archived at once (the miner stores the open last exchange);
  // every N human prompts is a checkpoint (the optional nudge).
  if (grew || since >= every) {
    queued = true;
    enqueue(ctx.home, {
      event: 'stop',
      transcript,
      sessionId: input.sessionId ?? null,
      cwd: input.cwd ?? null,
      flush: false,
      ...lifecycle(ctx, since >= every),
    });
    kick(ctx);
    ctx.log.log('debug', 'stop: archive queued', { humans: state.humans, every });
  }
  if (since >= every) {
    state.queuedAt = state.humans;
    if (readSettings(ctx.env).hookNudge) out = contextAnswer('stop', nudgeText(since));
  }
  if (changed || queued) saveState(ctx.home, state, !existed);
  return out;
}

function archive(event: 'pre-compact' | 'session-end', input: HookInput, ctx: Ctx): string {
  const transcript = requireTranscript(event, input);
  enqueue(ctx.home, {
    event,
    transcript,
    sessionId: input.sessionId ?? null,
    cwd: input.cwd ?? null,
    flush: event === 'session-end',
    ...lifecycle(ctx, true),
  });
  kick(ctx);
  return '';
}

function postCompact(input: HookInput, ctx: Ctx): string {
  const t = input.transcriptPath && existsSync(input.transcriptPath) ? input.transcriptPath : null;
  const summary = input.compactSummary?.trim()
    ? { text: input.compactSummary, trigger: input.trigger ?? null }
    : undefined;
  if (!t && !summary) requireTranscript('post-compact', input);
  enqueue(ctx.home, {
    event: 'post-compact',
    transcript: t,
    sessionId: input.sessionId ?? null,
    cwd: input.cwd ?? null,
    flush: false,
    ...(summary ? { summary } : {}),
  });
  kick(ctx);
  return '';
}

/**
 * Asks the warm hook server; undefined when it could not answer (the caller then does the work),
 * after starting a server for the next hook when none is running.
 */
async function viaServer(
  event: 'user-prompt-submit' | 'session-start',
  stdin: string,
  ctx: Ctx,
): Promise<string | undefined> {
  const { askServer, requestEnv, serverEnabled, spawnServer } = await import('./client.js');
  if (!serverEnabled(ctx.env)) return undefined;
  const r = await askServer(ctx.home, { event, stdin, cwd: ctx.cwd, env: requestEnv(ctx.env) });
  if (r.ok) {
    ctx.log.log('debug', `${event}: answered by the hook server`);
    return r.out;
  }
  ctx.log.log('debug', `${event}: answering in the hook process`, { server: r.reason });
  // No server, a dead socket or another build: start one for the next hook. (A busy, failing or
  // differently configured server is left alone.)
  if (['absent', 'refused', 'build', 'closed'].includes(r.reason) && ctx.spawn) spawnServer(ctx.home, ctx.log, ctx.env);
  return undefined;
}

async function sessionStart(input: HookInput, ctx: Ctx, stdin: string): Promise<string> {
  if (queuedFiles(ctx.home).length > 0) kick(ctx); // leftovers of a crashed or deferred worker
  if (input.source === 'resume' && input.transcriptPath && existsSync(input.transcriptPath)) {
    enqueue(ctx.home, {
      event: 'session-start',
      transcript: input.transcriptPath,
      sessionId: input.sessionId ?? null,
      cwd: input.cwd ?? null,
      flush: false,
    });
    kick(ctx);
  }
  const cwd = input.cwd ?? ctx.cwd;
  // A resumed or compacted session leaves itself out of its wake-up: the cache (per project) holds it.
  const cached = continuedSession(input) === undefined ? await cachedWakeUpText(ctx.home, cwd) : undefined;
  if (cached !== undefined) {
    ctx.log.log('debug', 'session-start: cached wake-up');
    // Warm the server up for the prompts that follow (no connection: the socket file is enough).
    const { serverEnabled, serverSocketPath, spawnServer } = await import('./client.js');
    const sock = serverSocketPath(ctx.home);
    if (serverEnabled(ctx.env) && ctx.spawn && sock && process.platform !== 'win32' && !existsSync(sock))
      spawnServer(ctx.home, ctx.log, ctx.env);
    return contextAnswer('session-start', cached);
  }
  const served = await viaServer('session-start', stdin, ctx);
  if (served !== undefined) return served;
  const { sessionStartAnswer } = await import('./answers.js');
  return sessionStartAnswer(input, ctx);
}

async function userPromptSubmit(input: HookInput, ctx: Ctx, stdin: string): Promise<string> {
  if (isTrivialPrompt(input.prompt)) return '';
  const served = await viaServer('user-prompt-submit', stdin, ctx);
  if (served !== undefined) return served;
  const { promptAnswer } = await import('./answers.js');
  return promptAnswer(input, ctx);
}

/**
 * Runs one hook: parses `stdin`, does the event's work and returns what to print on stdout ('' for
 * nothing). Never throws and never writes to stdout or stderr itself (stderr only with
 * `LOCI_HOOK_DEBUG=1`, through the logger).
 */
export async function runHook(eventName: string, stdin: string, o: RunHookOptions = {}): Promise<string> {
  const env = o.env ?? processEnv();
  let home: string;
  try {
    home = resolveHome(o.home, env);
  } catch {
    home = homePaths(process.cwd()).home;
  }
  const log = hookLogger(home, env, { event: eventName });
  try {
    const event = parseHookEvent(eventName);
    const input = parseHookInput(event, stdin);
    const ctx: Ctx = { home, env, cwd: o.cwd ?? process.cwd(), log, spawn: o.spawnWorker !== false };
    switch (event) {
      case 'session-start':
        return await sessionStart(input, ctx, stdin);
      case 'user-prompt-submit':
        return await userPromptSubmit(input, ctx, stdin);
      case 'stop':
        return stop(input, ctx);
      case 'pre-compact':
      case 'session-end':
        return archive(event, input, ctx);
      case 'post-compact':
        return postCompact(input, ctx);
    }
  } catch (e) {
    log.log('error', 'hook failed (answered with no output)', errorFields(e));
    return '';
  }
}
