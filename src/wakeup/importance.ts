/**
 * @module wakeup/importance
 * How the wake-up ranks what it shows: **importance = recency × use × kind**.
 *
 * - recency = `1 / (1 + ageDays / 7)`: 1 today, 0.5 after a week, ≈0.19 after a month, ≈0.02
 *   after a year. Hyperbolic rather than exponential: old items fade but never reach 0, so a
 *   much-used old memory can still beat an unused new one.
 * - use = `1 + log2(1 + uses)`: 1 never recalled, 2 once, ≈3.3 four times, ≈4.5 ten times. `uses` =
 *   how often the item was recalled into a prompt (user-prompt-submit) or read on purpose
 *   (`recordUsage`); logarithmic so a few hot items cannot drown everything else. Showing an item
 *   in the wake-up does **not** count (that would reinforce itself).
 * - kind: see {@link KIND_WEIGHTS}. Curated memory files outrank rule-classified drawers;
 *   corrections (`feedback`) and project decisions matter most to an agent starting work.
 *
 * Age is taken from a memory's `modified` and a drawer's content date (else its filing date).
 * Pinned memories are not ranked: they always come first (newest first).
 */

/** Weights of the kinds of items. Memory types by `type`; drawers by hall. */
const KIND_WEIGHTS = {
  /** Memory files, by type. */
  memory: { feedback: 1.5, project: 1.4, user: 1.3, reference: 1.0, untyped: 1.0 },
  /** Palace drawers, by hall (decisions and facts, preferences, advice, compaction summaries, diary). */
  drawer: { facts: 1.2, preferences: 1.2, advice: 1.0, summary: 1.1, diary: 0.9, other: 0.6 },
} as const;

/** Days after which recency has halved (the hyperbola's constant). */
const RECENCY_DAYS = 7;

/** `1 / (1 + ageDays / 7)`; a negative or unknown age counts as 0 days (recency 1) or a year. */
export function recencyFactor(ageDays: number | null): number {
  const d = ageDays === null || !Number.isFinite(ageDays) ? 365 : Math.max(0, ageDays);
  return 1 / (1 + d / RECENCY_DAYS);
}

/** `1 + log2(1 + uses)`. */
export function useFactor(uses: number): number {
  return 1 + Math.log2(1 + Math.max(0, Number.isFinite(uses) ? uses : 0));
}

/** The kind weight of a memory type (null: untyped). */
export function memoryKindFactor(type: string | null): number {
  const w = KIND_WEIGHTS.memory as Record<string, number>;
  return w[type ?? 'untyped'] ?? KIND_WEIGHTS.memory.untyped;
}

/** The kind weight of a drawer's hall. */
export function drawerKindFactor(hall: string | null): number {
  const w = KIND_WEIGHTS.drawer as Record<string, number>;
  return w[hall ?? 'other'] ?? KIND_WEIGHTS.drawer.other;
}

/** The three factors and their product. */
export interface Importance {
  recency: number;
  use: number;
  kind: number;
  /** recency × use × kind. */
  score: number;
}

/** importance = recency × use × kind. */
export function importance(ageDays: number | null, uses: number, kind: number): Importance {
  const recency = recencyFactor(ageDays);
  const use = useFactor(uses);
  return { recency, use, kind, score: recency * use * kind };
}

/** Whole days between `iso` and `now` (null when `iso` is not a date; 0 for the future). */
export function ageInDays(iso: string | null | undefined, now: number): number | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? Math.max(0, (now - t) / 86_400_000) : null;
}
