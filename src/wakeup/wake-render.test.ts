/**
 * @module wakeup/wake-render.test
 * Ages, the character budget and the importance formula.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { importance, recencyFactor, useFactor } from './importance.js';
import { ageLabel, cutText, estimateTokens, renderWakeUp, type WakeUpDraft } from './wake-render.js';

const NOW = Date.parse('2025-06-20T12:00:00Z');
const daysAgo = (d: number) => new Date(NOW - d * 86_400_000).toISOString();

describe('wake-up rendering', () => {
  it('labels ages', () => {
    assert.equal(ageLabel(daysAgo(0.2), NOW), 'today');
    assert.equal(ageLabel(daysAgo(1.5), NOW), 'yesterday');
    assert.equal(ageLabel(daysAgo(3), NOW), '3 days ago');
    assert.equal(ageLabel(daysAgo(20), NOW), '2 weeks ago');
    assert.equal(ageLabel(daysAgo(100), NOW), '3 months ago');
    assert.equal(ageLabel(daysAgo(800), NOW), '2 years ago');
    assert.equal(ageLabel(daysAgo(-3), NOW), 'today');
  });

  it('fits lines in the budget, skipping those that do not fit, and counts tokens as chars / 4', () => {
    const line = (i: number, len: number) => ({
      text: `item ${i} ${'x'.repeat(len)}`,
      date: daysAgo(i),
      ref: `drawer d${i}`,
    });
    const draft: WakeUpDraft = {
      wing: 'acme',
      identity: 'I am Ana.',
      pinned: [line(1, 20)],
      sessions: [],
      orientation: null,
      recent: [line(2, 30), line(3, 2000), line(4, 30)],
      more: 0,
      maxChars: 800,
    };
    const r = renderWakeUp(draft, NOW);
    assert.ok(r.text.length <= 800);
    assert.equal(r.tokens, estimateTokens(r.text));
    assert.equal(r.tokens, Math.ceil(r.text.length / 4));
    assert.deepEqual(r.included, { pinned: [0], recent: [0, 2], sessions: [] });
    assert.match(r.text, /## Identity\nI am Ana\./);
    assert.match(r.text, /- item 2 x+ \(2 days ago · drawer d2\)/);
    assert.match(r.text, /\(1 more: loci_search/);
    assert.ok(r.text.indexOf('## Pinned') < r.text.indexOf('## Memories and decisions'));
  });

  it('cuts long text at a boundary', () => {
    assert.equal(cutText('short', 10), 'short');
    const c = cutText('one two three four five six seven', 16);
    assert.ok(c.length <= 16 && c.endsWith('…'));
  });
});

describe('importance = recency × use × kind', () => {
  it('decays hyperbolically with age and grows logarithmically with use', () => {
    assert.equal(recencyFactor(0), 1);
    assert.equal(recencyFactor(7), 0.5);
    assert.ok(recencyFactor(365) > 0);
    assert.equal(useFactor(0), 1);
    assert.equal(useFactor(1), 2);
    assert.equal(importance(7, 1, 1.5).score, 0.5 * 2 * 1.5);
  });

  it('ranks recent + used above recent, recent above old + used, old + used above old', () => {
    const s = (age: number, uses: number) => importance(age, uses, 1.2).score;
    assert.ok(s(2, 5) > s(2, 0));
    assert.ok(s(2, 0) > s(90, 5));
    assert.ok(s(90, 5) > s(90, 0));
  });
});
