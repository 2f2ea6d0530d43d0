/**
 * @module recall/prefetch
 * {@link startRecallPrefetch}: recall started when the user's message arrives and run beside the
 * agent loop, which polls it at each turn without ever waiting. Lifecycle: gated (not started) →
 * running → settled (result ready) → consumed once; `abort()` cancels at any point (the LLM call
 * included) and the result is then never delivered.
 */
import { systemClock } from '../core/clock.js';
import { countWords, isSmallTalk } from '../core/words.js';
import { scanTopicFiles } from '../memdir/index.js';
import { buildRecall, minimumInjectionBytes, resolveBudgets } from './build.js';
import { recordSurfaced, sessionBytesLeft } from './session.js';
import type { RecallOptions, RecallResult } from './types.js';

/** Options of {@link startRecallPrefetch}. */
interface PrefetchOptions extends RecallOptions {
  /**
   * The Loci home. With `session`, `consume()` records what it hands out in
   * `<home>/sessions/<id>.json` (and updates `session` in place). Default: nothing is recorded.
   */
  home?: string | undefined;
}

/** A running (or skipped) prefetch. */
interface RecallPrefetch {
  /** The result when it is ready and not yet consumed, else undefined. Never waits. */
  poll(): RecallResult | undefined;
  /** Like `poll`, but hands the result out only once (later calls return undefined). */
  consume(): RecallResult | undefined;
  /** Cancels the prefetch (aborts the LLM call); the result will never be delivered. Idempotent. */
  abort(): void;
  /** True once the result is ready, or the prefetch was skipped or aborted. */
  readonly settled: boolean;
  /** Why the prefetch did not start (a gate), else undefined. */
  readonly skipped: string | undefined;
  /** Resolves when the background work has stopped (never rejects); for shutdown and tests. */
  readonly done: Promise<void>;
}

/** Why a prefetch for `query` should not start, or undefined when it should. Never throws. */
export function prefetchGate(query: string, opts: RecallOptions): string | undefined {
  try {
    if (opts.signal?.aborted) return 'aborted before start';
    if (countWords(query) < 2) return 'single-word query';
    if (isSmallTalk(query)) return 'small talk (no topic to recall)';
    const budgets = resolveBudgets(opts.budgets);
    if (sessionBytesLeft(opts.session, budgets) < minimumInjectionBytes()) return 'session recall budget exhausted';
    if (scanTopicFiles(opts.dir).length === 0) return 'no memory files';
    return undefined;
  } catch (e) {
    return `gate check failed: ${(e as Error)?.message ?? String(e)}`;
  }
}

function skippedHandle(reason: string): RecallPrefetch {
  return {
    poll: () => undefined,
    consume: () => undefined,
    abort: () => {},
    settled: true,
    skipped: reason,
    done: Promise.resolve(),
  };
}

/**
 * Starts recall for `query` in the background and returns at once. Gates (the prefetch is skipped,
 * `skipped` says why): a single-word query, the session budget spent, no memory files, an already
 * aborted `signal`. The work starts on the next turn of the event loop; `opts.signal` aborting
 * has the same effect as `abort()`.
 */
export function startRecallPrefetch(query: string, opts: PrefetchOptions): RecallPrefetch {
  const gate = prefetchGate(query, opts);
  if (gate) return skippedHandle(gate);
  const ac = new AbortController();
  const onOuterAbort = () => handle.abort();
  opts.signal?.addEventListener('abort', onOuterAbort, { once: true });
  let result: RecallResult | undefined;
  let settled = false;
  let consumed = false;
  let aborted = false;

  const done = new Promise<void>((resolve) => {
    setImmediate(() => {
      if (aborted) return resolve();
      buildRecall(query, { ...opts, signal: ac.signal })
        .then((r) => {
          if (!aborted) {
            result = r;
            settled = true;
          }
        })
        .catch(() => {
          // buildRecall never rejects; this is a last guard for the agent loop.
          settled = true;
        })
        .finally(() => {
          opts.signal?.removeEventListener('abort', onOuterAbort);
          resolve();
        });
    });
  });

  const deliver = (take: boolean): RecallResult | undefined => {
    if (!settled || aborted || consumed || !result) return undefined;
    if (!take) return result;
    consumed = true;
    if (opts.home && opts.session && result.text) {
      const s = recordSurfaced(
        opts.home,
        opts.session.id,
        { files: result.memories.map((m) => m.file), bytes: result.bytes },
        { logger: opts.logger, clock: opts.clock ?? systemClock },
      );
      Object.assign(opts.session, s);
    }
    return result;
  };

  const handle: RecallPrefetch = {
    poll: () => deliver(false),
    consume: () => deliver(true),
    abort() {
      if (aborted || consumed) return;
      aborted = true;
      settled = true;
      result = undefined;
      ac.abort();
    },
    get settled() {
      return settled;
    },
    skipped: undefined,
    done,
  };
  return handle;
}
