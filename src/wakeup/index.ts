/**
 * @module wakeup
 * The wake-up capability — "where are we?" when a session starts — and what it ranks with: the
 * only door of `src/wakeup/`. Planning (`wake-up.ts`: identity, pinned memories, the latest
 * sessions, decisions, ranked by importance = recency × use × kind), rendering within a token
 * budget with true ages (`wake-render.ts`), the session-start cache (`wake-cache.ts`), importance
 * (`importance.ts`), usage counts (`usage.ts`) and compaction summaries as drawers
 * (`summaries.ts`). Importing this door is cheap: planning and summaries load on the first call.
 * See ARCHITECTURE.md here.
 */
import type { Palace } from '../palace/index.js';
import type { CompactSummary } from './summaries.js';
import type { WakeUpOptions, WakeUpPlan, WakeUpResult } from './wake-up.js';

export { importance, recencyFactor, useFactor, type Importance } from './importance.js';
export {
  recordUsage,
  readUsage,
  topUsage,
  usageKey,
  journalUsage,
  foldUsageJournal,
  type UsageItem,
  type UsageRecord,
} from './usage.js';
export {
  estimateTokens,
  ageLabel,
  renderWakeUp,
  wakeUpResult,
  DEFAULT_WAKE_TOKENS,
  type WakeUpDraft,
} from './wake-render.js';
export { cacheWakeUpPlan, cachedWakeUpText, type WakeDep } from './wake-cache.js';
export type { WakeUpOptions, WakeUpPlan, WakeUpResult, WakeUpItem } from './wake-up.js';
export type { SessionState } from './wake-sessions.js';
export type { CompactSummary } from './summaries.js';

/**
 * The wake-up for a session: identity, pinned memories, then the project's most important recent
 * memories and decisions (importance = recency × use × kind), each with its age, within
 * `maxTokens` (default 800, estimated as ⌈chars / 4⌉). `text` is '' when there is nothing to say.
 */
export async function wakeUp(opts: WakeUpOptions): Promise<WakeUpResult> {
  return (await import('./wake-up.js')).wakeUp(opts);
}

/**
 * Computes a wake-up without rendering it: the draft, what it shows and the files it depends on
 * (for {@link cacheWakeUpPlan}). Render it with {@link wakeUpResult}.
 */
export async function planWakeUp(opts: WakeUpOptions): Promise<WakeUpPlan> {
  return (await import('./wake-up.js')).planWakeUp(opts);
}

/**
 * Stores a compaction summary (what the post-compact hook received) as a drawer of the session's
 * project: wing of `cwd` (else `sessions`), room `summaries`, hall `summary`, id from the session
 * and the text — so it is stored once however often the hook fires. True when it was new.
 */
export async function storeCompactSummary(
  palace: Pick<Palace, 'addDrawer'>,
  summary: CompactSummary,
): Promise<boolean> {
  return (await import('./summaries.js')).storeCompactSummary(palace, summary);
}
