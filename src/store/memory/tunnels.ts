/**
 * @module store/memory/tunnels
 * The in-memory reference adapter of {@link TunnelStore}.
 */
import { isoAt, systemClock, type Clock } from '../../core/clock.js';
import {
  otherEnd,
  touches,
  tunnelId,
  type RoomRef,
  type Tunnel,
  type TunnelInput,
  type TunnelStore,
} from '../tunnel-port.js';

class MemoryTunnelStore implements TunnelStore {
  readonly kind = 'memory';
  private tunnels = new Map<string, Tunnel>();
  constructor(private readonly clock: Clock) {}
  async init(): Promise<void> {}
  async create(input: TunnelInput, opts: { clock?: Clock } = {}): Promise<Tunnel> {
    const { id, source, target } = tunnelId(input);
    const label = (input.label ?? '').trim();
    const old = this.tunnels.get(id);
    const t: Tunnel = old
      ? { ...old, label }
      : { id, source, target, label, createdAt: isoAt((opts.clock ?? this.clock).now()) };
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
