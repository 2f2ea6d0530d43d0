/**
 * @module search/hybrid.property.test
 * Properties of hybrid ranking over generated corpora on the in-memory store. They hold for any
 * weights, so they survive tuning: a signal with weight 0 changes nothing, raising a weight never
 * lowers the hit it favours, `explain` adds up to the score, filters never leak, the same input
 * gives the same order, and drawers said inside a named interval rank above the same words said
 * outside it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  corpusArb,
  filterArb,
  hashVectors,
  ids,
  onlyIn,
  queryArb,
  ROOMS,
  satisfies,
  scores,
  storeOf,
} from '../../test/helpers/ranking.js';
import { searchHybrid, type HybridParams, type SearchResult } from './index.js';

/** Every generated corpus fits in one page, so every candidate is returned. */
const ALL = { limit: 100, explain: true } as const;
const RUNS = { numRuns: 60 };
const EPS = 1e-9;

const sameOrderWhereShared = (a: SearchResult, b: SearchResult, what: string) => {
  assert.deepEqual(onlyIn(ids(a), ids(b)), onlyIn(ids(b), ids(a)), `${what}: the shared hits keep their order`);
  const sa = scores(a);
  for (const [id, s] of scores(b))
    if (sa.has(id)) assert.ok(Math.abs(sa.get(id)! - s) < EPS, `${what}: ${id} keeps its score`);
};

test('weight 0: a vector signal of weight 0 ranks as no vectors (vector-only candidates may follow)', async () => {
  await fc.assert(
    fc.asyncProperty(corpusArb, queryArb, async (corpus, query) => {
      const store = await storeOf(corpus);
      const off = await searchHybrid({ store, params: { vector: 0 } }, query, ALL);
      const zero = await searchHybrid({ store, vectors: await hashVectors(store), params: { vector: 0 } }, query, ALL);
      assert.ok(ids(off).every((id) => ids(zero).includes(id)));
      sameOrderWhereShared(off, zero, 'vector weight 0');
    }),
    RUNS,
  );
});

test('weight 0: a time cue with time weight 0 ranks the matching drawers as the query without the cue', async () => {
  await fc.assert(
    fc.asyncProperty(corpusArb, queryArb, async (corpus, query) => {
      const store = await storeOf(corpus);
      const bare = query.replace(/ (in|on) .*$/, '');
      const without = await searchHybrid({ store, params: { time: 0 } }, bare, ALL);
      const withCue = await searchHybrid({ store, params: { time: 0 } }, query, ALL);
      assert.ok(ids(without).every((id) => ids(withCue).includes(id)));
      sameOrderWhereShared(without, withCue, 'time weight 0');
    }),
    RUNS,
  );
});

test('weight 0: with room weight 0 the room names change nothing', async () => {
  await fc.assert(
    fc.asyncProperty(corpusArb, queryArb, async (corpus, query) => {
      const renamed = corpus.map((d) => ({ ...d, room: `zz-${d.room}` }));
      const a = await searchHybrid({ store: await storeOf(corpus), params: { room: 0 } }, query, ALL);
      const b = await searchHybrid({ store: await storeOf(renamed), params: { room: 0 } }, query, ALL);
      assert.deepEqual(ids(a), ids(b));
      sameOrderWhereShared(a, b, 'room weight 0');
    }),
    RUNS,
  );
});

/** Signals whose weight can be raised, with the trace entry that shows each hit's signal value. */
const RAISABLE: { signal: keyof HybridParams & string; trace: string; vectors: boolean }[] = [
  { signal: 'room', trace: 'room', vectors: false },
  { signal: 'time', trace: 'time', vectors: false },
  { signal: 'source', trace: 'source', vectors: false },
  { signal: 'bm25', trace: 'bm25', vectors: false },
  { signal: 'vector', trace: 'vector', vectors: true },
];

/** Queries that give the signal something to favour: a room word for `room`, a time cue for `time`. */
const queryFor = (signal: string): fc.Arbitrary<string> =>
  signal === 'room'
    ? fc.tuple(fc.constantFrom(...ROOMS.slice(0, 2)), queryArb).map(([r, q]) => `${r} ${q}`)
    : signal === 'time'
      ? queryArb.map((q) => (/ (in|on) /.test(q) ? q : `${q} in July 2022`))
      : queryArb;

