import { test } from 'node:test';
import assert from 'node:assert/strict';
import { completeRanking, meanMetrics, scoreRanking } from './metrics.js';

test('metrics follow the protocol definitions', () => {
  const m = scoreRanking([3, 1, 7, 8, 9, 2, 4, 5, 6, 10], [1, 2]);
  assert.equal(m['any@5'], 1);
  assert.equal(m['frac@5'], 0.5);
  assert.equal(m['all@5'], 0);
  assert.equal(m['all@10'], 1);
  const dcg = 1 / Math.log2(3) + 1 / Math.log2(7);
  const idcg = 1 + 1 / Math.log2(3);
  assert.ok(Math.abs(m['ndcg@10'] - dcg / idcg) < 1e-12);
  const perfect = scoreRanking([1, 2, 3], [1, 2]);
  assert.equal(perfect['ndcg@10'], 1);
});

test('mean and ranking completion', () => {
  const a = scoreRanking([1], [1]);
  const b = scoreRanking([2], [1]);
  assert.equal(meanMetrics([a, b])['any@5'], 0.5);
  assert.deepEqual(completeRanking([3, 3, 1], [1, 2, 3, 4]), [3, 1, 2, 4]);
});
