/**
 * @module recall/prefetch.test
 * The async prefetch: gates, poll/consume semantics, cancellation of the LLM call, recording on
 * consume, and proof by event order that an agent loop polling it never waits on it.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { createLlmProvider, type CompleteRequest, type LlmProvider } from '../providers/index.js';
import { startLoopback, type Loopback } from '../../test/helpers/loopback.js';
import {
  gatedFetch,
  memoryFixture,
  recordedQuery,
  selectorReply,
  testClock,
} from '../../test/fixtures/recall/support.js';
import { loadRecallSession, recordSurfaced, startRecallPrefetch, type RecallResult } from './index.js';

let server: Loopback;
let f: ReturnType<typeof memoryFixture>;
before(async () => {
  server = await startLoopback();
});
after(() => server.close());
beforeEach(() => {
  f = memoryFixture();
});
afterEach(() => f.cleanup());

const env = { ANTHROPIC_API_KEY: 'sk-ant-test' };
const nextTick = () => new Promise<void>((r) => setImmediate(r));

/** Wraps a provider to see the signal each call received. */
function spied(p: LlmProvider): LlmProvider & { signals: (AbortSignal | undefined)[] } {
  const signals: (AbortSignal | undefined)[] = [];
  return {
    name: p.name,
    model: p.model,
    signals,
    complete: (req: CompleteRequest) => (signals.push(req.signal), p.complete(req)),
  };
}

describe('startRecallPrefetch gates', () => {
  it('does not start for a single-word query, a spent session budget, no memory files or an aborted signal', () => {
    const single = startRecallPrefetch('  tests  ', { dir: f.dir });
    assert.deepEqual(
      { skipped: single.skipped, settled: single.settled, poll: single.poll(), consume: single.consume() },
      { skipped: 'single-word query', settled: true, poll: undefined, consume: undefined },
    );
    assert.equal(startRecallPrefetch('ok thanks, go ahead', { dir: f.dir }).skipped, 'small talk (no topic to recall)');

    const spent = recordSurfaced(f.home, 'spent', { bytes: 61_000 });
    assert.equal(
      startRecallPrefetch('integration tests please', { dir: f.dir, session: spent }).skipped,
      'session recall budget exhausted',
    );

    assert.equal(
      startRecallPrefetch('integration tests please', { dir: `${f.root}/empty` }).skipped,
      'no memory files',
    );

    const ac = new AbortController();
    ac.abort();
    assert.equal(
      startRecallPrefetch('integration tests please', { dir: f.dir, signal: ac.signal }).skipped,
      'aborted before start',
    );
  });
});