for (const s of RAISABLE) {
  test(`raising the ${s.signal} weight never lowers the hit that signal favours most`, async () => {
    let decided = 0;
    await fc.assert(
      fc.asyncProperty(
        corpusArb,
        queryFor(s.signal),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0.05, max: 2, noNaN: true }),
        async (corpus, query, w, raise) => {
          const store = await storeOf(corpus);
          const vectors = s.vectors ? await hashVectors(store) : undefined;
          const run = (weight: number) => searchHybrid({ store, vectors, params: { [s.signal]: weight } }, query, ALL);
          const before = await run(w);
          const after = await run(w + raise);
          const value = (id: string) => before.hits.find((h) => h.id === id)?.explain?.signals[s.trace]?.score ?? 0;
          const best = Math.max(0, ...before.hits.map((h) => value(h.id)));
          const fav = before.hits.find((h) => value(h.id) === best);
          if (!fav || best === 0) return;
          decided++;
          const was = new Set(ids(before).slice(0, ids(before).indexOf(fav.id)));
          const favScore = after.hits.find((h) => h.id === fav.id)!.score;
          for (const h of after.hits) {
            if (h.id === fav.id) break;
            assert.ok(
              was.has(h.id) || Math.abs(h.score - favScore) < EPS,
              `${s.signal} ${w} → ${w + raise}: ${h.id} overtook ${fav.id}`,
            );
          }
        },
      ),
      { numRuns: 40 },
    );
    assert.ok(decided >= 5, `the property was decided in ${decided} runs`);
  });
}

test('explain: the contributions of every hit add up to its score', async () => {
  await fc.assert(
    fc.asyncProperty(
      corpusArb,
      queryArb,
      fc.boolean(),
      fc.constantFrom<'hybrid' | 'lexical'>('hybrid', 'lexical'),
      async (corpus, query, vec, mode) => {
        const store = await storeOf(corpus);
        const r = await searchHybrid({ store, vectors: vec ? await hashVectors(store) : undefined }, query, {
          ...ALL,
          mode,
        });
        for (const h of r.hits) {
          const sum = Object.values(h.explain!.signals).reduce((a, t) => a + t.contribution, 0);
          assert.ok(Math.abs(sum - h.score) < EPS, `${h.id}: ${sum} vs ${h.score}`);
          assert.ok(Math.abs(h.explain!.fused - h.score) < EPS);
          for (const name of Object.keys(h.explain!.signals))
            assert.ok(
              r.signals.includes(name) || ['exchange', 'neighbour'].includes(name),
              `${name} is listed in signals`,
            );
        }
        for (let i = 1; i < r.hits.length; i++)
          assert.ok(r.hits[i - 1]!.score >= r.hits[i]!.score - EPS, 'hits are best first');
      },
    ),
    RUNS,
  );
});

test('filters (wing, room, hall, since, until) never leak, whichever signals bring candidates', async () => {
  await fc.assert(
    fc.asyncProperty(corpusArb, queryArb, filterArb, fc.boolean(), async (corpus, query, filter, vec) => {
      const store = await storeOf(corpus);
      const r = await searchHybrid({ store, vectors: vec ? await hashVectors(store) : undefined }, query, {
        ...ALL,
        ...filter,
      });
      for (const h of r.hits)
        assert.ok(
          satisfies(h, filter),
          `${h.id} ${JSON.stringify([h.wing, h.room, h.hall, h.contentDate])} leaks through ${JSON.stringify(filter)}`,
        );
      const lex = await searchHybrid({ store }, query, { ...ALL, ...filter, mode: 'lexical' });
      for (const h of lex.hits)
        assert.ok(satisfies(h, filter), `lexical: ${h.id} leaks through ${JSON.stringify(filter)}`);
    }),
    RUNS,
  );
});

test('determinism: the same corpus and query give the same hits, scores and order', async () => {
  await fc.assert(
    fc.asyncProperty(corpusArb, queryArb, fc.boolean(), async (corpus, query, vec) => {
      const one = await storeOf(corpus);
      const two = await storeOf(corpus);
      const a = await searchHybrid({ store: one, vectors: vec ? await hashVectors(one) : undefined }, query, ALL);
      const b = await searchHybrid({ store: two, vectors: vec ? await hashVectors(two) : undefined }, query, ALL);
      const c = await searchHybrid({ store: one, vectors: vec ? await hashVectors(one) : undefined }, query, ALL);
      assert.deepEqual(ids(a), ids(b));
      assert.deepEqual(ids(a), ids(c));
      assert.deepEqual([...scores(a)], [...scores(b)]);
    }),
    RUNS,
  );
});

test('time cues: the same words said inside the named month rank above them said outside it', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.integer({ min: 0, max: 364 }), { minLength: 2, maxLength: 12 }),
      fc.constantFrom(...ROOMS),
      async (days, room) => {
        const corpus = days.map((d, i) => ({
          id: `t${i}`,
          wing: 'w',
          room,
          contentDate: new Date(Date.UTC(2022, 0, 1, 12) + d * 86_400_000).toISOString(),
          text: 'the worker pipeline stalled',
        }));
        const r = await searchHybrid({ store: await storeOf(corpus) }, 'worker pipeline in July 2022', ALL);
        const inside = (iso: string | null) => iso !== null && iso.startsWith('2022-07');
        const firstOutside = r.hits.findIndex((h) => !inside(h.contentDate));
        const lastInside = r.hits.map((h) => inside(h.contentDate)).lastIndexOf(true);
        assert.ok(
          firstOutside === -1 || lastInside < firstOutside,
          `inside first: ${r.hits.map((h) => h.contentDate?.slice(0, 10)).join(' ')}`,
        );
        assert.equal(r.hits.length, corpus.length);
      },
    ),
    RUNS,
  );
});
