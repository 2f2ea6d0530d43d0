/** @module context/budget.test — context levels, continuations, diminishing returns and the completion record. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTokenBudget } from './budget.js';

const usage = (outputTokens: number) => ({
  inputTokens: 100,
  outputTokens,
  cacheReadTokens: 0,
  cacheCreationTokens: 0,
});

test('a warning and a nudge from 90 % of the usable window; compaction from its threshold', () => {
  const b = createTokenBudget({ contextWindow: 110_000, reserveOutputTokens: 10_000 });
  assert.equal(b.window, 100_000);
  assert.equal(b.check(80_000).level, 'ok');
  const c = b.check(86_000);
  assert.equal(c.level, 'compact');
  assert.equal(c.nudge, undefined);
  const w = b.check(90_000);
  assert.equal(w.level, 'warn');
  assert.match(w.nudge ?? '', /90% full \(90,000 of 100,000 tokens\)/);
  assert.equal(b.check(100_001).level, 'over');
  assert.equal(b.peakContextTokens, 100_001);
});

test('continuations run until 90 % of the turn budget, with a nudge, then a completion record', () => {
  let t = 0;
  const b = createTokenBudget({ contextWindow: 200_000, turnTokens: 10_000, now: () => t });
  b.startTurn();
  b.recordUsage(usage(4_000));
  const first = b.continuation();
  assert.equal(first.action, 'continue');
  assert.ok(first.action === 'continue' && /40% of the turn's token budget \(4,000 \/ 10,000\)/.test(first.nudge));
  b.recordUsage(usage(5_500));
  t = 1234;
  const done = b.continuation();
  assert.equal(done.action, 'stop');
  assert.ok(done.action === 'stop');
  assert.equal(done.record.reason, 'budget_reached');
  assert.equal(done.record.continuations, 1);
  assert.equal(done.record.outputTokens, 9_500);
  assert.equal(done.record.budgetFraction, 0.95);
  assert.equal(done.record.durationMs, 1234);
  assert.equal(done.record.calls, 2);
  assert.equal(b.sessionUsage().inputTokens, 200);
});

test('diminishing returns: after three continuations, two in a row under 500 tokens stop the turn', () => {
  const b = createTokenBudget({ contextWindow: 200_000, turnTokens: 100_000 });
  b.startTurn();
  for (const out of [3_000, 3_000, 3_000]) {
    b.recordUsage(usage(out));
    assert.equal(b.continuation().action, 'continue');
  }
  b.recordUsage(usage(200));
  assert.equal(b.continuation().action, 'continue', 'one small step is not yet diminishing');
  b.recordUsage(usage(300));
  const d = b.continuation();
  assert.ok(d.action === 'stop' && d.record.reason === 'diminishing' && d.record.diminishing);
});

test('without a turn budget a turn simply completes; a session budget stops continuations', () => {
  const b = createTokenBudget({ contextWindow: 8_192 });
  b.startTurn();
  b.recordUsage(usage(10));
  const d = b.continuation();
  assert.ok(d.action === 'stop' && d.record.reason === 'completed' && d.record.turnTokens === undefined);
  const s = createTokenBudget({ contextWindow: 8_192, turnTokens: 5_000, sessionTokens: 1_000 });
  s.startTurn();
  s.recordUsage(usage(1_000));
  const e = s.continuation();
  assert.ok(e.action === 'stop' && e.record.reason === 'session_budget');
  const m = createTokenBudget({ contextWindow: 8_192, turnTokens: 50_000, maxContinuations: 1 });
  m.startTurn();
  m.recordUsage(usage(1_000));
  assert.equal(m.continuation().action, 'continue');
  m.recordUsage(usage(1_000));
  const f = m.continuation();
  assert.ok(f.action === 'stop' && f.record.reason === 'max_continuations');
});
