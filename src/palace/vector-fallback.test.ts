/**
 * @module palace/vector-fallback.test
 * The vector signal as the palace wires it, on the in-memory adapters: with an embedder the dense
 * signal is fused and traced; without one search is BM25 + structure and says why (`fallback`);
 * an embedder that fails at query time with a `LociError` (a dead embedding server) degrades that
 * search to the same BM25 + structure ranking and logs a warning, never failing the search; a bug
 * (any other error) is not hidden.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixedClock } from '../core/clock.js';
import { createError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { createHashEmbedder, type Embedder } from '../embed/index.js';
import {
  createMemoryGraphTables,
  createMemoryStore,
  createMemoryTunnelStore,
  createMemoryVectorStore,
} from '../store/index.js';
import { createPalace } from './palace.js';

const DRAWERS = [
  { wing: 'w', room: 'infra', text: 'the redis limiter keeps tokens per user' },
  { wing: 'w', room: 'infra', text: 'rate limiting with redis: token buckets per account' },
  { wing: 'w', room: 'billing', text: 'the invoice worker retries three times' },
];
const QUERY = 'redis limiter tokens';

/** The hash embedder, except that query embeddings throw `fail()` once `broken.on` is set. */
function breakable(fail: () => Error): { embedder: Embedder; broken: { on: boolean } } {
  const inner = createHashEmbedder();
  const broken = { on: false };
  return {
    broken,
    embedder: {
      id: inner.id,
      get dims() {
        return inner.dims;
      },
      init: (o) => inner.init(o),
      embed: async (texts, o) => {
        if (broken.on && o?.kind === 'query') throw fail();
        return inner.embed(texts, o);
      },
    },
  };
}

async function palaceWith(embedder: Embedder | null, logger?: Logger) {
  const clock = fixedClock(Date.UTC(2026, 11, 1, 12));
  const store = createMemoryStore({ now: () => clock.now() });
  const palace = await createPalace({
    store,
    graph: createMemoryGraphTables(),
    tunnels: () => createMemoryTunnelStore({ clock }),
    vectors: embedder ? createMemoryVectorStore(store) : null,
    embedder,
    clock,
    ...(logger ? { logger } : {}),
    config: { home: '/nowhere/loci', extractGraph: false },
  });
  for (const d of DRAWERS) await palace.addDrawer(d);
  return palace;
}

const sum = (h: { explain?: { signals: Record<string, { contribution: number }> } }) =>
  Object.values(h.explain!.signals).reduce((a, s) => a + s.contribution, 0);
const texts = (r: { hits: { text: string }[] }) => r.hits.map((h) => h.text);

test('embedder present: the vector signal is fused, traced and adds up to the score', async () => {
  const palace = await palaceWith(createHashEmbedder());
  try {
    const r = await palace.search(QUERY, { explain: true });
    assert.ok(r.signals.includes('vector'), r.signals.join(','));
    assert.equal(r.fallback, undefined);
    assert.ok(r.hits[0]!.explain!.signals['vector']!.contribution > 0);
    for (const h of r.hits) assert.ok(Math.abs(sum(h) - h.score) < 1e-9, `explain of ${h.id} sums to its score`);
  } finally {
    await palace.close();
  }
});

test('embedder absent: BM25 + structure, and the reason is reported', async () => {
  const palace = await palaceWith(null);
  try {
    const r = await palace.search(QUERY, { explain: true });
    assert.ok(!r.signals.includes('vector'));
    assert.match(r.fallback ?? '', /LOCI_EMBEDDER/);
    assert.ok(r.hits.every((h) => !('vector' in h.explain!.signals)));
    for (const h of r.hits) assert.ok(Math.abs(sum(h) - h.score) < 1e-9);
  } finally {
    await palace.close();
  }
});

test('embedder failing at query time: the search degrades to the ranking without vectors and warns', async () => {
  const warnings: string[] = [];
  const logger: Logger = { log: (level, message) => void (level === 'warn' && warnings.push(message)) };
  const { embedder, broken } = breakable(() =>
    createError('PROVIDER_FAILED', { provider: 'test', url: 'http://127.0.0.1:9', reason: 'connection refused' }),
  );
  const palace = await palaceWith(embedder, logger);
  const without = await palaceWith(null);
  try {
    assert.ok((await palace.search(QUERY)).signals.includes('vector'), 'working before the failure');
    broken.on = true;
    const r = await palace.search(QUERY, { explain: true });
    assert.ok(!r.signals.includes('vector'));
    assert.ok(r.hits.length > 0);
    assert.deepEqual(texts(r), texts(await without.search(QUERY)), 'the same ranking as without an embedder');
    for (const h of r.hits) assert.ok(Math.abs(sum(h) - h.score) < 1e-9);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /vector search failed, using BM25 only: .*connection refused/);
  } finally {
    await palace.close();
    await without.close();
  }
});

test('an embedder that fails with a bug (not a LociError) is not hidden', async () => {
  const { embedder, broken } = breakable(() => new TypeError('cannot read properties of undefined'));
  const palace = await palaceWith(embedder);
  try {
    broken.on = true;
    await assert.rejects(palace.search(QUERY), TypeError);
  } finally {
    await palace.close();
  }
});
