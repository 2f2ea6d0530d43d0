/**
 * @module kg/store-common
 * Small pieces shared by the graph adapters: options, the functional set, orderings.
 */
import type { Clock } from '../core/clock.js';
import { cmpStart, predicateKey } from './normalize.js';
import { DEFAULT_FUNCTIONAL_PREDICATES } from './semantics.js';
import type { DrawerLink } from './types.js';

/** Options of the graph adapters. */
export interface GraphStoreOptions {
  /** Source of "now". Default: the system clock. */
  clock?: Clock;
  /** The functional predicates (replaces the default set). Default {@link DEFAULT_FUNCTIONAL_PREDICATES}. */
  functionalPredicates?: Iterable<string>;
}

/** Normalises a functional predicate list. */
export function functionalSet(list: Iterable<string> | undefined): ReadonlySet<string> {
  return new Set([...(list ?? DEFAULT_FUNCTIONAL_PREDICATES)].map(predicateKey));
}

/** Orders facts by (validFrom with null first, insertion). */
export function byStart(a: { validFrom: string | null; seq: number }, b: { validFrom: string | null; seq: number }): number {
  return cmpStart(a.validFrom, b.validFrom) || a.seq - b.seq;
}

/** Orders drawer links: most entities first, then drawer id. */
export function sortLinks(links: DrawerLink[]): DrawerLink[] {
  return links.sort((a, b) => b.entities.length - a.entities.length || (a.drawerId < b.drawerId ? -1 : a.drawerId > b.drawerId ? 1 : 0));
}

