/**
 * @module testing/vector-contract
 * The contract every {@link VectorStore} adapter must pass.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { MemoryStore } from '../store/ports.js';
import type { VectorStore } from '../store/vector-port.js';

/** Options of {@link runVectorContract}. */
interface VectorContractOptions {
  name: string;
  /** A fresh drawer store and its vector store. */
  make: () => Promise<{ drawers: MemoryStore; vectors: VectorStore; close: () => Promise<void> }>;
}

function unit(...xs: number[]): Float32Array {
  const v = Float32Array.from(xs);
  const n = Math.hypot(...xs);
  return v.map((x) => x / n);
}

/** Registers the contract tests for one adapter. */
export function runVectorContract(opts: VectorContractOptions): void {
  describe(`vector contract: ${opts.name}`, () => {
    const fresh = async () => {
      const s = await opts.make();
      const { added } = await s.drawers.put([
        { wing: 'a', room: 'r', text: 'one' },
        { wing: 'a', room: 'r', text: 'two' },
        { wing: 'b', room: 'r', text: 'three' },
      ]);
      return { ...s, ids: added };
    };

    test('a first model needs no rebuild; every drawer is pending', async () => {
      const s = await fresh();
      try {
        assert.deepEqual(await s.vectors.useModel('m1', 3), { rebuild: false, previous: null });
        assert.equal(await s.vectors.pendingCount(), 3);
        const p = await s.vectors.pending(2);
        assert.deepEqual(
          p.map((x) => x.text),
          ['one', 'two'],
        );
        assert.equal((await s.vectors.info())?.model, 'm1');
      } finally {
        await s.close();
      }
    });

    test('upsert, knn by cosine, wing filter, pending shrinks', async () => {
      const s = await fresh();
      try {
        await s.vectors.useModel('m1', 3);
        await s.vectors.upsert([
          { id: s.ids[0]!, vector: unit(1, 0, 0) },
          { id: s.ids[1]!, vector: unit(0.7, 0.7, 0) },
          { id: s.ids[2]!, vector: unit(0, 0, 1) },
          { id: 'unknown', vector: unit(1, 1, 1) },
        ]);
        assert.equal(await s.vectors.pendingCount(), 0);
        assert.equal((await s.vectors.info())?.count, 3);
        const hits = await s.vectors.knn(unit(1, 0.1, 0), 2);
        assert.deepEqual(
          hits.map((h) => h.id),
          [s.ids[0], s.ids[1]],
        );
        assert.ok(hits[0]!.score > 0.99 && hits[0]!.score <= 1.0001);
        const inB = await s.vectors.knn(unit(1, 0, 0), 5, ['b']);
        assert.deepEqual(
          inB.map((h) => h.id),
          [s.ids[2]],
        );
        const { added } = await s.drawers.put([{ wing: 'a', room: 'r', text: 'four' }]);
        assert.deepEqual(
          (await s.vectors.pending(10)).map((p) => p.id),
          added,
        );
      } finally {
        await s.close();
      }
    });

    test('remove forgets; prune drops vectors of deleted drawers; a new model rebuilds', async () => {
      const s = await fresh();
      try {
        await s.vectors.useModel('m1', 3);
        await s.vectors.upsert(s.ids.map((id, i) => ({ id, vector: unit(i + 1, 1, 0) })));
        await s.vectors.remove([s.ids[0]!]);
        assert.equal(
          (await s.vectors.knn(unit(1, 1, 0), 5)).some((h) => h.id === s.ids[0]),
          false,
        );
        await s.drawers.delete([s.ids[1]!]);
        assert.equal(await s.vectors.prune(), 1);
        assert.equal((await s.vectors.info())?.count, 1);
        assert.deepEqual(await s.vectors.useModel('m2', 4), { rebuild: true, previous: 'm1' });
        assert.equal((await s.vectors.info())?.count, 0);
        assert.equal(await s.vectors.pendingCount(), 2);
        await assert.rejects(s.vectors.upsert([{ id: s.ids[2]!, vector: unit(1, 0, 0) }]), /vector length/);
      } finally {
        await s.close();
      }
    });
  });
}
