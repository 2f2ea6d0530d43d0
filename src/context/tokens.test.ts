/** @module context/tokens.test — token estimates per family, and the usage correction. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTokenCounter, estimateMessageTokens, estimateTextTokens, modelFamily } from './tokens.js';

test('model families from names and providers', () => {
  assert.equal(modelFamily('claude-sonnet-4-5'), 'claude');
  assert.equal(modelFamily('anything', 'anthropic'), 'claude');
  assert.equal(modelFamily('gpt-4o-mini'), 'openai');
  assert.equal(modelFamily('o3-mini'), 'openai');
  assert.equal(modelFamily('openai/gpt-4.1'), 'openai');
  assert.equal(modelFamily('llama3.2'), 'llama');
  assert.equal(modelFamily('qwen2.5-coder:7b', 'openai'), 'llama', 'a local model behind an OpenAI-compatible server');
  assert.equal(modelFamily('qwen2.5-coder:7b', 'ollama'), 'llama');
});

test('estimates are in the range of real BPE counts for prose, code and CJK', () => {
  // Reference counts of OpenAI's o200k tokenizer for these strings, for orientation: 10, 13, 9.
  const prose = 'The quick brown fox jumps over the lazy dog near the river.';
  const code = 'const total = items.reduce((sum, x) => sum + x.price, 0);';
  const cjk = '今日は良い天気ですね。散歩に行きましょう';
  const p = estimateTextTokens(prose, 'openai');
  const c = estimateTextTokens(code, 'openai');
  const j = estimateTextTokens(cjk, 'openai');
  assert.ok(p >= 9 && p <= 16, `prose ${p}`);
  assert.ok(c >= 13 && c <= 26, `code ${c}`);
  assert.ok(j >= 14 && j <= 28, `cjk ${j}`);
  assert.ok(c / code.length > p / prose.length, 'code is denser than prose');
  assert.ok(j / cjk.length > 3 * (p / prose.length), 'a CJK character costs several times a Latin one');
  assert.ok(estimateTextTokens(cjk, 'claude') > j, "Claude's vocabulary splits CJK more than o200k");
  assert.equal(estimateTextTokens(''), 0);
  const long = 'word '.repeat(100_000);
  const n = estimateTextTokens(long, 'llama');
  assert.ok(n > 90_000 && n < 120_000, `${n}`);
});

test('messages count role overhead and tool calls', () => {
  const text = estimateMessageTokens({ role: 'user', content: 'hello' });
  const tool = estimateMessageTokens({
    role: 'assistant',
    content: [{ type: 'tool_use', id: 'a', name: 'read_file', input: { path: 'src/index.ts' } }],
  });
  assert.ok(text >= 5 && text < 10);
  assert.ok(tool > text);
});

test('the correction ratio starts at the first report and follows later ones smoothly', () => {
  const c = createTokenCounter({ family: 'openai' });
  assert.equal(c.ratio, 1);
  c.observe(1000, { inputTokens: 1200 });
  assert.equal(c.ratio, 1.2);
  c.observe(1000, { inputTokens: 200, cacheReadTokens: 1000, cacheCreationTokens: 200 });
  assert.ok(Math.abs(c.ratio - (1.2 + 0.3 * (1.4 - 1.2))) < 1e-9);
  c.observe(0, { inputTokens: 5 });
  c.observe(100, { inputTokens: 0 });
  assert.equal(c.observations, 2, 'empty reports are ignored');
  c.observe(1, { inputTokens: 1_000_000 });
  assert.ok(c.ratio <= 4, 'the ratio is clamped');
  assert.equal(c.correct(100), Math.ceil(100 * c.ratio));
});
