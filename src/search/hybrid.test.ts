/**
 * @module search/hybrid.test
 * Example-based tests of hybrid ranking on the in-memory store: time cues, the vector signal and
 * its fallback, `explain`, ties and argument checks. They assert orders and presence, never exact
 * scores, so that tuning the weights does not break them (the properties are in
 * `hybrid.property.test.ts`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixedClock } from '../core/clock.js';
import { isLociError } from '../core/errors.js';
import { hashVectors, ids, NOW, storeOf } from '../../test/helpers/ranking.js';
import { searchHybrid } from './index.js';

const day = (iso: string) => `${iso}T12:00:00.000Z`;
const sum = (h: { explain?: { signals: Record<string, { contribution: number }> } }) =>
  Object.values(h.explain!.signals).reduce((a, s) => a + s.contribution, 0);

test('a query naming a month prefers drawers said inside it, and finds them without shared words', async () => {
  const store = await storeOf([
    {
      id: 'june',
      wing: 'w',
      room: 'trips',
      contentDate: day('2022-06-10'),
      text: 'Joanna travelled to Lisbon for a week.',
    },
    {
      id: 'july',
      wing: 'w',
      room: 'trips',
      contentDate: day('2022-07-14'),
      text: 'Joanna travelled to Kyoto for a week.',
    },
    {
      id: 'aug',
      wing: 'w',
      room: 'trips',
      contentDate: day('2022-08-20'),
      text: 'Joanna travelled to Quito for a week.',
    },
    { id: 'july-other', wing: 'w', room: 'food', contentDate: day('2022-07-20'), text: 'She baked sourdough bread.' },
    { id: 'undated', wing: 'w', room: 'trips', text: 'Joanna travelled to Oslo for a week.' },
  ]);
  const r = await searchHybrid({ store }, 'Where did Joanna travel in July 2022?', { explain: true });
  assert.equal(r.hits[0]!.id, 'july');
  assert.ok(r.signals.includes('time'));
  assert.ok(ids(r).includes('july-other'), 'a drawer said then is a candidate even without shared words');
  assert.equal(r.hits[0]!.explain!.signals['time']!.score, 1);
  const plain = await searchHybrid({ store }, 'Where did Joanna travel?');
  assert.ok(!plain.signals.includes('time'), 'no cue, no time signal');
  assert.ok(!ids(plain).includes('july-other'));
});

test('relative cues resolve against the injected clock, not the wall clock', async () => {
  const store = await storeOf([
    { id: 'old', wing: 'w', room: 'r', contentDate: day('2026-10-01'), text: 'we decided to shard the invoice queue' },
    {
      id: 'recent',
      wing: 'w',
      room: 'r',
      contentDate: day('2026-11-26'),
      text: 'we decided to shard the invoice queue',
    },
  ]);
  const lastWeek = (t: number) =>
    searchHybrid({ store, clock: fixedClock(t) }, 'what did we decide about the invoice queue last week');
  assert.deepEqual(ids(await lastWeek(NOW)), ['recent', 'old']);
  assert.deepEqual(
    ids(await lastWeek(Date.UTC(2026, 9, 6, 12))),
    ['old', 'recent'],
    'a month earlier, the older drawer is last week',
  );
});

test('without vectors the result is lexical and says why (fallback); lexical mode reports bm25 only', async () => {
  const store = await storeOf([
    { id: 'a', wing: 'w', room: 'r', text: 'the redis limiter keeps tokens per user' },
    { id: 'b', wing: 'w', room: 'r', text: 'the invoice worker retries three times' },
  ]);
  const reason = 'off (set LOCI_EMBEDDER to hash, ollama:<model>, openai:<model> or onnx:<dir>)';
  const r = await searchHybrid({ store, vectorsUnavailable: reason }, 'redis limiter', { explain: true });
  assert.equal(r.fallback, reason);
  assert.deepEqual(ids(r), ['a']);
  assert.ok(!r.signals.includes('vector'));
  assert.ok(!('vector' in r.hits[0]!.explain!.signals));
  assert.equal((await searchHybrid({ store }, 'redis limiter')).fallback, undefined, 'no reason given, none reported');
  const lex = await searchHybrid({ store, vectorsUnavailable: reason }, 'redis limiter', {
    mode: 'lexical',
    explain: true,
  });
  assert.deepEqual(lex.signals, ['bm25']);
  assert.deepEqual(ids(lex), ['a']);
  assert.equal(lex.hits[0]!.explain!.signals['bm25']!.rank, 1);
});

test('with the hash embedder the dense signal appears in explain and can add candidates BM25 misses', async () => {
  const store = await storeOf([
    { id: 'a', wing: 'w', room: 'r', text: 'the redis limiter keeps tokens per user' },
    { id: 'b', wing: 'w', room: 'r', text: 'the invoice worker retries three times' },
    { id: 'c', wing: 'w', room: 'r', text: 'rate limiting with redis: token buckets per account' },
  ]);
  const vectors = await hashVectors(store);
  const r = await searchHybrid(
    { store, vectors, vectorsUnavailable: 'ignored when vectors exist' },
    'redis limiter tokens',
    { explain: true },
  );
  assert.equal(r.fallback, undefined);
  assert.ok(r.signals.includes('vector'));
  assert.equal(r.hits[0]!.id, 'a');
  const v = r.hits[0]!.explain!.signals['vector']!;
  assert.equal(v.rank, 1);
  assert.ok(v.contribution > 0);
  for (const h of r.hits) assert.ok(Math.abs(sum(h) - h.score) < 1e-9, `explain of ${h.id} sums to its score`);
  const lex = await searchHybrid({ store, vectors }, 'redis limiter tokens', { mode: 'lexical' });
  assert.ok(!lex.signals.includes('vector'), 'lexical mode never asks the vectors');
});

test('equal drawers come back in one stable order, the same on every call', async () => {
  const rows = ['x1', 'x2', 'x3', 'x4'].map((id) => ({
    id,
    wing: 'w',
    room: 'r',
    text: 'schema migration for the queue',
  }));
  const store = await storeOf(rows);
  const first = ids(await searchHybrid({ store }, 'schema migration'));
  assert.equal(first.length, 4);
  for (let i = 0; i < 3; i++) assert.deepEqual(ids(await searchHybrid({ store }, 'schema migration')), first);
  const again = ids(await searchHybrid({ store: await storeOf(rows) }, 'schema migration'));
  assert.deepEqual(again, first, 'the same drawers stored the same way rank the same');
});

test('limit and context are checked; context attaches neighbours of the same source', async () => {
  const store = await storeOf(
    [0, 1, 2].map((i) => ({
      id: `c${i}`,
      wing: 'w',
      room: 'r',
      source: 'f.md',
      chunkIndex: i,
      text: i === 1 ? 'the worker pipeline' : `filler text ${i}`,
    })),
  );
  for (const opts of [{ limit: 0 }, { limit: 101 }, { limit: 1.5 }, { context: 11 }, { context: -1 }]) {
    await assert.rejects(searchHybrid({ store }, 'worker', opts), (e: unknown) => isLociError(e, 'INVALID_ARGUMENT'));
  }
  const r = await searchHybrid({ store }, 'worker pipeline', { context: 1 });
  assert.deepEqual(ids(r), ['c1']);
  assert.deepEqual(
    r.hits[0]!.context!.map((d) => d.id),
    ['c0', 'c2'],
  );
});

test('a query of stopwords only still searches (its words are kept)', async () => {
  const store = await storeOf([{ id: 'a', wing: 'w', room: 'r', text: 'what is it about' }]);
  const r = await searchHybrid({ store }, 'what is it');
  assert.ok(r.tokens.length > 0);
  assert.deepEqual(ids(r), ['a']);
});

test('explain of a why-question sums to the score (the answer-type signal is traced)', async () => {
  const store = await storeOf([
    {
      id: 'a',
      wing: 'w',
      room: 'r',
      text: 'We moved the limiter to redis because the in-process one lost state on restart.',
    },
    { id: 'b', wing: 'w', room: 'r', text: 'The limiter now runs in redis.' },
  ]);
  const r = await searchHybrid({ store }, 'why is the limiter in redis?', { explain: true });
  for (const h of r.hits)
    assert.ok(
      Math.abs(sum(h) - h.score) < 1e-9,
      `explain of ${h.id} (${JSON.stringify(h.explain)}) sums to ${h.score}`,
    );
});

test('fusion is the normalised weighted sum of the signals: each trace is weight × score / best', async () => {
  // Two drawers of one source share the query words, a third (no source) matches alone.
  const store = await storeOf([
    { id: 's0', wing: 'w', room: 'auth', source: 'a.md', chunkIndex: 0, text: 'token refresh rotates hourly' },
    { id: 's1', wing: 'w', room: 'auth', source: 'a.md', chunkIndex: 1, text: 'token refresh needs the gateway' },
    { id: 'lone', wing: 'w', room: 'misc', text: 'token refresh rotates hourly' },
    { id: 'other', wing: 'w', room: 'misc', text: 'invoice export nightly' },
  ]);
  const val = (sig: Record<string, { score: number | null }> | undefined, name: string) => sig![name]!.score ?? 0;
  const params = { bm25: 0.6, source: 0.3, room: 0.2, exchange: 0, why: 0, toolWeight: 1, collapse: 0 };
  const r = await searchHybrid({ store, params }, 'auth token refresh rotates', { explain: true });
  assert.deepEqual(r.signals, ['bm25', 'source', 'room']);
  const best = Math.max(...r.hits.map((h) => val(h.explain!.signals, 'bm25')));
  const bestSource = Math.max(...r.hits.map((h) => val(h.explain!.signals, 'source')));
  for (const h of r.hits) {
    const s = h.explain!.signals;
    assert.ok(Math.abs(s['bm25']!.contribution - (0.6 * val(s, 'bm25')) / best) < 1e-12, `${h.id} bm25`);
    assert.ok(Math.abs(s['source']!.contribution - (0.3 * val(s, 'source')) / bestSource) < 1e-12, `${h.id} source`);
    assert.equal(s['room']!.contribution, h.room === 'auth' ? 0.2 : 0, `${h.id} room`);
    assert.ok(Math.abs(sum(h) - h.score) < 1e-12);
  }
  const byId = new Map(r.hits.map((h) => [h.id, h]));
  const [s0, s1, lone] = ['s0', 's1', 'lone'].map((id) => byId.get(id)!.explain!.signals);
  assert.ok(Math.abs(val(s0, 'source') - (val(s0, 'bm25') + val(s1, 'bm25'))) < 1e-12, 'a source sums its drawers');
  assert.equal(val(lone, 'source'), val(lone, 'bm25'), 'a drawer without a source is its own evidence');
  assert.equal(ids(r)[0], 's0', 'same words: the drawer whose source also matches (and whose room is named) wins');
  assert.ok(!ids(r).includes('other'));
  const bm25Only = await searchHybrid(
    { store, params: { ...params, source: 0, room: 0 } },
    'auth token refresh rotates',
    { explain: true },
  );
  for (const h of bm25Only.hits) assert.ok(Math.abs(h.score - h.explain!.signals['bm25']!.contribution) < 1e-12);
});
