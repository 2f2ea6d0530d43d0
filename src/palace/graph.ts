/**
 * @module palace/graph
 * Wires the temporal knowledge graph and tunnels to the palace: one graph in the palace file,
 * filled automatically from new drawers (weights-free extraction), and the room listing tunnels
 * traverse. Extraction follows a high-water mark on drawer `rid` (drawers get increasing rids), so
 * it is incremental and resumable; a compare-and-swap on the mark lets only one process extract a
 * given range.
 */
import type Database from 'better-sqlite3';
import { userInfo } from 'node:os';
import type { Logger } from '../core/logger.js';
import type { Clock } from '../core/clock.js';
import {
  createMemoryGraphStore,
  createMemoryTunnelStore,
  createSqliteGraphStore,
  createSqliteTunnelStore,
  extractFromDrawer,
  implicitTunnels,
  queryEntities,
  traverse,
  type GraphStore,
  type GraphBatch,
  type ImplicitLink,
  type TraversalStep,
  type TunnelStore,
} from '../kg/index.js';
import type { Drawer, MemoryStore } from '../store/ports.js';
import { redactingGraph } from './redacting.js';

/** The graph side of an open palace. */
export interface PalaceGraph {
  readonly graph: GraphStore;
  readonly tunnels: TunnelStore;
  /** Extracts entities and facts from drawers stored since the last call. Returns drawers read. */
  sync(): Promise<number>;
  /** Rooms reachable from `start` through shared room names and explicit tunnels. */
  traverse(start: { wing: string; room: string }, maxHops?: number): Promise<TraversalStep[]>;
  /**
   * Applies extraction results computed while mining (in the miner's workers) for drawers just
   * written, when they are exactly the drawers not yet extracted; otherwise leaves them to `sync`.
   */
  applyWritten(written: readonly { id: string; batch: GraphBatch | null }[]): Promise<void>;
  /** Drawer ids linked to the entities `query` names (facts and mentions), at most 1000. */
  drawersForQuery(query: string): Promise<ReadonlySet<string>>;
  /** Rooms of the same name in several wings (implicit tunnels). */
  implicitTunnels(): Promise<ImplicitLink[]>;
  /** Every room with its drawer count (for tunnels). */
  rooms(): Promise<{ wing: string; room: string; count: number }[]>;
}

const HWM_KEY = 'kg.extracted_rid';

/** The fields extraction reads from a drawer. */
type ExtractDrawer = Pick<Drawer, 'id' | 'wing' | 'room' | 'source' | 'contentDate' | 'metadata' | 'text'>;

/** The person "I" is in `user:` turns: `LOCI_USER_NAME`, else the OS user name. */
export function currentUserName(): string | null {
  const env = process.env['LOCI_USER_NAME'];
  if (env) return env;
  try {
    return userInfo().username || null;
  } catch {
    return null;
  }
}

