/**
 * @module context/budget
 * Token budgets for an agent session: how full the context window is (a warning and a nudge from
 * 90 %, the auto-compaction threshold), the output budget of one turn with its continuations
 * (the agent loop asks "keep going?" each time the model stops), diminishing-returns detection (a
 * continuation that adds fewer than 500 tokens after the third), the session's usage totals, and a
 * completion record with the metrics when a turn ends.
 */
import type { TokenUsage } from '../providers/index.js';

/** Options of {@link createTokenBudget}. */
export interface TokenBudgetOptions {
  /** The model's context window in tokens. Required; 1,000 … 10,000,000. */
  contextWindow: number;
  /**
   * Tokens reserved for the model's answer: the usable window is `contextWindow − reserve`.
   * Default 0 (the caller sizes `contextWindow` itself); 0 … contextWindow / 2.
   */
  reserveOutputTokens?: number;
  /** Fraction of the usable window at which a warning (and a nudge) is raised. Default 0.9; 0.1 … 1. */
  warnFraction?: number;
  /**
   * Fraction of the usable window above which automatic compaction should run. Default 0.85;
   * 0.1 … 1. Set it above `warnFraction` to warn before compacting.
   */
  compactFraction?: number;
  /**
   * Output tokens one turn should produce before it may end (e.g. a user's "+50k"). Default none:
   * a turn ends when the model stops, and `continuation()` always says stop.
   */
  turnTokens?: number;
  /** A continuation adding fewer tokens than this is "diminishing". Default 500; 0 … 100,000. */
  diminishingTokens?: number;
  /** Continuations allowed per turn. Default 20; 0 … 1,000. */
  maxContinuations?: number;
  /** Total tokens (input + output, cache included) allowed per session. Default: unlimited. */
  sessionTokens?: number;
  /** Clock for durations, in ms. Default `Date.now`. */
  now?: () => number;
}

/** How full the context is. */
export interface ContextCheck {
  /** Tokens in context (as given). */
  tokens: number;
  /** The usable window (`contextWindow − reserveOutputTokens`). */
  window: number;
  /** `tokens ÷ window`. */
  fraction: number;
  /** `ok` below both thresholds; `compact` from the compaction threshold; `warn` from 90 %; `over` past 100 %. */
  level: 'ok' | 'compact' | 'warn' | 'over';
  /** True from the compaction threshold. */
  shouldCompact: boolean;
  /** A short message for the model (a nudge), from the warning threshold. */
  nudge?: string;
}

/** Why a turn stopped. */
export type StopReason = 'completed' | 'budget_reached' | 'diminishing' | 'max_continuations' | 'session_budget';

/** The metrics of one finished turn. */
export interface CompletionRecord {
  /** Why it stopped. */
  reason: StopReason;
  /** Model calls made in the turn (1 + continuations + tool round trips reported through `recordUsage`). */
  calls: number;
  /** Continuations granted in the turn. */
  continuations: number;
  /** True when the turn ended on diminishing returns. */
  diminishing: boolean;
  /** Output tokens of the turn. */
  outputTokens: number;
  /** The turn's output budget, when one was set. */
  turnTokens?: number;
  /** `outputTokens ÷ turnTokens` (0 when no budget). */
  budgetFraction: number;
  /** Largest context seen in the turn, in tokens. */
  peakContextTokens: number;
  /** Wall time of the turn, in ms. */
  durationMs: number;
  /** Usage summed over the turn. */
  usage: TokenUsage;
}

/** Decision after the model stopped. */
export type ContinuationDecision =
  { action: 'continue'; continuations: number; nudge: string } | { action: 'stop'; record: CompletionRecord };

/** The budget of one session. */
export interface TokenBudget {
  /** The usable window, in tokens. */
  readonly window: number;
  /**
   * How full a context of `tokens` tokens is. Also tracks the peak, unless `track` is false (for a
   * context that is not sent as is, e.g. before a compaction).
   */
  check(tokens: number, options?: { track?: boolean }): ContextCheck;
  /** Starts a turn (resets its output counter and continuations). */
  startTurn(): void;
  /** Adds one model call's reported usage to the turn and the session. */
  recordUsage(usage: TokenUsage): void;
  /**
   * Called when the model stopped: continue with a nudge while the turn's output is under 90 % of
   * `turnTokens`, unless returns diminish (≥ 3 continuations and the last two each added fewer than
   * `diminishingTokens`), continuations run out or the session budget is spent.
   */
  continuation(): ContinuationDecision;
  /** Ends the turn without asking for a continuation. */
  finish(reason?: StopReason): CompletionRecord;
  /** Usage summed over the session. */
  sessionUsage(): TokenUsage;
  /** Largest context seen in the session, in tokens. */
  readonly peakContextTokens: number;
}

