/**
 * @module store/postgres/open
 * Opens a PostgreSQL palace: checks the URL, connects (a small pool for the asynchronous ports, a
 * blocking connection for the graph on first use), migrates the schema under an advisory lock,
 * detects pgvector, and returns every storage port over it. Loaded by dynamic `import()` only.
 */
import type { Clock } from '../../core/clock.js';
import type { GraphTables } from '../graph-port.js';
import type { MemoryStore } from '../ports.js';
import type { TeamStore } from '../team-port.js';
import type { TunnelStore } from '../tunnel-port.js';
import type { VectorStore } from '../vector-port.js';
import { mapPgError, openPool, parseDatabaseUrl, type PgTarget } from './connect.js';
import { createPostgresStore } from './drawer-store.js';
import { createPostgresGraphTables } from './graph.js';
import { migrate } from './migrations.js';
import { openSyncConnection } from './sync-connection.js';
import { createPostgresTunnelStore } from './tunnels.js';
import { createPostgresTeamStore } from './team.js';
import { createPostgresVectorStore, detectVectorMode } from './vector-store.js';

/** The storage ports of one PostgreSQL palace. */
export interface PostgresPorts {
  store: MemoryStore;
  /** Builds the graph tables (opens their blocking connection on first use; closed with the store). */
  graph: () => GraphTables;
  tunnels: TunnelStore;
  vectors: () => VectorStore;
  /** The team server's store (its tables are created by `init()`, on first use). */
  team: TeamStore;
  /** The URL with its password hidden, and the schema. */
  target: PgTarget;
  /** The server version and vector mode, as `status` reports them. */
  engine: string;
}

/** Options of {@link openPostgresPalace}. */
export interface OpenPostgresOptions {
  /** Clock for filing and tunnel stamps. Default: the system clock. */
  clock?: Clock;
  /** Connections in the pool. Default 4. */
  poolSize?: number;
  /** How long a query waits for a free connection (and a new one to open), ms. Default 10000. */
  poolWaitMs?: number;
}

/**
 * Opens the palace at `url` (`postgres://user:pw@host:port/db[?schema=name]`). Throws
 * PG_URL_INVALID, PG_UNREACHABLE, DB_TOO_NEW or MODULE_MISSING.
 */
export async function openPostgresPalace(url: string, opts: OpenPostgresOptions = {}): Promise<PostgresPorts> {
  const target = parseDatabaseUrl(url);
  const pool = await openPool(target, opts.poolSize ?? 4, opts.poolWaitMs ?? 10_000);
  let engine: string;
  try {
    await migrate(pool, target);
    const mode = await detectVectorMode(pool);
    engine = `PostgreSQL ${mode.server}; vectors: ${mode.describe}`;
  } catch (e) {
    await pool.end().catch(() => {});
    throw mapPgError(e, target);
  }
  const graphs: GraphTables[] = [];
  const store = createPostgresStore(pool, target, {
    ...(opts.clock ? { now: () => opts.clock!.now() } : {}),
    engine,
  });
  const closeStore = store.close.bind(store);
  store.close = async () => {
    for (const g of graphs.splice(0)) g.close();
    await closeStore();
  };
  return {
    store,
    graph: () => {
      const g = createPostgresGraphTables(() => openSyncConnection(target));
      graphs.push(g);
      return g;
    },
    tunnels: createPostgresTunnelStore(pool, target, opts.clock ? { clock: opts.clock } : {}),
    vectors: () => createPostgresVectorStore(pool, target),
    team: createPostgresTeamStore(pool, target),
    target,
    engine,
  };
}
