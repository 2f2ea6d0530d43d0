/**
 * @module palace/palace
 * The palace facade: one object that opens the store in a Loci home and offers mining, search,
 * drawer access and status. The CLI, the MCP server and hooks all go through it.
 */
import { existsSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { sha256 } from '../core/hash.js';
import { createError } from '../core/errors.js';
import { ensureHome, homePaths, resolveHome } from '../core/home.js';
import { silentLogger, type Logger } from '../core/logger.js';
import { systemClock, type Clock } from '../core/clock.js';
import type { MineClaudeOptions, MineConvosOptions, MineConvosSummary, MineProjectOptions } from '../ingest/index.js';
import type { Drawer, DrawerFilter, DrawerInput, DrawerPatch, ListOptions, MemoryStore } from '../store/ports.js';
import { createSqliteStore, openDatabase, type SqliteDatabase } from '../store/index.js';
import { diaryRead, diaryWrite, type DiaryEntryInput } from './diary.js';
import { assertUnderRoots, checkName, checkOptionalName } from './names.js';
import { embedderFromSpec, setupVectors } from './vectors.js';
import type { PalaceGraph } from './graph.js';
import type { GraphBatch } from '../kg/index.js';
import type { Embedder } from '../embed/index.js';
import { searchHybrid, type HybridParams, type SearchOptions, type SearchResult } from '../search/index.js';

/** Options of {@link openPalace}. */
export interface OpenPalaceOptions {
  /** Palace folder. Default: `LOCI_HOME` or `~/.loci`. */
  home?: string;
  /** Use this store instead of the SQLite file in the home (e.g. `createMemoryStore()`). */
  store?: MemoryStore;
  /** Diagnostics sink. Default: silent. */
  logger?: Logger;
  /** Time source. Default: the system clock. */
  clock?: Clock;
  /** How long a write waits for another process, in ms. Default: `LOCI_BUSY_TIMEOUT_MS` or 15000. */
  busyTimeoutMs?: number;
  /**
   * The embedder for the vector signal; `null` turns vectors off. Default: from `LOCI_EMBEDDER`
   * (`hash` — the weights-free default —, `none`, `ollama:<model>`, `openai:<model>[@dims]`,
   * `onnx:<dir>`).
   */
  embedder?: Embedder | null;
  /** Fusion weights of hybrid search (defaults: `HYBRID_DEFAULTS`, each documented). */
  searchParams?: Partial<HybridParams>;
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
  bytes: number;
  schemaVersion: number;
  index: { lexical: string; vectors: string };
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
  close(): Promise<void>;
}

/**
 * Internal handles of an open palace. Storage stays behind the store port (`palace.store`): no
 * driver handle is exposed.
 */
interface PalaceInternals {
  logger: Logger;
  clock: Clock;
}

/** The secret redaction of the write paths, loaded on the first write (reading never needs it). */
const redacting = () => import('./redacting.js');

/** Opens (creating if needed) the palace in `opts.home`. */
export async function openPalace(opts: OpenPalaceOptions = {}): Promise<Palace & { internals: PalaceInternals }> {
  const home = resolveHome(opts.home);
  const logger = opts.logger ?? silentLogger;
  const clock = opts.clock ?? systemClock;
  let db: SqliteDatabase | null = null;
  let store = opts.store;
  const paths = homePaths(home);
  if (!store) {
    ensureHome(home);
    const envBusy = Number(process.env['LOCI_BUSY_TIMEOUT_MS']);
    const busyTimeoutMs = opts.busyTimeoutMs ?? (envBusy > 0 ? envBusy : 15_000);
    db = openDatabase(paths.db, { busyTimeoutMs });
    store = createSqliteStore(db, { path: paths.db, now: () => clock.now(), busyTimeoutMs });
  }
  await store.init();
  const st = store;
  const vectors = setupVectors({
    db,
    dbPath: paths.db,
    drawers: st,
    embedder: opts.embedder !== undefined ? opts.embedder : await embedderFromSpec(process.env['LOCI_EMBEDDER']),
    logger,
  });
  let graphSide: Promise<PalaceGraph> | undefined;
  /** Extraction during project mining: computed in the miner's workers, applied after each batch. */
  const graphExtractHook = async () => {
    const g = await getGraph();
    const { currentUserName } = await import('./graph.js');
    return {
      userName: currentUserName(),
      onWritten: (w: { id: string; batch: GraphBatch | null }[]) => g.applyWritten(w),
    };
  };
  const getGraph = () =>
    (graphSide ??= import('./graph.js').then(({ setupGraph }) => setupGraph({ db, drawers: st, clock, logger })));
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
    if (process.env['LOCI_KG_EXTRACT'] !== '0') await (await getGraph()).sync();
  };

  const palace: Palace & { internals: PalaceInternals } = {
    home,
    store: st,
    internals: { logger, clock },

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
      const extract = process.env['LOCI_KG_EXTRACT'] !== '0' ? await graphExtractHook() : undefined;
      if (mode === 'projects')
        summary = {
          ...(await mineProject(st, path, { logger, ...rest, ...(extract ? { extract } : {}) })),
          conversations: 0,
        };
      else if (mode === 'convos') summary = await mineConversations(st, path, { logger, ...rest });
      else if (mode === 'auto')
        summary = await mineAuto(st, path, { logger, ...rest, ...(extract ? { extract } : {}) });
      else throw createError('INVALID_ARGUMENT', { name: 'mode', value: mode, expected: 'auto, projects or convos' });
      await syncVectors(summary.warnings);
      return summary;
    },

    mineClaude: async (o = {}) => {
      const { mineClaudeCode } = await import('../ingest/index.js');
      const summary = await mineClaudeCode(st, { logger, ...o });
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
          lexiconCache: join(home, 'cache'),
          ...(opts.searchParams ? { params: opts.searchParams } : {}),
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
      // One GROUP BY gives both levels (wings are the sums of their rooms).
      const rooms: Record<string, Record<string, number>> = {};
      const totals = new Map<string, number>();
      for (const r of await st.countRooms()) {
        (rooms[r.wing] ??= {})[r.room] = r.count;
        totals.set(r.wing, (totals.get(r.wing) ?? 0) + r.count);
      }
      const wings = Object.fromEntries([...totals].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
      return {
        home,
        database: s.location,
        drawers: s.drawers,
        sources: s.sources,
        wings,
        rooms,
        bytes: s.bytes,
        schemaVersion: s.schemaVersion,
        index: { lexical: s.lexicalIndex, vectors: await vectors.describe() },
      };
    },

    async diaryWrite(raw) {
      const { input, redactions } = (await redacting()).redactDiaryInput(raw);
      const r = await diaryWrite(st, clock, input);
      await syncVectors();
      return { ...r, redactions };
    },
    embed: (o) => vectors.sync(o),
    graph: getGraph,
    diaryRead: (agent, o) => diaryRead(st, agent, o),

    close: () => st.close(),
  };
  return palace;
}
