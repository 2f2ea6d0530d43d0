/**
 * @module search/collapse.test
 * One hit per exchange and per copied text: parts of one long exchange, and the same request
 * stored again in another session, no longer crowd the top k (real transcripts: a five-part
 * exchange and a compaction copy filled the top 5 with one answer).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createMemoryStore } from '../store/index.js';
import { copyKey, exchangeKey } from './collapse.js';
import { searchHybrid } from './hybrid.js';

const base = { wing: 'w', room: 'r', hall: null };

/** Part `i` of an `n`-part exchange stored in `source`. */
const part = (prefix: string, source: string, n: number) => (i: number, text: string) => ({
  ...base,
  id: `${prefix}-${i}`,
  source,
  chunkIndex: i,
  text,
  metadata: { exchangeId: `${prefix}:0`, part: i, parts: n },
});

test('exchangeKey: exchanges are keyed within their source; drawers without one stand alone', () => {
  assert.equal(exchangeKey('a', 's.jsonl', { exchangeId: 'x:1' }), exchangeKey('b', 's.jsonl', { exchangeId: 'x:1' }));
  assert.notEqual(
    exchangeKey('a', 's.jsonl', { exchangeId: 'x:1' }),
    exchangeKey('b', 't.jsonl', { exchangeId: 'x:1' }),
  );
  assert.notEqual(exchangeKey('a', 's.jsonl', {}), exchangeKey('b', 's.jsonl', {}));
});

test('copyKey: same opening after folding case, punctuation and speaker labels; short texts have none', () => {
  const long =
    'Please migrate the billing service to the new queue, keep the retry policy, and write down every step you ' +
    'take in the migration notes file before you start, then tell me when you are done.';
  assert.ok(long.length >= 160);
  assert.equal(copyKey(`User: ${long}`), copyKey(`${long.toUpperCase()}!! and more`));
  assert.notEqual(copyKey(long), copyKey(`Do not ${long}`));
  assert.equal(copyKey('User: short request'), undefined);
});

test('copyKey folds ASCII text as the Unicode pattern does (ASCII is split without it)', () => {
  const reference = (text: string) => {
    const folded = text
      .slice(0, 480)
      .replace(/^(?:User|Assistant|Human|AI|Model|Gemini|Codex|Claude): /gm, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim()
      .slice(0, 160);
    return folded.length < 160 ? undefined : `c\0${folded}`;
  };
  const text = fc
    .array(fc.oneof(fc.constantFrom('User: ', 'Redis', '\n', ' -- ', '_x9', 'café', 'ÉTÉ', '日本'), fc.string()), {
      maxLength: 120,
    })
    .map((p) => p.join(''));
  fc.assert(fc.property(text, (t) => assert.equal(copyKey(t), reference(t))));
});

test('hybrid search: the parts of one exchange take one place in the top k', async () => {
  const store = createMemoryStore();
  await store.init();
  const long = part('long', 'a.jsonl', 3);
  await store.put([
    long(0, 'User: set up the deploy pipeline for the staging cluster\nAssistant: Starting on the deploy pipeline.'),
    long(1, 'The deploy pipeline now builds images for the staging cluster.'),
    long(2, 'Deploy pipeline done: staging cluster rolls out on every merge.'),
    {
      ...base,
      id: 'other',
      source: 'b.jsonl',
      chunkIndex: 0,
      text: 'User: is the staging cluster healthy?\nAssistant: Yes, all nodes are ready.',
      metadata: { exchangeId: 'b:0' },
    },
  ]);
  const r = await searchHybrid({ store }, 'deploy pipeline staging cluster', { limit: 2 });
  assert.equal(r.hits.length, 2);
  assert.ok(r.hits[0]!.id.startsWith('long-'));
  assert.equal(r.hits[1]!.id, 'other', 'the second place goes to another exchange');
  const off = await searchHybrid({ store, params: { collapse: 0 } }, 'deploy pipeline staging cluster', { limit: 2 });
  assert.deepEqual(
    off.hits.map((h) => h.id.startsWith('long-')),
    [true, true],
    'without collapsing, parts crowd the top (the defect this guards)',
  );
});

test('hybrid search: a request copied into another session takes one place', async () => {
  const store = createMemoryStore();
  await store.init();
  const request =
    'User: Please migrate the billing service to the new message queue, keep the existing retry policy, and record ' +
    'each step you take in the migration notes before starting.';
  await store.put([
    {
      ...base,
      id: 'parent',
      source: 'session.jsonl',
      chunkIndex: 0,
      text: `${request}\nAssistant: Migrated; the billing queue retries three times.`,
      metadata: { exchangeId: 's:0' },
    },
    {
      ...base,
      id: 'echo',
      source: 'session__subagents__agent-1.jsonl',
      chunkIndex: 0,
      text: `${request}\nAssistant: Reading the billing code.`,
      metadata: { exchangeId: 'sub:0' },
    },
    {
      ...base,
      id: 'notes',
      source: 'other.jsonl',
      chunkIndex: 0,
      text: 'User: where are the billing migration notes?\nAssistant: In docs/queue.md.',
      metadata: { exchangeId: 'o:0' },
    },
  ]);
  const q = 'billing migration queue retry notes';
  const r = await searchHybrid({ store }, q, { limit: 2 });
  assert.equal(r.hits.filter((h) => h.id === 'parent' || h.id === 'echo').length, 1);
  assert.equal(r.hits[1]?.id, 'notes');
  const off = await searchHybrid({ store, params: { collapseCopies: 0 } }, q, { limit: 2 });
  assert.deepEqual(off.hits.map((h) => h.id).sort(), ['echo', 'parent'], 'without it the copy takes the second place');
});

test('hybrid search: the question half and the answer half of one exchange score together', async () => {
  const store = createMemoryStore();
  await store.init();
  const a = part('a', 'a.jsonl', 2);
  await store.put([
    a(0, 'User: the login test keeps failing at random on CI, can you find out why it is flaky?'),
    a(1, 'Found it: the login test reads the wall clock, so it is flaky near midnight; a frozen clock fixes it.'),
    {
      ...base,
      id: 'b',
      source: 'b.jsonl',
      chunkIndex: 0,
      text: 'User: flaky login test again?\nAssistant: It passed on rerun, nothing to change.',
      metadata: { exchangeId: 'b:0' },
    },
  ]);
  const q = 'why is the login test flaky';
  const r = await searchHybrid({ store, params: { source: 0 } }, q, { limit: 2 });
  assert.ok(r.hits[0]!.id.startsWith('a-'), r.hits.map((h) => h.id).join());
  const off = await searchHybrid({ store, params: { source: 0, exchange: 0 } }, q, { limit: 2 });
  assert.equal(off.hits[0]?.id, 'b', 'each half alone loses to a short mention (the defect this guards)');
});
