/**
 * @module palace/graph
 * Wires the temporal knowledge graph and tunnels to the palace: one graph in the palace file,
 * filled automatically from new drawers (weights-free extraction), and the room listing tunnels
 * traverse. Extraction follows a high-water mark on the drawer store's feed (increasing positions,
 * never reused), so it is incremental and resumable; a compare-and-swap on the mark (a meta value of
 * the store) lets only one process extract a given range.
 */
import type { Logger } from '../core/logger.js';
import type { Clock } from '../core/clock.js';
import {
  createGraphStore,
  extractFromDrawer,
  implicitTunnels,
  queryEntities,
  traverse,
  type GraphStore,
  type GraphBatch,
  type GraphTables,
  type ImplicitLink,
  type TraversalStep,
  type TunnelStore,
} from '../kg/index.js';
import type { FedDrawer, MemoryStore } from '../store/ports.js';
import { redactingGraph } from './redacting.js';
import { GRAPH_MARK_KEY } from './names.js';

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

const HWM_KEY = GRAPH_MARK_KEY;

/** The fields extraction reads from a drawer. */
type ExtractDrawer = FedDrawer;

/** Sets up the graph for a palace over the given graph tables and tunnel store (ports, or functions building them). */
export async function setupGraph(opts: {
  tables: GraphTables | (() => GraphTables | Promise<GraphTables>);
  tunnels: TunnelStore | (() => TunnelStore | Promise<TunnelStore>);
  drawers: MemoryStore;
  clock: Clock;
  logger: Logger;
  /** Who "I" is in `user:` turns, or null. */
  userName: string | null;
}): Promise<PalaceGraph> {
  const { drawers, clock, logger } = opts;
  const tables = typeof opts.tables === 'function' ? await opts.tables() : opts.tables;
  const graph = createGraphStore(tables, { clock });
  const tunnels = typeof opts.tunnels === 'function' ? await opts.tunnels() : opts.tunnels;
  await graph.init();

  const mark = async (): Promise<string | undefined> => drawers.getMeta(HWM_KEY);

  /** The next range of at most 500 drawers to extract, claimed by compare-and-swap on the mark. */
  async function pending(): Promise<{ rows: ExtractDrawer[] } | null> {
    const cur = await mark();
    const from = Number(cur ?? 0);
    const next = await drawers.feedAfter(from, 500);
    if (next.length === 0) return null;
    const to = next[next.length - 1]!.seq;
    // Claim the range: only the process whose compare-and-swap succeeds extracts it.
    if (!(await drawers.casMeta(HWM_KEY, cur, String(to)))) return { rows: [] };
    return { rows: await drawers.feedRange(from, to) };
  }

  const extract = async (batch: readonly ExtractDrawer[]) => {
    const name = opts.userName;
    const results = [];
    for (const d of batch) {
      const speakers = Array.isArray(d.metadata['speakers'])
        ? (d.metadata['speakers'] as unknown[]).filter((x): x is string => typeof x === 'string')
        : [];
      const result = extractFromDrawer(
        {
          id: d.id,
          text: d.text,
          contentDate: d.contentDate,
          speakers,
          wing: d.wing,
          room: d.room,
          source: d.source,
          metadata: d.metadata,
        },
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
      const cur = await mark();
      const rows = await drawers.feedAfter(Number(cur ?? 0));
      if (rows.length === 0 || rows.some((r) => !byId.has(r.id))) return;
      if (!(await drawers.casMeta(HWM_KEY, cur, String(rows[rows.length - 1]!.seq)))) return;
      const batches = rows.map((r) => byId.get(r.id)).filter((b): b is GraphBatch => !!b);
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
        for (;;) {
          const p = await pending();
          if (!p) break;
          await extract(p.rows);
          n += p.rows.length;
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
      const links = await graph.drawersForEntities(
        entities.map((e) => e.id),
        { limit: 1000 },
      );
      return new Set(links.map((l) => l.drawerId));
    },
  };
}