const zero = (): TokenUsage => ({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheCreationTokens: 0 });

function add(a: TokenUsage, b: TokenUsage): void {
  a.inputTokens += b.inputTokens || 0;
  a.outputTokens += b.outputTokens || 0;
  a.cacheReadTokens += b.cacheReadTokens || 0;
  a.cacheCreationTokens += b.cacheCreationTokens || 0;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** Creates a {@link TokenBudget}. */
export function createTokenBudget(options: TokenBudgetOptions): TokenBudget {
  const reserve = Math.max(0, Math.min(options.reserveOutputTokens ?? 0, options.contextWindow / 2));
  const window = Math.max(1, options.contextWindow - reserve);
  const warnAt = clamp01(options.warnFraction ?? 0.9);
  const compactAt = clamp01(options.compactFraction ?? 0.85);
  const diminishing = Math.max(0, options.diminishingTokens ?? 500);
  const maxContinuations = Math.max(0, options.maxContinuations ?? 20);
  const now = options.now ?? Date.now;
  const session = zero();
  let peak = 0;
  let turn = { usage: zero(), calls: 0, continuations: 0, peak: 0, started: now(), deltas: [] as number[], last: 0 };

  const record = (reason: StopReason, dim = false): CompletionRecord => ({
    reason,
    calls: turn.calls,
    continuations: turn.continuations,
    diminishing: dim,
    outputTokens: turn.usage.outputTokens,
    ...(options.turnTokens ? { turnTokens: options.turnTokens } : {}),
    budgetFraction: options.turnTokens ? turn.usage.outputTokens / options.turnTokens : 0,
    peakContextTokens: turn.peak,
    durationMs: Math.max(0, now() - turn.started),
    usage: { ...turn.usage },
  });

  const sessionTotal = () =>
    session.inputTokens + session.outputTokens + session.cacheReadTokens + session.cacheCreationTokens;

  return {
    window,
    get peakContextTokens() {
      return peak;
    },
    check(tokens, opts = {}) {
      if (opts.track !== false) {
        peak = Math.max(peak, tokens);
        turn.peak = Math.max(turn.peak, tokens);
      }
      const fraction = tokens / window;
      const level = fraction > 1 ? 'over' : fraction >= warnAt ? 'warn' : fraction >= compactAt ? 'compact' : 'ok';
      const out: ContextCheck = { tokens, window, fraction, level, shouldCompact: fraction >= compactAt };
      if (fraction >= warnAt)
        out.nudge =
          `Context is ${Math.round(fraction * 100)}% full (${fmt(tokens)} of ${fmt(window)} tokens). Finish the ` +
          'current step, keep answers short, and avoid reading large files; older messages will be summarised.';
      return out;
    },
    startTurn() {
      turn = { usage: zero(), calls: 0, continuations: 0, peak: 0, started: now(), deltas: [], last: 0 };
    },
    recordUsage(usage) {
      add(session, usage);
      add(turn.usage, usage);
      turn.calls++;
    },
    continuation() {
      const budget = options.turnTokens;
      const out = turn.usage.outputTokens;
      turn.deltas.push(out - turn.last);
      turn.last = out;
      if (!budget) return { action: 'stop', record: record('completed') };
      if (options.sessionTokens !== undefined && sessionTotal() >= options.sessionTokens)
        return { action: 'stop', record: record('session_budget') };
      const [a, b] = turn.deltas.slice(-2);
      const isDiminishing =
        turn.continuations >= 3 && a !== undefined && b !== undefined && a < diminishing && b < diminishing;
      if (isDiminishing) return { action: 'stop', record: record('diminishing', true) };
      if (out >= budget * 0.9) return { action: 'stop', record: record('budget_reached') };
      if (turn.continuations >= maxContinuations) return { action: 'stop', record: record('max_continuations') };
      turn.continuations++;
      const pct = Math.round((out / budget) * 100);
      return {
        action: 'continue',
        continuations: turn.continuations,
        nudge:
          `Stopped at ${pct}% of the turn's token budget (${fmt(out)} / ${fmt(budget)}). Keep working — do not ` +
          'summarise what you did so far.',
      };
    },
    finish: (reason = 'completed') => record(reason),
    sessionUsage: () => ({ ...session }),
  };
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0.1, x)) : 0.9;
}
