/**
 * @module palace/open
 * The SQLite-and-environment preset of the composition root: {@link openPalace} reads the settings
 * (`core/env.ts`), opens the palace database in the Loci home with the SQLite adapters of
 * `src/store/` and hands them to `createPalace`. With a `store` given it uses the in-memory graph,
 * tunnel and vector adapters instead; with a PostgreSQL URL (`databaseUrl`, `LOCI_DATABASE_URL`) the
 * PostgreSQL adapters (loaded on demand).
 */
import { accessSync, constants, mkdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import { createError } from '../core/errors.js';
import { readSettings, processEnv, resolveHome, homePaths, type Env } from '../core/env.js';
import type { Logger } from '../core/logger.js';
import { systemClock, type Clock } from '../core/clock.js';
import type { MemoryStore } from '../store/ports.js';
import { createSqliteStore, openDatabase } from '../store/drawers.js';
import type { Embedder } from '../embed/index.js';
import type { HybridParams } from '../search/index.js';
import { createPalace, type Palace, type PalaceDeps, type PalaceInternals } from './palace.js';

/** Options of {@link openPalace}. */
export interface OpenPalaceOptions {
  /** Palace folder. Default: `LOCI_HOME` or `~/.loci`. */
  home?: string;
  /** Use this store instead of the SQLite file in the home (e.g. `createMemoryStore()`). */
  store?: MemoryStore;
  /**
   * A PostgreSQL palace (`postgres://user[:pw]@host[:port]/db[?schema=name]`) instead of the SQLite
   * file in the home. Default: `LOCI_DATABASE_URL`, else SQLite.
   */
  databaseUrl?: string;
  /** Diagnostics sink. Default: silent. */
  logger?: Logger;
  /** Time source. Default: the system clock. */
  clock?: Clock;
  /** How long a write waits for another process, in ms. Default: `LOCI_BUSY_TIMEOUT_MS` or 15000. */
  busyTimeoutMs?: number;
  /**
   * A PostgreSQL palace's connections and how long a query waits for a free one, ms (then PG_BUSY).
   * Default: `LOCI_PG_POOL` or 4 connections, 10000 ms.
   */
  pgPool?: { size?: number; waitMs?: number };
  /**
   * The embedder for the vector signal; `null` turns vectors off. Default: from `LOCI_EMBEDDER`
   * (`hash` — the weights-free default —, `none`, `ollama:<model>`, `openai:<model>[@dims]`,
   * `onnx:<dir>`).
   */
  embedder?: Embedder | null;
  /** Fusion weights of hybrid search (defaults: `HYBRID_DEFAULTS`, each documented). */
  searchParams?: Partial<HybridParams>;
  /**
   * The environment the settings are read from (see `core/env.ts`). Default: the process's. A front
   * end passes the one it was given, so that an in-process run never reads the test process's.
   */
  env?: Env;
}

/**
 * The embedder named by `spec` (`LOCI_EMBEDDER`): `none` (default), `hash` (weights-free),
 * `ollama:<model>`, `openai:<model>[@dims]`, `onnx:<model dir>`; keys and the other embedder
 * settings come from `env`.
 *
 * Why vectors are off by default: the only embedder that needs no weights and no download (the
 * hash embedder) lowered every LoCoMo metric at every fusion weight we measured (BENCHMARKS.md),
 * and exact vector search costs ~60 ms at 150K drawers. It stays available for typo-tolerant
 * matching; a sentence-embedding model is the way to add meaning.
 *
 * The embedders load only when one is named, so a palace without vectors starts without them.
 */
async function embedderFromSpec(spec: string | undefined, env: Env): Promise<Embedder | null> {
  const s = (spec ?? 'none').trim();
  if (s === '' || s === 'none' || s === 'off') return null;
  const embed = await import('../embed/index.js');
  if (s === 'hash') return embed.createHashEmbedder();
  return embed.createEmbedder(embed.parseEmbedderSpec(s, env), { env });
}

/** The whole store door (graph, tunnel, vector and in-memory adapters), loaded when a palace needs it. */
const storeDoor = () => import('../store/index.js');

/** Creates a Loci home folder (mode 0700) if needed and checks that it is writable. Idempotent. */
function ensureHome(home: string): void {
  try {
    mkdirSync(home, { recursive: true, mode: 0o700 });
    accessSync(home, constants.W_OK | constants.R_OK);
  } catch (e) {
    throw createError('HOME_UNAVAILABLE', { path: home, reason: (e as Error).message }, e);
  }
}

/** The OS user name, or null. */
function osUserName(): string | null {
  try {
    return userInfo().username || null;
  } catch {
    return null;
  }
}

/** Opens (creating if needed) the palace in `opts.home`, configured by the environment. */
export async function openPalace(opts: OpenPalaceOptions = {}): Promise<Palace & { internals: PalaceInternals }> {
  const env = opts.env ?? processEnv();
  const settings = readSettings(env);
  const home = resolveHome(opts.home, env);
  const clock = opts.clock ?? systemClock;
  const embedder = opts.embedder !== undefined ? opts.embedder : await embedderFromSpec(settings.embedder, env);
  let ports: Pick<PalaceDeps, 'store' | 'graph' | 'tunnels' | 'vectors' | 'team'>;
  const databaseUrl = opts.store ? undefined : (opts.databaseUrl ?? settings.databaseUrl);
  if (databaseUrl) {
    const pg = await (
      await storeDoor()
    ).openPostgresPalace(databaseUrl, {
      clock,
      poolSize: settings.pgPoolSize ?? opts.pgPool?.size ?? 4,
      poolWaitMs: opts.pgPool?.waitMs ?? 10_000,
    });
    ports = { store: pg.store, graph: pg.graph, tunnels: pg.tunnels, vectors: pg.vectors, team: pg.team };
  } else if (opts.store) {
    const store = opts.store;
    const door = await storeDoor();
    ports = {
      store,
      graph: () => door.createMemoryGraphTables(),
      tunnels: () => door.createMemoryTunnelStore({ clock }),
      vectors: () => door.createMemoryVectorStore(store),
      team: () => door.createMemoryTeamStore(),
    };
  } else {
    ensureHome(home);
    const path = homePaths(home).db;
    const busyTimeoutMs = opts.busyTimeoutMs ?? settings.busyTimeoutMs ?? 15_000;
    const db = openDatabase(path, { busyTimeoutMs });
    ports = {
      store: createSqliteStore(db, { path, now: () => clock.now(), busyTimeoutMs }),
      // The graph, tunnel and vector adapters load on first use (vectors: only with an embedder).
      graph: async () => (await storeDoor()).createSqliteGraphTables(db),
      tunnels: async () => (await storeDoor()).createSqliteTunnelStore(db, { clock }),
      team: async () => (await storeDoor()).createSqliteTeamStore(db),
      vectors: null,
    };
    if (embedder) {
      const door = await storeDoor();
      ports.vectors = () => {
        door.loadSqliteVec(db);
        return door.createSqliteVectorStore(db, path);
      };
    }
  }
  return createPalace({
    ...ports,
    embedder,
    clock,
    ...(opts.logger ? { logger: opts.logger } : {}),
    config: {
      home,
      extractGraph: settings.extractGraph,
      userName: settings.userName ?? osUserName(),
      ...(opts.searchParams ? { searchParams: opts.searchParams } : {}),
    },
  });
}