describe('startRecallPrefetch lifecycle', () => {
  it('the agent loop never waits: turns complete while the LLM is pending, its result is used later', async () => {
    const gate = gatedFetch();
    server.reply('anthropic.messages', selectorReply('anthropic.select'));
    const provider = createLlmProvider(
      { provider: 'anthropic', baseUrl: server.url, maxRetries: 0 },
      { env, fetch: gate.fetch },
    );
    const events: string[] = [];
    let requestSeen = false;
    void gate.requested.then(() => {
      requestSeen = true;
      events.push('llm request sent');
    });

    const handle = startRecallPrefetch(recordedQuery(), { dir: f.dir, provider, clock: testClock() });
    events.push('prefetch started');
    assert.equal(handle.skipped, undefined);

    let consumed: RecallResult | undefined;
    let released = false;
    let turnsAfterRequest = 0;
    for (let turn = 1; turn <= 10_000 && !consumed; turn++) {
      const peek = handle.poll();
      if (peek) {
        consumed = handle.consume();
        events.push(`turn ${turn}: consumed`);
        break;
      }
      events.push(`turn ${turn}: no recall yet, proceeding`);
      const pendingAtStart = requestSeen && !released;
      await nextTick(); // the turn's own work
      if (pendingAtStart && ++turnsAfterRequest === 3) {
        assert.equal(handle.settled, false, 'still pending: the model has not answered');
        events.push('llm answers');
        released = true;
        gate.release();
      }
    }

    assert.ok(consumed, 'consumed on a later turn');
    const order = (e: string) => events.findIndex((x) => x.startsWith(e));
    assert.ok(order('prefetch started') < order('turn 1: no recall yet'), 'starting did not block');
    assert.ok(order('llm request sent') < order('llm answers'));
    const between = events
      .slice(order('llm request sent'), order('llm answers'))
      .filter((e) => e.includes('proceeding'));
    assert.ok(between.length >= 3, `turns completed while the LLM was pending: ${between.length}`);
    assert.ok(order('llm answers') < events.findIndex((e) => e.endsWith('consumed')), 'consumed only after the answer');
    assert.equal(consumed.selector, 'llm');
    assert.deepEqual(
      consumed.memories.map((m) => m.file),
      ['feedback_testing.md', 'team/reference_ci.md'],
    );
    assert.equal(handle.consume(), undefined, 'consumed once');
    assert.equal(handle.poll(), undefined);
    assert.equal(handle.settled, true);
  });

  it('abort() cancels the pending LLM call and the result is never delivered', async () => {
    server.reply('anthropic.messages', { fail: 'hang' });
    const provider = spied(createLlmProvider({ provider: 'anthropic', baseUrl: server.url, maxRetries: 0 }, { env }));
    const before = server.requests.length;
    const handle = startRecallPrefetch(recordedQuery(), { dir: f.dir, provider, timeoutMs: 600_000 });
    await server.waitForRequests(before + 1);
    assert.equal(handle.settled, false);
    handle.abort();
    assert.equal(handle.settled, true);
    await handle.done;
    assert.equal(provider.signals[0]?.aborted, true, 'the provider saw its signal abort');
    assert.equal(handle.poll(), undefined);
    assert.equal(handle.consume(), undefined);
    handle.abort(); // idempotent
  });

  it('an outer AbortSignal aborts like abort()', async () => {
    server.reply('anthropic.messages', { fail: 'hang' });
    const provider = spied(createLlmProvider({ provider: 'anthropic', baseUrl: server.url, maxRetries: 0 }, { env }));
    const ac = new AbortController();
    const before = server.requests.length;
    const handle = startRecallPrefetch(recordedQuery(), {
      dir: f.dir,
      provider,
      signal: ac.signal,
      timeoutMs: 600_000,
    });
    await server.waitForRequests(before + 1);
    ac.abort();
    await handle.done;
    assert.equal(handle.settled, true);
    assert.equal(provider.signals[0]?.aborted, true);
    assert.equal(handle.consume(), undefined);
  });

  it('without a provider it recalls by search; consume() records the injection in the session', async () => {
    const session = loadRecallSession(f.home, 'sess-1', { clock: testClock() });
    const handle = startRecallPrefetch('how do we run the integration tests?', {
      dir: f.dir,
      home: f.home,
      session,
      clock: testClock(),
    });
    assert.equal(handle.poll(), undefined, 'work starts on a later tick');
    await handle.done;
    const peek = handle.poll();
    assert.equal(peek?.selector, 'search');
    assert.equal(handle.poll(), peek, 'poll does not consume');
    assert.equal(
      loadRecallSession(f.home, 'sess-1', { clock: testClock() }).turns,
      0,
      'nothing recorded before consume',
    );
    const r = handle.consume()!;
    assert.deepEqual(
      r.memories.map((m) => m.file),
      ['feedback_testing.md'],
    );
    const stored = loadRecallSession(f.home, 'sess-1', { clock: testClock() });
    assert.deepEqual([...stored.surfaced], ['feedback_testing.md']);
    assert.equal(stored.bytes, r.bytes);
    assert.deepEqual([...session.surfaced], ['feedback_testing.md'], 'the caller’s state is updated too');

    const again = startRecallPrefetch('how do we run the integration tests?', {
      dir: f.dir,
      home: f.home,
      session,
      clock: testClock(),
    });
    await again.done;
    const files = again.consume()?.memories.map((m) => m.file) ?? [];
    assert.ok(!files.includes('feedback_testing.md'), 'a surfaced memory is not recalled twice in a session');
  });
});
