/**
 * @module palace/vectors
 * Wires an embedder and a vector index (ports, given) to the palace: keeps the index in step with
 * the drawers and answers the vector signal of hybrid search. Knows no driver: the preset
 * (`open.ts`) opens the SQLite index and picks the embedder from `LOCI_EMBEDDER`. Any failure to
 * load or use vectors degrades search to BM25 + structure and is
 * reported, never thrown at the user.
 */
import { createError, isLociError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { Clock } from '../core/clock.js';
import type { Embedder } from '../embed/index.js';
import type { VectorSearcher } from '../search/index.js';
import type { DrawerFilter, MemoryStore } from '../store/ports.js';
import type { VectorStore } from '../store/vector-port.js';

/** The vector side of an open palace. */
interface PalaceVectors {
  /** Null when vectors are off or unavailable; see `unavailable`. */
  readonly store: VectorStore | null;
  readonly embedder: Embedder | null;
  /** Why vector search is not available (for `status` and `--explain`), or undefined. */
  unavailable(): Promise<string | undefined>;
  /** Embeds every drawer that has no vector yet. Returns how many were embedded. */
  sync(opts?: { onProgress?: (done: number, total: number) => void; signal?: AbortSignal }): Promise<number>;
  /** Re-embeds specific drawers (after their text changed). */
  refresh(ids: readonly string[]): Promise<void>;
  /** The searcher for hybrid search, or undefined when vectors cannot be used now. */
  searcher(): Promise<VectorSearcher | undefined>;
  /** Status line: model, count, pending. */
  describe(): Promise<string>;
}

/** Sets up vectors for a palace. Never throws: problems are reported through `unavailable()`. */
export function setupVectors(opts: {
  /** The vector index, or a function that builds it (called once, here; a throw makes vectors unavailable). */
  store: VectorStore | (() => VectorStore) | null;
  drawers: MemoryStore;
  embedder: Embedder | null;
  logger: Logger;
  clock: Clock;
}): PalaceVectors {
  const { embedder, logger, clock } = opts;
  let store: VectorStore | null = null;
  let problem: string | undefined;
  if (!embedder) problem = 'off (set LOCI_EMBEDDER to hash, ollama:<model>, openai:<model> or onnx:<dir>)';
  else if (!opts.store) problem = 'no vector index';
  else {
    try {
      store = typeof opts.store === 'function' ? opts.store() : opts.store;
    } catch (e) {
      problem = `vector index unavailable: ${(e as Error).message}`;
      logger.log('warn', problem);
    }
  }

  let ready: Promise<boolean> | undefined;
  let checked: { at: number; reason: string | undefined } | undefined;
  const ensureModel = (): Promise<boolean> =>
    (ready ??= (async () => {
      if (!store || !embedder) return false;
      try {
        await embedder.init();
        const r = await store.useModel(embedder.id, embedder.dims);
        if (r.rebuild) logger.log('info', `embedder changed from ${r.previous} to ${embedder.id}: rebuilding vectors`);
        return true;
      } catch (e) {
        problem = `embedder ${embedder.id} unavailable: ${(e as Error).message}`;
        logger.log('warn', problem);
        return false;
      }
    })());

  const v: PalaceVectors = {
    store,
    embedder,
    async unavailable() {
      if (problem) return problem;
      if (!store || !embedder) return 'vectors are off';
      // Asked on every search: the answer (which counts vectors) is kept for a few seconds.
      if (checked && clock.now() - checked.at < 10_000) return checked.reason;
      const info = await store.info();
      const reason = !info
        ? 'no vectors yet — run `loci embed`'
        : info.model !== embedder.id
          ? `vectors were built with ${info.model}, the configured embedder is ${embedder.id} — run \`loci embed\``
          : undefined;
      checked = { at: clock.now(), reason };
      return reason;
    },
    async sync(o = {}) {
      checked = undefined;
      if (!(await ensureModel())) return 0;
      const total = await store!.pendingCount();
      let done = 0;
      for (;;) {
        if (o.signal?.aborted) throw createError('ABORTED', { operation: 'embedding' });
        const batch = await store!.pending(64);
        if (batch.length === 0) break;
        const vecs = await embedder!.embed(
          batch.map((d) => (d.indexExtra ? `${d.text}\n${d.indexExtra}` : d.text)),
          { kind: 'document' },
        );
        await store!.upsert(batch.map((d, i) => ({ id: d.id, vector: vecs[i]! })));
        done += batch.length;
        o.onProgress?.(done, total);
      }
      return done;
    },
    async refresh(ids) {
      if (!ids.length || !(await ensureModel())) return;
      const drawers = await opts.drawers.getMany(ids);
      const vecs = await embedder!.embed(
        drawers.map((d) => d.text),
        { kind: 'document' },
      );
      await store!.remove(ids);
      await store!.upsert(drawers.map((d, i) => ({ id: d.id, vector: vecs[i]! })));
    },
    async searcher() {
      if (!store || !embedder || (await v.unavailable())) return undefined;
      const s = store;
      const e = embedder;
      return {
        id: e.id,
        async knn(query: string, filter: DrawerFilter | undefined, k: number) {
          try {
            const [q] = await e.embed([query], { kind: 'query' });
            if (!q || q.every((x) => x === 0)) return [];
            const wings =
              filter?.wing === undefined ? undefined : typeof filter.wing === 'string' ? [filter.wing] : filter.wing;
            return await s.knn(q, k, wings);
          } catch (err) {
            logger.log('warn', `vector search failed, using BM25 only: ${(err as Error).message}`);
            if (!isLociError(err)) throw err;
            return [];
          }
        },
      };
    },
    async describe() {
      const u = await v.unavailable();
      if (u) return u;
      const info = await store!.info();
      const pending = await store!.pendingCount();
      const behind = pending ? `, ${pending} drawers not embedded yet (run \`loci embed\`)` : '';
      return `${info!.model}, ${info!.count} vectors${behind}`;
    },
  };
  return v;
}
