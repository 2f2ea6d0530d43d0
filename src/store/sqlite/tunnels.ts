/**
 * @module store/sqlite/tunnels
 * The SQLite adapter of {@link TunnelStore}: the `tunnels` table of the palace database
 * (migration 2). Takes an open database; writes run in `BEGIN IMMEDIATE` transactions.
 */
import type Database from 'better-sqlite3';
import { isoAt, systemClock, type Clock } from '../../core/clock.js';
import { otherEnd, tunnelId, type RoomRef, type Tunnel, type TunnelInput, type TunnelStore } from '../tunnel-port.js';
import { toTunnel, type TunnelRow as Row } from '../sql-rows.js';
import { mapSqliteError } from './driver.js';
import { KG_SCHEMA_V2 } from './graph-schema.js';

const ORDER = ' ORDER BY created_at, id';

class SqliteTunnelStore implements TunnelStore {
  readonly kind = 'sqlite';
  constructor(
    private readonly db: Database.Database,
    private readonly clock: Clock,
  ) {}

  private run<T>(fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      throw mapSqliteError(e, this.db.name);
    }
  }
  async init(): Promise<void> {
    this.run(() => {
      const has = this.db
        .prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'tunnels'")
        .pluck()
        .get() as number;
      if (!has) this.db.transaction(() => this.db.exec(KG_SCHEMA_V2)).immediate();
    });
  }
  async create(input: TunnelInput, opts: { clock?: Clock } = {}): Promise<Tunnel> {
    const { id, source, target } = tunnelId(input);
    const label = (input.label ?? '').trim();
    const now = isoAt((opts.clock ?? this.clock).now());
    return this.run(() =>
      this.db
        .transaction(() => {
          this.db
            .prepare(
              `INSERT INTO tunnels (id, source_wing, source_room, source_drawer,
                 target_wing, target_room, target_drawer, label, created_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET label = excluded.label`,
            )
            .run(
              id,
              source.wing,
              source.room,
              source.drawerId ?? null,
              target.wing,
              target.room,
              target.drawerId ?? null,
              label,
              now,
            );
          return toTunnel(this.db.prepare('SELECT * FROM tunnels WHERE id = ?').get(id) as Row);
        })
        .immediate(),
    );
  }
  async list(filter: { wing?: string; room?: string } = {}): Promise<Tunnel[]> {
    const conds: string[] = [];
    const side = (p: 'source' | 'target') =>
      [filter.wing !== undefined ? `${p}_wing = @wing` : '', filter.room !== undefined ? `${p}_room = @room` : '']
        .filter(Boolean)
        .join(' AND ');
    if (filter.wing !== undefined || filter.room !== undefined)
      conds.push(`((${side('source')}) OR (${side('target')}))`);
    const sql = `SELECT * FROM tunnels${conds.length ? ' WHERE ' + conds.join(' AND ') : ''}${ORDER}`;
    const params = {
      ...(filter.wing !== undefined ? { wing: filter.wing } : {}),
      ...(filter.room !== undefined ? { room: filter.room } : {}),
    };
    return this.run(() => (this.db.prepare(sql).all(params) as Row[]).map(toTunnel));
  }
  async delete(id: string): Promise<boolean> {
    return this.run(() =>
      this.db.transaction(() => this.db.prepare('DELETE FROM tunnels WHERE id = ?').run(id).changes > 0).immediate(),
    );
  }
  async follow(from: { wing: string; room: string }): Promise<{ tunnel: Tunnel; to: RoomRef }[]> {
    return (await this.list(from)).map((tunnel) => ({ tunnel, to: otherEnd(tunnel, from) }));
  }
  async close(): Promise<void> {}
  async dangerouslyClearAll(): Promise<void> {
    this.run(() => this.db.transaction(() => this.db.exec('DELETE FROM tunnels')).immediate());
  }
}

/** Explicit tunnels in an open palace database. `clock` defaults to the system clock. */
export function createSqliteTunnelStore(db: Database.Database, opts: { clock?: Clock } = {}): TunnelStore {
  return new SqliteTunnelStore(db, opts.clock ?? systemClock);
}
