/**
 * @module store
 * Storage ports and their adapters: in-memory (reference) and SQLite (default).
 */
export type * from './ports.js';
export { createMemoryStore } from './memory/memory-store.js';
export { createSqliteStore } from './sqlite/drawer-store.js';
export { openDatabase, mapSqliteError, type SqliteDatabase } from './sqlite/driver.js';
export { MIGRATIONS, latestVersion } from './sqlite/migrations.js';
export { matchesFilter, prepareDrawer } from './shared.js';
export type { VectorStore, PendingDrawer } from './vector-port.js';
export { createMemoryVectorStore } from './memory/vector-store.js';
export { createSqliteVectorStore, loadSqliteVec } from './sqlite/vector-store.js';
export type {
  DrawerLink,
  Entity,
  EntityRow,
  Fact,
  FactRow,
  FactsFilter,
  GraphCapabilities,
  GraphRows,
  GraphStats,
  GraphTables,
  TimelinePosition,
  WindowRow,
} from './graph-port.js';
export { cmpStart, passes, validAt } from './graph-port.js';
export { createMemoryGraphTables } from './memory/graph.js';
export { createSqliteGraphTables } from './sqlite/graph.js';
export { KG_SCHEMA_V2 } from './sqlite/graph-schema.js';
export type { RoomRef, Tunnel, TunnelInput, TunnelStore } from './tunnel-port.js';
export { otherEnd, touches, tunnelId } from './tunnel-port.js';
export { createMemoryTunnelStore } from './memory/tunnels.js';
export { createSqliteTunnelStore } from './sqlite/tunnels.js';

// ── PostgreSQL (loaded on demand: only a palace with a postgres:// URL loads `pg` and these adapters) ──
export type { PostgresPorts, OpenPostgresOptions } from './postgres/open.js';

/** Opens a PostgreSQL palace and returns its storage ports (see `store/postgres/open.ts`). */
export async function openPostgresPalace(
  url: string,
  opts?: import('./postgres/open.js').OpenPostgresOptions,
): Promise<import('./postgres/open.js').PostgresPorts> {
  return (await import('./postgres/open.js')).openPostgresPalace(url, opts);
}

/** Drops the schema of a PostgreSQL palace with everything in it (benches and tests). */
export async function dropPostgresPalace(url: string): Promise<void> {
  return (await import('./postgres/admin.js')).dropPostgresPalace(url);
}
// ── team server (tokens, grants, audit, shared memories) ──────────────────────
export type { TeamAuditEntry, TeamGrant, TeamMemoryVersion, TeamRight, TeamStore, TeamToken } from './team-port.js';
export { TEAM_RIGHTS } from './team-port.js';
export { createMemoryTeamStore } from './memory/team.js';
export { createSqliteTeamStore } from './sqlite/team.js';
