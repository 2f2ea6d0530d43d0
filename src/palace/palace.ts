/**
 * @module palace/palace
 * The composition root: {@link createPalace} ties already-built ports (drawer store, graph tables,
 * tunnels, vectors, embedder, clock) and a plain {@link PalaceConfig} into the palace facade that
 * the CLI, the MCP server and hooks use. It reads no environment and knows no storage driver: the
 * SQLite-and-environment preset is `openPalace` (`open.ts`).
 */
import { existsSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { sha256 } from '../core/hash.js';
import { createError } from '../core/errors.js';
import { silentLogger, type Logger } from '../core/logger.js';
import { systemClock, type Clock } from '../core/clock.js';
import type { MineClaudeOptions, MineConvosOptions, MineConvosSummary, MineProjectOptions } from '../ingest/index.js';
import type { Drawer, DrawerFilter, DrawerInput, DrawerPatch, ListOptions, MemoryStore } from '../store/ports.js';
import type { VectorStore } from '../store/vector-port.js';
import type { GraphTables, TeamStore, TunnelStore } from '../store/index.js';
import type { DiaryEntryInput } from './diary.js';
import { assertUnderRoots, checkName, checkOptionalName, GRAPH_MARK_KEY } from './names.js';
import { setupVectors } from './vectors.js';
import type { PalaceGraph } from './graph.js';
import type { GraphBatch } from '../kg/index.js';
import type { Embedder } from '../embed/index.js';
import { searchHybrid, type HybridParams, type SearchOptions, type SearchResult } from '../search/index.js';

/**
 * Every setting of a palace, as plain values (no environment is read: the `openPalace` preset fills
 * them from `LOCI_*` variables, see `core/env.ts`).
 */
export interface PalaceConfig {
  /** The Loci home folder reported by `palace.home` and `status()`; nothing is created there. Default `''`. */
  home: string;
  /**
   * Extract entities and facts into the knowledge graph from new drawers (mining, added drawers,
   * diary). Default `true` (`LOCI_KG_EXTRACT=0` turns it off in the preset).
   */
  extractGraph: boolean;
  /**
   * Who "I" is in `user:` turns for graph extraction, or `null` for nobody. Default `null` (the
   * preset uses `LOCI_USER_NAME`, else the OS user name).
   */
  userName: string | null;
  /** Fusion weights of hybrid search, over `HYBRID_DEFAULTS` (each documented there). Default `{}`. */
  searchParams: Partial<HybridParams>;
}

/** The defaults of {@link PalaceConfig}. */
export const PALACE_CONFIG_DEFAULTS: Readonly<PalaceConfig> = Object.freeze({
  home: '',
  extractGraph: true,
  userName: null,
  searchParams: Object.freeze({}),
});

/**
 * A port given as a value, or as a function that builds it on first use (it may return a promise,
 * so that an adapter's modules load only when it is used).
 */
export type LazyPort<T> = T | (() => T | Promise<T>);

/** The ports and settings {@link createPalace} composes. Every port is already constructed. */
export interface PalaceDeps {
  /** Drawers, lexical index and source manifest. `createPalace` calls its `init()`; `close()` closes it. */
  store: MemoryStore;
  /**
   * The knowledge-graph tables (the graph rules of `kg` run over them). A function is called on the
   * graph's first use (`palace.graph()`, search's entity signal, extraction), so commands that never
   * touch the graph never build it.
   */
  graph: LazyPort<GraphTables>;
  /** Explicit tunnels between rooms; a function is called on the graph's first use. */
  tunnels: LazyPort<TunnelStore>;
  /**
   * The vector index, used when `embedder` is set. A function is called once at creation; when it
   * throws, vectors are reported unavailable (`status`, `--explain`) and search uses BM25 and
   * structure. Default `null` (no vector index: vectors are off).
   */
  vectors?: VectorStore | (() => VectorStore) | null;
  /** The embedder for the vector signal; `null` turns vectors off. Default `null`. */
  embedder?: Embedder | null;
  /** Time source for every stamp the palace writes (filed, mined, diary, graph). Default: the system clock. */
  clock?: Clock;
  /** Diagnostics sink. Default: silent. */
  logger?: Logger;
  /** Settings; missing ones take {@link PALACE_CONFIG_DEFAULTS}. */
  config?: Partial<PalaceConfig>;
  /**
   * The team server's storage (tokens, grants, audit, shared memories; `src/team`). A function is
   * called on first use (`internals.teamStore()`), so a palace that never serves creates nothing.
   * Default none (`teamStore()` then throws TEAM_STORE_MISSING).
   */
  team?: LazyPort<TeamStore>;
}

/** Options of `palace.mine`: those of the project miner and of the conversation miner. */
export interface MineOptions extends MineProjectOptions, MineConvosOptions {
  /**
   * `projects` mines files as documents; `convos` mines conversation transcripts and chat
   * logs; `auto` (default) decides per file from its content (`detectFormat` on the first 64 KiB
   * of files whose name can hold a conversation), in one walk.
   */
  mode?: 'auto' | 'projects' | 'convos';
  /**
   * Only a path that is one of these folders or inside one (symlinks resolved) may be mined;
   * anything else throws MINE_OUTSIDE_ROOTS. For callers acting for someone else (the MCP server).
   * Default: no restriction.
   */
  roots?: readonly string[];
}

/** What `status` reports. */
export interface PalaceStatus {
  home: string;
  database: string;
  drawers: number;
  sources: number;
  wings: Record<string, number>;
  rooms: Record<string, Record<string, number>>;
  /**
   * UTF-8 bytes of the drawers' stored text: in all, per wing and per room (the keys of `wings` and
   * `rooms`). Not the database's size on disk (`bytes`), which adds indexes, history and free pages.
   */
  textBytes: { total: number; wings: Record<string, number>; rooms: Record<string, Record<string, number>> };
  /** The database's size on disk. */
  bytes: number;
  schemaVersion: number;
  index: { lexical: string; vectors: string };
  /** The database engine and how it stores vectors, when the store reports it (PostgreSQL). */
  engine?: string;
}

/** An open palace. Call `close()` when done. */
export interface Palace {
  readonly home: string;
  readonly store: MemoryStore;
  /**
   * Mines a folder or file (incremental, idempotent): project files and/or conversations (see
   * {@link MineOptions.mode}). One merged summary; `redactions` and `conversations` are 0 in
   * `projects` mode.
   */
  mine(path: string, opts?: MineOptions): Promise<MineConvosSummary>;
  /**
   * Mines every Claude Code transcript under `$CLAUDE_CONFIG_DIR` or `~/.claude` (`loci mine
   * --claude`), one wing per project. Throws CLAUDE_DIR_NOT_FOUND when there is none.
   */
  mineClaude(opts?: MineClaudeOptions): Promise<MineConvosSummary>;
  /**
   * Removes drawers of project files that no longer exist (under `path` when given). Conversation
   * archives are kept: keeping what was said after the transcript is gone is their purpose.
   */
  sync(path?: string): Promise<{ sourcesChecked: number; sourcesRemoved: number; drawersRemoved: number }>;
  /** Searches the palace (see {@link SearchOptions}). */
  search(query: string, opts?: SearchOptions): Promise<SearchResult>;
  /** One drawer by id. */
  get(id: string): Promise<Drawer | undefined>;
  /** ±n drawers of the same source around `id`. */
  neighbours(id: string, n: number): Promise<Drawer[]>;
  /** Drawer counts per wing. */
  listWings(): Promise<Record<string, number>>;
  /** Drawer counts per room (in one wing or all). */
  listRooms(wing?: string): Promise<Record<string, number>>;
  /** A page of drawers. */
  listDrawers(filter?: DrawerFilter, opts?: ListOptions): Promise<{ drawers: Drawer[]; total: number }>;
  /**
   * Stores one drawer (content-addressed: adding the same text twice is a no-op). Secrets in its
   * text are replaced by `[REDACTED:<kind>]` first; `redactions` counts them.
   */
  addDrawer(input: DrawerInput): Promise<{ id: string; added: boolean; redactions: number }>;
  /** Changes a drawer in place. */
  updateDrawer(id: string, patch: DrawerPatch): Promise<Drawer | undefined>;
  /** Deletes a drawer. Returns false when it did not exist. */
  deleteDrawer(id: string): Promise<boolean>;
  /** Drawers with exactly the same text. */
  findDuplicates(text: string): Promise<Drawer[]>;
  /** Counts, size and index health. */
  status(): Promise<PalaceStatus>;
  /** Embeds every drawer without a vector (with the configured embedder). Returns how many. */
  embed(opts?: { onProgress?: (done: number, total: number) => void; signal?: AbortSignal }): Promise<number>;
  /** Writes an agent diary entry (a drawer in the `diary` wing), its secrets redacted (`redactions`). */
  diaryWrite(input: DiaryEntryInput): Promise<{ id: string; date: string; redactions: number }>;
  /** An agent's diary entries, newest first. */
  diaryRead(
    agent: string,
    opts?: { limit?: number; offset?: number; since?: string },
  ): Promise<{ entries: Drawer[]; total: number }>;
  /**
   * The temporal knowledge graph and tunnels of this palace (filled automatically from new drawers).
   * Loaded on first use.
   */
  graph(): Promise<PalaceGraph>;
  /**
   * The explicit tunnels between rooms (the same store as `graph().tunnels`), without setting up the
   * graph: recall reads the wings a project's tunnels reach on every prompt. Loaded on first use.
   * Optional: a palace without it (the team server's) gives its tunnels through `graph()`.
   */
  tunnels?(): Promise<TunnelStore>;
  close(): Promise<void>;
}

/**
 * Internal handles of an open palace. Storage stays behind the store port (`palace.store`): no
 * driver handle is exposed.
 */
export interface PalaceInternals {
  logger: Logger;
  clock: Clock;
  /** The team server's store, initialised on first call (`src/team` uses it; front ends never do). */
  teamStore(): Promise<TeamStore>;
}

/** The secret redaction of the write paths, loaded on the first write (reading never needs it). */
const redacting = () => import('./redacting.js');
/** The agent diary, loaded on its first use. */
const diary = () => import('./diary.js');

/**
 * Builds a palace from ports (the composition root). Reads no environment and opens nothing: for
 * the SQLite palace in a Loci home configured by the environment, use `openPalace`.
 */
export async function createPalace(deps: PalaceDeps): Promise<Palace & { internals: PalaceInternals }> {
  const config: PalaceConfig = { ...PALACE_CONFIG_DEFAULTS, ...deps.config };
  const { home, extractGraph, userName } = config;
  const logger = deps.logger ?? silentLogger;
  const clock = deps.clock ?? systemClock;
  const now = () => clock.now();
  const st = deps.store;
  await st.init();
  const vectors = setupVectors({
    store: deps.vectors ?? null,
    drawers: st,
    embedder: deps.embedder ?? null,
    logger,
    clock,
  });
  let graphSide: Promise<PalaceGraph> | undefined;
  let tunnelSide: Promise<TunnelStore> | undefined;
  let teamSide: Promise<TeamStore> | undefined;
  const teamStore = () =>
    (teamSide ??= (async () => {
      if (!deps.team) throw createError('TEAM_STORE_MISSING', {});
      const t = await (typeof deps.team === 'function' ? deps.team() : deps.team);
      await t.init();
      return t;
    })());
  /**
   * Extraction during project mining: computed in the miner's workers, applied after each batch.
   * The graph is set up on the first batch written, so re-mining an unchanged tree never loads it.
   */
  const graphExtractHook = () => ({
    userName,
    onWritten: async (w: { id: string; batch: GraphBatch | null }[]) => (await getGraph()).applyWritten(w),
  });
  /** True when drawers were written after the graph's high-water mark (a `sync` would extract them). */
  const graphBehind = async () => (await st.feedAfter(Number((await st.getMeta(GRAPH_MARK_KEY)) ?? 0), 1)).length > 0;
  const getTunnels = () =>
    (tunnelSide ??= (async () => (typeof deps.tunnels === 'function' ? deps.tunnels() : deps.tunnels))());
  const getGraph = () =>
    (graphSide ??= import('./graph.js').then(({ setupGraph }) =>
      setupGraph({ tables: deps.graph, tunnels: getTunnels, drawers: st, clock, logger, userName }),
    ));
  /**
   * Derived data after a write: embeds new drawers and extracts facts from them. A failing
   * embedder or extractor never fails the write (the data is re-derived later).
   */
  const syncVectors = async (warnings?: string[]) => {
    try {
      await vectors.sync();
    } catch (e) {
      const msg = `drawers were stored, but embedding them failed: ${(e as Error).message} — run \`loci embed\` later`;
      logger.log('warn', msg);
      warnings?.push(msg);
    }
    if (extractGraph && (graphSide || (await graphBehind()))) await (await getGraph()).sync();
  };

  const palace: Palace & { internals: PalaceInternals } = {
    home,
    store: st,
    internals: { logger, clock, teamStore },

    mine: async (path, o = {}) => {
      const { mode = 'auto', roots, ...given } = o;
      if (roots) assertUnderRoots(path, roots);
      if (!existsSync(path)) throw createError('PATH_NOT_FOUND', { path });
      const rest = {
        ...given,
        ...(given.wing !== undefined ? { wing: checkName('wing', given.wing) } : {}),
        ...(given.room !== undefined ? { room: checkName('room', given.room) } : {}),
      };
      let summary: MineConvosSummary;
      // The miners (walker, chunkers, parsers) load on first use: search and status never pay for them.
      const { mineAuto, mineConversations, mineProject } = await import('../ingest/index.js');
      const extract = extractGraph ? graphExtractHook() : undefined;
      if (mode === 'projects')
        summary = {
          ...(await mineProject(st, path, { logger, ...rest, ...(extract ? { extract } : {}) })),
          conversations: 0,
        };
      else if (mode === 'convos') summary = await mineConversations(st, path, { logger, now, ...rest });
      else if (mode === 'auto')
        summary = await mineAuto(st, path, { logger, now, ...rest, ...(extract ? { extract } : {}) });
      else throw createError('INVALID_ARGUMENT', { name: 'mode', value: mode, expected: 'auto, projects or convos' });
      await syncVectors(summary.warnings);
      return summary;
    },

    mineClaude: async (o = {}) => {
      const { mineClaudeCode } = await import('../ingest/index.js');
      const summary = await mineClaudeCode(st, { logger, now, ...o });
      await syncVectors(summary.warnings);
      return summary;
    },

    async sync(path) {
      const root = path ? resolve(path) : undefined;
      // Conversation archives outlive their transcripts (Claude Code deletes them after 30 days):
      // only project files are synced.
      const sources = (await st.listSources({ kind: 'project' })).filter(
        (s) => root === undefined || s.source === root || s.source.startsWith(root + sep),
      );
      let sourcesRemoved = 0;
      let drawersRemoved = 0;
      for (const s of sources) {
        if (s.source.includes('://') || s.source.includes('#')) continue; // URIs and virtual sources
        if (!existsSync(s.source)) {
          drawersRemoved += await st.removeSource(s.source);
          sourcesRemoved++;
        }
      }
      return { sourcesChecked: sources.length, sourcesRemoved, drawersRemoved };
    },

    search: async (query, o) => {
      const vectorSearcher = o?.mode === 'lexical' ? undefined : await vectors.searcher();
      return searchHybrid(
        {
          store: st,
          clock,
          vectors: vectorSearcher,
          vectorsUnavailable: vectorSearcher ? undefined : await vectors.unavailable(),
          entityDrawers: async (q) => (await getGraph()).drawersForQuery(q),
          params: config.searchParams,
        },
        query,
        o,
      );
    },
    get: (id) => st.get(id),
    neighbours: (id, n) => st.neighbours(id, n),
    listWings: () => st.countBy('wing'),
    listRooms: (wing) => st.countBy('room', wing ? { wing } : undefined),
    listDrawers: (filter, o) => st.list(filter, o),

    async addDrawer(given) {
      const named = {
        ...given,
        wing: checkName('wing', given.wing),
        room: checkName('room', given.room),
        hall: checkOptionalName('hall', given.hall),
      };
      const { input, redactions } = (await redacting()).redactDrawerInput(named);
      const r = await st.put([input]);
      if (r.added.length) await syncVectors();
      return { id: (r.added[0] ?? r.existing[0])!, added: r.added.length === 1, redactions };
    },
    async updateDrawer(id, given) {
      const named = { ...given };
      if (given.wing !== undefined) named.wing = checkName('wing', given.wing);
      if (given.room !== undefined) named.room = checkName('room', given.room);
      if (given.hall !== undefined) named.hall = checkOptionalName('hall', given.hall);
      const patch = (await redacting()).redactDrawerPatch(named);
      const d = await st.update(id, patch);
      if (d && (patch.text !== undefined || patch.indexExtra !== undefined)) {
        await vectors
          .refresh([id])
          .catch((e) => logger.log('warn', `re-embedding ${id} failed: ${(e as Error).message}`));
      }
      return d;
    },
    deleteDrawer: async (id) => (await st.delete([id])) === 1,
    async findDuplicates(text) {
      return st.findByContentHash(sha256(text));
    },

    async status() {
      const s = await st.stats();
      // One GROUP BY gives both levels, counts and sizes (wings are the sums of their rooms).
      const rooms: Record<string, Record<string, number>> = {};
      const roomBytes: Record<string, Record<string, number>> = {};
      const totals = new Map<string, { drawers: number; bytes: number }>();
      let textBytes = 0;
      for (const r of await st.roomSizes()) {
        (rooms[r.wing] ??= {})[r.room] = r.count;
        (roomBytes[r.wing] ??= {})[r.room] = r.bytes;
        const t = totals.get(r.wing) ?? { drawers: 0, bytes: 0 };
        t.drawers += r.count;
        t.bytes += r.bytes;
        totals.set(r.wing, t);
        textBytes += r.bytes;
      }
      const byCount = [...totals].sort((a, b) => b[1].drawers - a[1].drawers || (a[0] < b[0] ? -1 : 1));
      const wings = Object.fromEntries(byCount.map(([w, t]) => [w, t.drawers]));
      const wingBytes = Object.fromEntries(byCount.map(([w, t]) => [w, t.bytes]));
      return {
        home,
        database: s.location,
        drawers: s.drawers,
        sources: s.sources,
        wings,
        rooms,
        textBytes: { total: textBytes, wings: wingBytes, rooms: roomBytes },
        bytes: s.bytes,
        schemaVersion: s.schemaVersion,
        index: { lexical: s.lexicalIndex, vectors: await vectors.describe() },
        ...(s.engine ? { engine: s.engine } : {}),
      };
    },

    async diaryWrite(raw) {
      const { input, redactions } = (await redacting()).redactDiaryInput(raw);
      const r = await (await diary()).diaryWrite(st, clock, input);
      await syncVectors();
      return { ...r, redactions };
    },
    embed: (o) => vectors.sync(o),
    graph: getGraph,
    tunnels: getTunnels,
    diaryRead: async (agent, o) => (await diary()).diaryRead(st, agent, o),

    close: async () => {
      if (teamSide) await (await teamSide.catch(() => undefined))?.close();
      await st.close();
    },
  };
  return palace;
}