/** Sets up the graph for a palace (SQLite when the palace has a database, else in memory). */
export async function setupGraph(opts: { db: Database.Database | null; drawers: MemoryStore; clock: Clock; logger: Logger }): Promise<PalaceGraph> {
  const { db, drawers, clock, logger } = opts;
  const graph = db ? createSqliteGraphStore(db, { clock }) : createMemoryGraphStore({ clock });
  const tunnels = db ? createSqliteTunnelStore(db) : createMemoryTunnelStore();
  await graph.init();
  let memoryHwm = new Set<string>();

  async function pendingSqlite(): Promise<{ from: number; to: number; rows: ExtractDrawer[] } | null> {
    const d = db!;
    const from = Number((d.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(HWM_KEY) as string | undefined) ?? 0);
    const rows = d
      .prepare('SELECT rid, id FROM drawers WHERE rid > ? ORDER BY rid LIMIT 500')
      .all(from) as { rid: number; id: string }[];
    if (rows.length === 0) return null;
    const to = rows[rows.length - 1]!.rid;
    // Claim the range: only the process whose compare-and-swap succeeds extracts it.
    const claimed = d
      .transaction(() => {
        const cur = Number((d.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(HWM_KEY) as string | undefined) ?? 0);
        if (cur !== from) return false;
        d.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(HWM_KEY, String(to));
        return true;
      })
      .immediate();
    if (!claimed) return { from, to: from, rows: [] };
    const lean = d
      .prepare('SELECT id, wing, room, source, content_date AS contentDate, metadata, text FROM drawers WHERE rid > ? AND rid <= ? ORDER BY rid')
      .all(from, to) as { id: string; wing: string; room: string; source: string | null; contentDate: string | null; metadata: string; text: string }[];
    return { from, to, rows: lean.map((r) => ({ ...r, metadata: JSON.parse(r.metadata) as Record<string, unknown> })) };
  }

  const extract = async (batch: readonly ExtractDrawer[]) => {
    const name = currentUserName();
    const results = [];
    for (const d of batch) {
      const speakers = Array.isArray(d.metadata['speakers']) ? (d.metadata['speakers'] as unknown[]).filter((x): x is string => typeof x === 'string') : [];
      const result = extractFromDrawer(
        { id: d.id, text: d.text, contentDate: d.contentDate, speakers, wing: d.wing, room: d.room, source: d.source, metadata: d.metadata },
        { userName: name },
      );
      if (result.entities.length || result.facts.length || result.invalidations.length) results.push(result);
    }
    // In drawer order, one transaction for the whole batch.
    if (results.length) await graph.applyMany(results, { lenient: true });
  };

  const rooms = () => drawers.countRooms();

  async function applyWritten(written: readonly { id: string; batch: GraphBatch | null }[]): Promise<void> {
    if (written.length === 0) return;
    const byId = new Map(written.map((w) => [w.id, w.batch]));
    try {
      if (!db) {
        const batches = written.filter((w) => !memoryHwm.has(w.id) && w.batch).map((w) => w.batch!);
        if (batches.length) await graph.applyMany(batches, { lenient: true });
        for (const w of written) memoryHwm.add(w.id);
        return;
      }
      const d = db;
      const claimed = d
        .transaction(() => {
          const from = Number((d.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(HWM_KEY) as string | undefined) ?? 0);
          const rows = d.prepare('SELECT rid, id FROM drawers WHERE rid > ? ORDER BY rid').all(from) as { rid: number; id: string }[];
          if (rows.length === 0 || rows.some((r) => !byId.has(r.id))) return null;
          d.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(HWM_KEY, String(rows[rows.length - 1]!.rid));
          return rows;
        })
        .immediate();
      if (!claimed) return;
      const batches = claimed.map((r) => byId.get(r.id)).filter((b): b is GraphBatch => !!b);
      if (batches.length) await graph.applyMany(batches, { lenient: true });
    } catch (e) {
      logger.log('warn', `knowledge-graph extraction stopped: ${(e as Error).message}`);
    }
  }

  return {
    graph: redactingGraph(graph),
    tunnels,
    rooms,
    applyWritten,
    async sync() {
      let n = 0;
      try {
        if (db) {
          for (;;) {
            const p = await pendingSqlite();
            if (!p) break;
            await extract(p.rows);
            n += p.rows.length;
          }
        } else {
          const all = (await drawers.list({}, { limit: Number.MAX_SAFE_INTEGER, order: 'source' })).drawers.filter((d) => !memoryHwm.has(d.id));
          await extract(all);
          memoryHwm = new Set([...memoryHwm, ...all.map((d) => d.id)]);
          n = all.length;
        }
      } catch (e) {
        logger.log('warn', `knowledge-graph extraction stopped: ${(e as Error).message}`);
      }
      return n;
    },
    traverse: (start, maxHops = 2) => traverse(start, maxHops, { rooms, tunnels }),
    implicitTunnels: async () => implicitTunnels(await rooms()),
    async drawersForQuery(query) {
      const entities = await queryEntities(graph, query);
      if (entities.length === 0) return new Set<string>();
      const links = await graph.drawersForEntities(entities.map((e) => e.id), { limit: 1000 });
      return new Set(links.map((l) => l.drawerId));
    },
  };
}
