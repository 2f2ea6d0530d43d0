import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHashEmbedder, hashEmbed } from './hash-embedder.js';

const cos = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

test('vectors are normalised, deterministic and stable across calls', async () => {
  const e = createHashEmbedder();
  const [a, b] = await e.embed(['We went to the Pride festival', 'We went to the Pride festival']);
  assert.equal(a!.length, 256);
  assert.ok(Math.abs(cos(a!, a!) - 1) < 1e-5);
  assert.deepEqual(a, b);
  assert.equal(e.id, 'hash:v1-256');
});

test('misspellings and inflections stay close; unrelated text does not', () => {
  const q = hashEmbed('pride fesetival');
  const near = hashEmbed('We had a blast last year at the Pride festival');
  const far = hashEmbed('The quarterly budget review moved to Thursday');
  assert.ok(cos(q, near) > 0.3, `near ${cos(q, near)}`);
  assert.ok(cos(q, far) < 0.1, `far ${cos(q, far)}`);
  assert.ok(cos(hashEmbed('recommendation'), hashEmbed('reccomendation')) > 0.25);
});

test('empty or stop-word-only text gives a zero vector, not NaN', () => {
  const v = hashEmbed('the and of');
  assert.ok(v.every((x) => x === 0));
});
