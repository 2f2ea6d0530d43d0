/**
 * @module kg/semantics
 * The temporal rules of the graph as pure functions: functional predicates, deduplication and the
 * contradiction rule. Both adapters run them through `engine.ts`; ARCHITECTURE.md explains them.
 */
import { createError } from '../core/errors.js';
import type { WindowRow } from '../store/index.js';
import { cmpEnd, cmpStart } from './normalize.js';

/**
 * Predicates that hold one object at a time for a subject. A new window of such a predicate closes
 * the conflicting windows of the same subject. Chosen conservatively: a wrong entry closes facts
 * that were still true, a missing one only leaves two answers open.
 * - `works_at`, `lives_in`, `located_in`: one employer / home / location at a time;
 * - `assigned_to`: reassignment is the common story ("Maya was assigned to billing");
 * - `reports_to`, `married_to`: one manager, one spouse;
 * - `role`, `status`: one title, one state (usually literal objects);
 * - `version`, `set_to`: one version of a thing, one value of a setting at a time ("bumped to 0.3.0"
 *   closes 0.2.0).
 * Not functional on purpose: `uses`, `works_on`, `member_of`, `chose`, `owns` (many at once).
 */
export const DEFAULT_FUNCTIONAL_PREDICATES: readonly string[] = Object.freeze([
  'works_at',
  'lives_in',
  'located_in',
  'assigned_to',
  'reports_to',
  'married_to',
  'role',
  'status',
  'version',
  'set_to',
]);

/** A planned window change of a stored fact. */
interface Closing<R extends WindowRow> {
  row: R;
  validTo: string;
}

/** What {@link planFact} decided. */
type FactPlan<R extends WindowRow> =
  | { kind: 'duplicate'; row: R }
  | { kind: 'insert'; validFrom: string | null; validTo: string | null; closes: Closing<R>[] };

/** The proposed window of a new (or re-dated) fact. */
interface NewWindow {
  object: string;
  literal: boolean;
  validFrom: string | null;
  validTo: string | null;
}

/** True when the half-open window holds at some instant. */
function nonEmpty(w: { validFrom: string | null; validTo: string | null }): boolean {
  return w.validTo === null || w.validFrom === null || w.validFrom < w.validTo;
}

/** `start < end` with null start = -∞ and null end = +∞. */
function startsBefore(start: string | null, end: string | null): boolean {
  return start === null || end === null || start < end;
}

/** Context for error messages. */
interface FactLabel {
  subject: string;
  predicate: string;
  object: string;
}

/**
 * Decides how a new window enters the history of its key. `siblings` are every stored fact of the
 * same subject and predicate; the key is (subject, predicate) for a functional predicate, else
 * (subject, predicate, object).
 * 1. An open input equal to an open stored fact of the same object is a duplicate.
 * 2. Among the non-empty windows of the key, the later start wins: a window starting after the new
 *    one ends it at that start; a window starting at or before it is closed where it starts. Windows
 *    never split and never re-open.
 * 3. A new window with an unknown start (null) facing a stored unknown start is moved to `now`.
 * Empty input windows (`validFrom == validTo`) are stored as they are and change nothing.
 */
export function planFact<R extends WindowRow>(
  siblings: readonly R[],
  n: NewWindow,
  functional: boolean,
  now: string,
  label: FactLabel,
): FactPlan<R> {
  if (n.validTo === null) {
    const dup = siblings.find((c) => c.validTo === null && c.object === n.object && c.literal === n.literal);
    if (dup) return { kind: 'duplicate', row: dup };
  }
  if (!nonEmpty(n)) return { kind: 'insert', validFrom: n.validFrom, validTo: n.validTo, closes: [] };
  const key = siblings.filter((c) => nonEmpty(c) && (functional || (c.object === n.object && c.literal === n.literal)));
  let from = n.validFrom;
  let to = n.validTo;
  if (from === null && key.some((c) => c.validFrom === null)) {
    from = now;
    if (to !== null && to < from) {
      throw createError('KG_INVALID_WINDOW', {
        ...label,
        validFrom: null,
        validTo: to,
        reason:
          'its start is unknown and overlaps a stored window with an unknown start, so it would start now, after ' +
          'its end',
      });
    }
  }
  for (const c of key) if (cmpStart(c.validFrom, from) > 0 && cmpEnd(c.validFrom, to) < 0) to = c.validFrom;
  const closes: Closing<R>[] = [];
  if (from !== null) {
    for (const c of key)
      if (cmpStart(c.validFrom, from) <= 0 && startsBefore(from, c.validTo)) closes.push({ row: c, validTo: from });
  }
  return { kind: 'insert', validFrom: from, validTo: to, closes };
}

/** Throws KG_INVALID_WINDOW when `validTo < validFrom`. */
export function checkWindow(
  validFrom: string | null,
  validTo: string | null,
  label: FactLabel,
  reason = 'the end is before the start',
): void {
  if (validFrom !== null && validTo !== null && validTo < validFrom) {
    throw createError('KG_INVALID_WINDOW', { ...label, validFrom, validTo, reason });
  }
}
