/**
 * @module kg/tunnels
 * Links between rooms. Implicit tunnels join rooms of the same name in different wings (computed
 * from a room listing, never stored); explicit tunnels are stored by a {@link TunnelStore}
 * (memory here, SQLite in `sqlite-tunnel-store.ts`). {@link traverse} walks both breadth-first.
 * Unlike MemPalace, two rooms of one wing are not adjacent just because they share the wing.
 */
import { isoAt, systemClock, type Clock } from '../core/clock.js';
import { createError } from '../core/errors.js';
import { stableId } from '../core/hash.js';

/** One end of a tunnel: a room, optionally a drawer in it. */
export interface RoomRef {
  wing: string;
  room: string;
  /** A drawer the tunnel points at; null/absent for the whole room. */
  drawerId?: string | null;
}

/** A stored explicit tunnel. Its id is the same whichever end is given first. */
export interface Tunnel {
  id: string;
  source: RoomRef;
  target: RoomRef;
  /** Free text ("same bug", "design notes"); may be empty. */
  label: string;
  /** ISO-8601 UTC of the first creation. */
  createdAt: string;
}

/** What a caller gives to create a tunnel. */
export interface TunnelInput {
  source: RoomRef;
  target: RoomRef;
  /** Default ''. Re-creating the same tunnel replaces the label. */
  label?: string;
}

/** Explicit tunnels between rooms. */
export interface TunnelStore {
  readonly kind: string;
  /** Creates the schema if needed. Idempotent. */
  init(): Promise<void>;
  /** Creates a tunnel, or updates the label of the one with the same ends (in either order). Throws KG_TUNNEL_SELF. */
  create(input: TunnelInput, opts?: { clock?: Clock }): Promise<Tunnel>;
  /** Tunnels with an end in `wing` (and `room`), ordered by creation then id. Default: all. */
  list(filter?: { wing?: string; room?: string }): Promise<Tunnel[]>;
  /** Deletes a tunnel. Returns false when no tunnel had this id. */
  delete(id: string): Promise<boolean>;
  /** The tunnels with an end in this room, each with `to`: its other end. */
  follow(from: { wing: string; room: string }): Promise<{ tunnel: Tunnel; to: RoomRef }[]>;
  close(): Promise<void>;
  /** Deletes every tunnel. For tests. */
  dangerouslyClearAll(): Promise<void>;
}

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

function clean(ref: RoomRef, side: string): RoomRef {
  const wing = String(ref.wing ?? '').trim();
  const room = String(ref.room ?? '').trim();
  if (!wing || !room) throw createError('INVALID_ARGUMENT', { name: `${side}`, value: ref, expected: 'a {wing, room} with both names non-empty' });
  const drawerId = ref.drawerId ? String(ref.drawerId).trim() : null;
  return { wing, room, drawerId: drawerId || null };
}

const endKey = (r: RoomRef) => `${r.wing}\0${r.room}\0${r.drawerId ?? ''}`;

/** Validates a tunnel input and returns its canonical (symmetric) id and cleaned ends. */
export function tunnelId(input: TunnelInput): { id: string; source: RoomRef; target: RoomRef } {
  const source = clean(input.source, 'source');
  const target = clean(input.target, 'target');
  if (endKey(source) === endKey(target)) throw createError('KG_TUNNEL_SELF', { wing: source.wing, room: source.room });
  const [a, b] = [endKey(source), endKey(target)].sort();
  return { id: stableId('tun_', a!, b!), source, target };
}

/** The other end of `t` seen from the room `from` (the target when both ends are in that room). */
export function otherEnd(t: Tunnel, from: { wing: string; room: string }): RoomRef {
  return t.source.wing === from.wing && t.source.room === from.room ? t.target : t.source;
}

/** Whether a tunnel has an end in `wing` (and `room`, when given). */
export function touches(t: Tunnel, f: { wing?: string; room?: string }): boolean {
  const hit = (r: RoomRef) => (f.wing === undefined || r.wing === f.wing) && (f.room === undefined || r.room === f.room);
  return hit(t.source) || hit(t.target);
}

/** Rooms sharing a name across wings, from a room listing. `exclude` defaults to {@link DEFAULT_UNLINKED_ROOMS}. */
export function implicitTunnels(rooms: readonly RoomCount[], opts: { exclude?: readonly string[] } = {}): ImplicitLink[] {
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
export async function traverse(start: { wing: string; room: string }, maxHops: number, opts: TraverseOptions): Promise<TraversalStep[]> {
  if (!Number.isInteger(maxHops) || maxHops < 0) throw createError('INVALID_ARGUMENT', { name: 'maxHops', value: maxHops, expected: 'an integer >= 0' });
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
  const first: TraversalStep = { wing: start.wing, room: start.room, hops: 0, count: counts.get(key(start.wing, start.room)) ?? 0, via: 'start', from: null };
  seen.set(key(start.wing, start.room), first);
  let frontier = [first];
  for (let hop = 1; hop <= maxHops && frontier.length > 0; hop++) {
    const next: TraversalStep[] = [];
    for (const node of frontier) {
      const from = { wing: node.wing, room: node.room };
      const reach = (wing: string, room: string, via: 'implicit' | 'explicit', label?: string) => {
        const k = key(wing, room);
        if (seen.has(k)) return;
        const step: TraversalStep = { wing, room, hops: hop, count: counts.get(k) ?? 0, via, from, ...(label !== undefined ? { label } : {}) };
        seen.set(k, step);
        next.push(step);
      };
      if (!skip.has(node.room)) for (const w of wingsOf.get(node.room) ?? []) if (w !== node.wing) reach(w, node.room, 'implicit');
      if (opts.tunnels) for (const { tunnel, to } of await opts.tunnels.follow(from)) reach(to.wing, to.room, 'explicit', tunnel.label);
    }
    frontier = next;
  }
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...seen.values()]
    .sort((a, b) => a.hops - b.hops || b.count - a.count || cmp(a.wing, b.wing) || cmp(a.room, b.room))
    .slice(0, Math.max(1, limit));
}

class MemoryTunnelStore implements TunnelStore {
  readonly kind = 'memory';
  private tunnels = new Map<string, Tunnel>();
  constructor(private readonly clock: Clock) {}
  async init(): Promise<void> {}
  async create(input: TunnelInput, opts: { clock?: Clock } = {}): Promise<Tunnel> {
    const { id, source, target } = tunnelId(input);
    const label = (input.label ?? '').trim();
    const old = this.tunnels.get(id);
    const t: Tunnel = old ? { ...old, label } : { id, source, target, label, createdAt: isoAt((opts.clock ?? this.clock).now()) };
    this.tunnels.set(id, t);
    return structuredClone(t);
  }
  async list(filter: { wing?: string; room?: string } = {}): Promise<Tunnel[]> {
    return [...this.tunnels.values()]
      .filter((t) => touches(t, filter))
      .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1))
      .map((t) => structuredClone(t));
  }
  async delete(id: string): Promise<boolean> {
    return this.tunnels.delete(id);
  }
  async follow(from: { wing: string; room: string }): Promise<{ tunnel: Tunnel; to: RoomRef }[]> {
    return (await this.list(from)).map((tunnel) => ({ tunnel, to: otherEnd(tunnel, from) }));
  }
  async close(): Promise<void> {}
  async dangerouslyClearAll(): Promise<void> {
    this.tunnels.clear();
  }
}

/** Creates an empty in-memory tunnel store. `clock` defaults to the system clock. */
export function createMemoryTunnelStore(opts: { clock?: Clock } = {}): TunnelStore {
  return new MemoryTunnelStore(opts.clock ?? systemClock);
}
