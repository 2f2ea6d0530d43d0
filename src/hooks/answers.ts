/**
 * @module hooks/answers
 * The hook answers that need the library: `session-start` when its cached wake-up is stale, and
 * `user-prompt-submit`. Loaded with a dynamic `import()` by `run.ts` (in the hook process) or by
 * the warm hook server (`server.ts`), which passes its open palace through a {@link PalaceSource}.
 */
import { existsSync } from 'node:fs';
// The capability doors this needs, not the whole library (start-up: it runs in the hook process).
import { homePaths } from '../core/env.js';
import type { Logger } from '../core/logger.js';
import { selectMemoryDir } from '../memdir/index.js';
import { openPalace, type Palace } from '../palace/index.js';
import { buildPromptContext, loadRecallSession, recordSurfaced, type PromptContext } from '../recall/index.js';
import { cacheWakeUpPlan, journalUsage, planWakeUp, wakeUpResult, type UsageItem } from '../wakeup/index.js';
import { contextAnswer, continuedSession, HOOK_OUTPUT_CHARS, type HookInput } from './protocol.js';
import { lastCompactionLine } from './transcript.js';

/** Where answers get the palace from. */
export interface PalaceSource {
  /** The home's palace, or undefined when it has no database yet (none is created). Call `release` when done. */
  acquire(): Promise<{ palace: Palace | undefined; release(): Promise<void> }>;
}

/** What every hook answer gets. */
interface HookContext {
  home: string;
  env: NodeJS.ProcessEnv;
  /** Working directory when the input has no `cwd`. */
  cwd: string;
  log: Logger;
  /** Default: open the palace for this answer and close it after ({@link ownPalace}). */
  palaces?: PalaceSource | undefined;
  /**
   * Runs bookkeeping (session state, usage counts) after the answer has been sent. Given by the
   * warm server, whose palace stays open; without it bookkeeping runs before the answer returns.
   */
  defer?: ((work: () => Promise<void>) => void) | undefined;
}

/** A source that opens the palace per answer and closes it on release (the hook process). */
function ownPalace(home: string, log: Logger): PalaceSource {
  return {
    async acquire() {
      if (!existsSync(homePaths(home).db)) return { palace: undefined, release: async () => {} };
      const palace = await openPalace({ home, logger: log });
      return { palace, release: () => palace.close() };
    },
  };
}

/**
 * Computes the wake-up for the session's project, refreshes the cache entry `session-start`
 * reads, and returns the hook answer ('' when there is nothing to say). A home without a palace
 * file is read through an empty in-memory store (no database is created).
 */
export async function sessionStartAnswer(input: HookInput, ctx: HookContext): Promise<string> {
  const cwd = input.cwd ?? ctx.cwd;
  const { palace: found, release } = await (ctx.palaces ?? ownPalace(ctx.home, ctx.log)).acquire();
  const palace =
    found ??
    // No palace yet (rare): an empty in-memory one; the library entry loads only then.
    (await openPalace({
      home: ctx.home,
      logger: ctx.log,
      embedder: null,
      store: (await import('../index.js')).createMemoryStore(),
    }));
  const excludeSession = continuedSession(input);
  let plan;
  try {
    plan = await planWakeUp({ palace, home: ctx.home, cwd, env: ctx.env, logger: ctx.log, excludeSession });
  } finally {
    if (found) await release();
    else await palace.close();
  }
  // Signatures are taken after close: closing may checkpoint the WAL. A plan without the continued
  // session is not the project's wake-up for the next new session: not cached.
  if (excludeSession === undefined) cacheWakeUpPlan(ctx.home, cwd, plan);
  const r = wakeUpResult(plan, Date.now());
  ctx.log.log('debug', 'session-start: wake-up computed', {
    tokens: r.tokens,
    pinned: r.sections.pinned.length,
    recent: r.sections.recent.length,
  });
  return contextAnswer('session-start', r.text);
}

/** First character budget of the prompt context: leaves room for JSON escaping within 10,000. */
const FIRST_MAX_CHARS = 9_200;

/**
 * Recalls memory files and palace drawers for the prompt (search only, no model call), records
 * what was injected (session state and usage counts), and returns the hook answer. Drawers come
 * from the project's wing (of `cwd`) and the wings its explicit tunnels reach, other wings only far
 * above them (`buildPromptContext`); memories from the project's and the user's directories. The
 * text is not wrapped in `<system-reminder>` (Claude Code wraps hook context itself). The whole
 * stdout — JSON escaping included — stays within 10,000 characters.
 */
export async function promptAnswer(input: HookInput, ctx: HookContext): Promise<string> {
  const query = input.prompt ?? '';
  const cwd = input.cwd ?? ctx.cwd;
  const choice = selectMemoryDir({ cwd, env: ctx.env, lociHome: ctx.home });
  const session = input.sessionId ? loadRecallSession(ctx.home, input.sessionId, { logger: ctx.log }) : undefined;
  const { palace, release } = await (ctx.palaces ?? ownPalace(ctx.home, ctx.log)).acquire();
  try {
    let maxChars = FIRST_MAX_CHARS;
    let pc: PromptContext | undefined;
    let out = '';
    // Recall stays in its project: the cwd's wing and the wings its tunnels reach, plus user memories.
    const scope = { project: cwd, userMemoryDir: choice.userDir, wrap: false };
    // What this conversation said since its last compaction is in the agent's context already. The
    // transcript is read for its last compaction only when a hit comes from it, and once per prompt.
    const transcript = input.transcriptPath;
    let compactionLine: number | undefined;
    const liveConversation = input.sessionId
      ? {
          sessionId: input.sessionId,
          transcript,
          fromLine: () => (compactionLine ??= transcript ? lastCompactionLine(transcript) : 0),
        }
      : undefined;
    for (let attempt = 0; attempt < 3; attempt++) {
      pc = await buildPromptContext({
        query,
        memoryDir: choice.dir,
        palace,
        session,
        maxChars,
        logger: ctx.log,
        liveConversation,
        ...scope,
      });
      if (!pc.text) {
        ctx.log.log('debug', 'user-prompt-submit: nothing recalled', { reason: pc.reason });
        return '';
      }
      out = contextAnswer('user-prompt-submit', pc.text);
      if (out.length <= HOOK_OUTPUT_CHARS) break;
      maxChars = Math.max(200, maxChars - (out.length - HOOK_OUTPUT_CHARS) - 200);
    }
    if (!pc || out.length > HOOK_OUTPUT_CHARS) {
      ctx.log.log('warn', 'user-prompt-submit: recall could not be fitted in 10,000 characters; nothing injected', {
        chars: out.length,
      });
      return '';
    }
    const injected = pc;
    const bookkeeping = async () => {
      if (session)
        recordSurfaced(
          ctx.home,
          session.id,
          {
            files: injected.memories.map((m) => m.file),
            drawers: injected.drawers.map((d) => d.id),
            bytes: injected.bytes,
          },
          { logger: ctx.log },
        );
      if (!palace) return;
      const used: UsageItem[] = [
        ...injected.memories.map((m): UsageItem => ({ kind: 'memory', path: m.path })),
        ...injected.drawers.map((d): UsageItem => ({ kind: 'drawer', id: d.id })),
      ];
      // In the journal, not the palace: a palace write would make the next session-start's cached wake-up stale.
      try {
        journalUsage(ctx.home, used);
      } catch (e) {
        ctx.log.log('warn', 'user-prompt-submit: usage not recorded', { error: (e as Error).message });
      }
    };
    if (ctx.defer) ctx.defer(bookkeeping);
    else await bookkeeping();
    return out;
  } finally {
    await release();
  }
}
