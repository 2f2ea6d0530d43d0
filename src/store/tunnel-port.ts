/**
 * @module store/tunnel-port
 * The storage port of explicit tunnels between rooms ({@link TunnelStore}) and the pure helpers its
 * adapters share (canonical symmetric ids, ends). Adapters: `memory/tunnels.ts`, `sqlite/tunnels.ts`;
 * traversal over them lives in `src/kg/tunnels.ts`.
 */
import type { Clock } from '../core/clock.js';
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

function clean(ref: RoomRef, side: string): RoomRef {
  const wing = String(ref.wing ?? '').trim();
  const room = String(ref.room ?? '').trim();
  if (!wing || !room)
    throw createError('INVALID_ARGUMENT', {
      name: `${side}`,
      value: ref,
      expected: 'a {wing, room} with both names non-empty',
    });
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
  const hit = (r: RoomRef) =>
    (f.wing === undefined || r.wing === f.wing) && (f.room === undefined || r.room === f.room);
  return hit(t.source) || hit(t.target);
}
