/**
 * @module kg/tunnels
 * Links between rooms. Implicit tunnels join rooms of the same name in different wings (computed
 * from a room listing, never stored); explicit tunnels are stored by a {@link TunnelStore}
 * (the port and its memory and SQLite adapters live in `src/store/`). {@link traverse} walks both
 * breadth-first.
 * Unlike MemPalace, two rooms of one wing are not adjacent just because they share the wing.
 */
import { createError } from '../core/errors.js';
import type { RoomRef, Tunnel, TunnelInput, TunnelStore } from '../store/index.js';

export type { RoomRef, Tunnel, TunnelInput, TunnelStore };

/** A room of the palace with its number of drawers (as listed by the drawer store). */
export interface RoomCount {
  wing: string;
  room: string;
  count: number;
}

/** A room name present in several wings (an implicit tunnel between each pair of them). */
export interface ImplicitLink {
  room: string;
  /** Wings having this room, sorted; at least two. */
  wings: string[];
}

/** Room names never linked implicitly (every wing has them). */
export const DEFAULT_UNLINKED_ROOMS: readonly string[] = Object.freeze(['general']);

/** Rooms sharing a name across wings, from a room listing. `exclude` defaults to {@link DEFAULT_UNLINKED_ROOMS}. */
export function implicitTunnels(
  rooms: readonly RoomCount[],
  opts: { exclude?: readonly string[] } = {},
): ImplicitLink[] {
  const skip = new Set(opts.exclude ?? DEFAULT_UNLINKED_ROOMS);
  const wings = new Map<string, Set<string>>();
  for (const r of rooms) {
    if (skip.has(r.room) || r.count <= 0) continue;
    let s = wings.get(r.room);
    if (!s) wings.set(r.room, (s = new Set()));
    s.add(r.wing);
  }
  return [...wings]
    .filter(([, s]) => s.size > 1)
    .map(([room, s]) => ({ room, wings: [...s].sort() }))
    .sort((a, b) => (a.room < b.room ? -1 : a.room > b.room ? 1 : 0));
}

/** One room reached by {@link traverse}. */
export interface TraversalStep {
  wing: string;
  room: string;
  /** Hops from the start (0 for the start). */
  hops: number;
  /** Drawers in the room (0 when the listing does not have it). */
  count: number;
  /** How it was first reached. */
  via: 'start' | 'implicit' | 'explicit';
  /** The room it was reached from; null for the start. */
  from: { wing: string; room: string } | null;
  /** The explicit tunnel's label, when `via` is `explicit`. */
  label?: string;
}

/** Dependencies and limits of {@link traverse}. */
export interface TraverseOptions {
  /** The rooms of the palace with their drawer counts. */
  rooms: () => Promise<readonly RoomCount[]> | readonly RoomCount[];
  /** Explicit tunnels; absent: implicit links only. */
  tunnels?: TunnelStore;
  /** Room names not linked implicitly. Default {@link DEFAULT_UNLINKED_ROOMS}. */
  exclude?: readonly string[];
  /** Most rooms returned (start included), >= 1. Default 200. */
  limit?: number;
}

/**
 * Breadth-first walk from `start` over implicit and explicit tunnels, at most `maxHops` (>= 0)
 * hops. Returns rooms in order of hops, then drawer count (descending), then wing and room.
 */
export async function traverse(
  start: { wing: string; room: string },
  maxHops: number,
  opts: TraverseOptions,
): Promise<TraversalStep[]> {
  if (!Number.isInteger(maxHops) || maxHops < 0)
    throw createError('INVALID_ARGUMENT', { name: 'maxHops', value: maxHops, expected: 'an integer >= 0' });
  const limit = opts.limit ?? 200;
  const listing = await opts.rooms();
  const skip = new Set(opts.exclude ?? DEFAULT_UNLINKED_ROOMS);
  const counts = new Map<string, number>();
  const wingsOf = new Map<string, string[]>();
  for (const r of listing) {
    counts.set(`${r.wing}\0${r.room}`, r.count);
    if (r.count > 0 && !skip.has(r.room)) wingsOf.set(r.room, [...(wingsOf.get(r.room) ?? []), r.wing]);
  }
  const key = (w: string, r: string) => `${w}\0${r}`;
  const seen = new Map<string, TraversalStep>();
  const first: TraversalStep = {
    wing: start.wing,
    room: start.room,
    hops: 0,
    count: counts.get(key(start.wing, start.room)) ?? 0,
    via: 'start',
    from: null,
  };
  seen.set(key(start.wing, start.room), first);
  let frontier = [first];
  for (let hop = 1; hop <= maxHops && frontier.length > 0; hop++) {
    const next: TraversalStep[] = [];
    for (const node of frontier) {
      const from = { wing: node.wing, room: node.room };
      const reach = (wing: string, room: string, via: 'implicit' | 'explicit', label?: string) => {
        const k = key(wing, room);
        if (seen.has(k)) return;
        const step: TraversalStep = {
          wing,
          room,
          hops: hop,
          count: counts.get(k) ?? 0,
          via,
          from,
          ...(label !== undefined ? { label } : {}),
        };
        seen.set(k, step);
        next.push(step);
      };
      if (!skip.has(node.room))
        for (const w of wingsOf.get(node.room) ?? []) if (w !== node.wing) reach(w, node.room, 'implicit');
      if (opts.tunnels)
        for (const { tunnel, to } of await opts.tunnels.follow(from)) reach(to.wing, to.room, 'explicit', tunnel.label);
    }
    frontier = next;
  }
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...seen.values()]
    .sort((a, b) => a.hops - b.hops || b.count - a.count || cmp(a.wing, b.wing) || cmp(a.room, b.room))
    .slice(0, Math.max(1, limit));
}
