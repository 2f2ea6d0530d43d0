/**
 * @module store/memory/vector-store
 * In-memory reference adapter of the vector port (exact search), over an in-memory drawer store.
 */
import { createError } from '../../core/errors.js';
import type { MemoryStore } from '../ports.js';
import type { PendingDrawer, VectorStore } from '../vector-port.js';

/** Creates an in-memory vector store that follows the drawers of `drawers`. */
export function createMemoryVectorStore(drawers: MemoryStore): VectorStore {
  let model: { model: string; dims: number } | null = null;
  const vecs = new Map<string, { v: Float32Array; wing: string }>();
  const embedded = new Set<string>();
  const all = async () => (await drawers.list({}, { limit: Number.MAX_SAFE_INTEGER, order: 'source' })).drawers;
  return {
    kind: 'memory',
    async useModel(m, dims) {
      const previous = model?.model ?? null;
      const rebuild = previous !== null && (previous !== m || model!.dims !== dims);
      if (rebuild) {
        vecs.clear();
        embedded.clear();
      }
      model = { model: m, dims };
      return { rebuild, previous };
    },
    async info() {
      return model ? { ...model, count: vecs.size } : null;
    },
    async pending(limit) {
      const out: PendingDrawer[] = [];
      for (const d of await all()) {
        if (out.length >= limit) break;
        if (!embedded.has(d.id)) out.push({ id: d.id, text: d.text, indexExtra: null, wing: d.wing });
      }
      return out;
    },
    async pendingCount() {
      return (await all()).filter((d) => !embedded.has(d.id)).length;
    },
    async upsert(items) {
      if (!model)
        throw createError('INVALID_ARGUMENT', {
          name: 'vector model',
          value: null,
          expected: 'useModel() before upsert()',
        });
      for (const it of items) {
        if (it.vector.length !== model.dims) {
          throw createError('INVALID_ARGUMENT', {
            name: 'vector length',
            value: it.vector.length,
            expected: `${model.dims} (model ${model.model})`,
          });
        }
      }
      const known = new Map((await drawers.getMany(items.map((i) => i.id))).map((d) => [d.id, d.wing]));
      for (const it of items) {
        const wing = known.get(it.id);
        if (wing === undefined) continue;
        vecs.set(it.id, { v: Float32Array.from(it.vector), wing });
        embedded.add(it.id);
      }
    },
    async remove(ids) {
      for (const id of ids) vecs.delete(id);
    },
    async knn(vector, k, wings) {
      const out: { id: string; score: number }[] = [];
      for (const [id, { v, wing }] of vecs) {
        if (wings && !wings.includes(wing)) continue;
        let s = 0;
        for (let i = 0; i < v.length; i++) s += v[i]! * vector[i]!;
        out.push({ id, score: s });
      }
      return out.sort((a, b) => b.score - a.score).slice(0, k);
    },
    async prune() {
      const alive = new Set((await all()).map((d) => d.id));
      let n = 0;
      for (const id of [...vecs.keys()]) {
        if (!alive.has(id)) {
          vecs.delete(id);
          n++;
        }
      }
      return n;
    },
  };
}
