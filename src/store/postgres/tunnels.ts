/**
 * @module store/postgres/tunnels
 * The PostgreSQL adapter of {@link TunnelStore}: table `tunnels` of the palace schema (migration 2).
 * Each write is one statement (atomic on its own).
 */
import { isoAt, systemClock, type Clock } from '../../core/clock.js';
import { otherEnd, tunnelId, type RoomRef, type Tunnel, type TunnelInput, type TunnelStore } from '../tunnel-port.js';
import { toTunnel, type TunnelRow as Row } from '../sql-rows.js';
import { mapPgError, readQuery, type PgPool, type PgTarget } from './connect.js';

/** Explicit tunnels in a PostgreSQL palace. `clock` defaults to the system clock. */
export function createPostgresTunnelStore(pool: PgPool, target: PgTarget, opts: { clock?: Clock } = {}): TunnelStore {
  const clock = opts.clock ?? systemClock;
  const q = <R>(sql: string, params: unknown[] = []) => readQuery<R>(pool, target, sql, params);
  const list = async (filter: { wing?: string; room?: string } = {}): Promise<Tunnel[]> => {
    const params: unknown[] = [];
    const side = (p: 'source' | 'target') => {
      const c: string[] = [];
      if (filter.wing !== undefined) c.push(`${p}_wing = $1`);
      if (filter.room !== undefined) c.push(`${p}_room = $${filter.wing !== undefined ? 2 : 1}`);
      return c.join(' AND ');
    };
    if (filter.wing !== undefined) params.push(filter.wing);
    if (filter.room !== undefined) params.push(filter.room);
    const where = params.length ? ` WHERE (${side('source')}) OR (${side('target')})` : '';
    return (await q<Row>(`SELECT * FROM tunnels${where} ORDER BY created_at, id`, params)).map(toTunnel);
  };
  return {
    kind: 'postgres',
    async init() {
      // The schema is migrated by openPostgresPalace.
    },
    async create(input: TunnelInput, o: { clock?: Clock } = {}) {
      const { id, source, target: to } = tunnelId(input);
      const label = (input.label ?? '').trim();
      const [row] = await q<Row>(
        `INSERT INTO tunnels (id, source_wing, source_room, source_drawer, target_wing, target_room, target_drawer,
           label, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (id) DO UPDATE SET label = excluded.label RETURNING *`,
        [
          id,
          source.wing,
          source.room,
          source.drawerId ?? null,
          to.wing,
          to.room,
          to.drawerId ?? null,
          label,
          isoAt((o.clock ?? clock).now()),
        ],
      );
      return toTunnel(row!);
    },
    list,
    async delete(id: string) {
      const r = await pool.query('DELETE FROM tunnels WHERE id = $1', [id]).catch((e: unknown) => {
        throw mapPgError(e, target);
      });
      return (r.rowCount ?? 0) > 0;
    },
    async follow(from: { wing: string; room: string }): Promise<{ tunnel: Tunnel; to: RoomRef }[]> {
      return (await list(from)).map((tunnel) => ({ tunnel, to: otherEnd(tunnel, from) }));
    },
    async close() {},
    async dangerouslyClearAll() {
      await q('DELETE FROM tunnels');
    },
  };
}
