/**
 * @module search/highlight.test
 * Boundaries of highlighting and snippets: spans are whole words (letters, digits and combining
 * marks), every matching word is marked and no other, markers never change the text around them,
 * and the snippet is the earliest window of whole lines holding the most matches.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { queryTokens, tokenize } from '../text/index.js';
import { highlight, matchSpans, snippetLines } from './index.js';

const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
const WORDS = [
  'redis',
  'Redis',
  'REDIS',
  'limiter',
  'limiters',
  'redistribute',
  'café',
  'cafe\u0301',
  'naïve',
  '日本',
  'x1',
  'über',
  'token',
  'tokens',
];
const SEPS = [' ', ', ', '\n', '(', ')', '-', '_', '.', '→ ', '\n\n', '"'];
const textArb = fc
  .array(fc.oneof(fc.constantFrom(...WORDS), fc.constantFrom(...SEPS)), { maxLength: 60 })
  .map((p) => p.join(''));
const tokensArb = fc
  .array(fc.constantFrom('redis', 'limiter', 'café', 'token', '日本', 'x1', 'über'), { maxLength: 3 })
  .map((q) => new Set(queryTokens(q.join(' '))));

test('spans are whole words, in order, and mark exactly the words whose tokens match', () => {
  fc.assert(
    fc.property(textArb, tokensArb, (text, tokens) => {
      const spans = matchSpans(text, tokens);
      let prev = 0;
      for (const s of spans) {
        assert.ok(s.start >= prev && s.end > s.start && s.end <= text.length, 'ordered, non-empty, inside the text');
        assert.ok(s.start === 0 || !WORD_CHAR.test(text[s.start - 1]!), 'starts at a word boundary');
        assert.ok(s.end === text.length || !WORD_CHAR.test(text[s.end]!), 'ends at a word boundary');
        assert.ok(tokenize(text.slice(s.start, s.end)).some((t) => tokens.has(t)));
        prev = s.end;
      }
      const marked = new Set(spans.map((s) => s.start));
      for (const m of text.matchAll(/[\p{L}\p{N}\p{M}]+/gu)) {
        if (!marked.has(m.index))
          assert.ok(!tokenize(m[0]).some((t) => tokens.has(t)), `${m[0]} matches but is not marked`);
      }
    }),
  );
});

test('highlight only inserts the markers: removing them gives the text back', () => {
  fc.assert(
    fc.property(textArb, tokensArb, (text, tokens) => {
      const spans = matchSpans(text, tokens);
      const out = highlight(text, spans, '\u0001', '\u0002');
      assert.equal(out.replace(/[\u0001\u0002]/g, ''), text);
      assert.equal(out.split('\u0001').length - 1, spans.length);
      if (!spans.length) assert.equal(out, text);
    }),
  );
});

test('examples: case, accents, combining marks and punctuation; no partial words', () => {
  const t = new Set(queryTokens('redis café'));
  const text = 'Redis, (redis) redistribute cafe\u0301 café-bar';
  const marked = matchSpans(text, t).map((s) => text.slice(s.start, s.end));
  assert.deepEqual(marked, ['Redis', 'redis', 'cafe\u0301', 'café']);
  assert.equal(highlight('use redis.', matchSpans('use redis.', t), '[', ']'), 'use [redis].');
  assert.deepEqual(matchSpans('anything', new Set()), []);
});

test('snippets are the earliest window of whole lines with the most matches', () => {
  fc.assert(
    fc.property(textArb, tokensArb, fc.integer({ min: 1, max: 6 }), (text, tokens, maxLines) => {
      const spans = matchSpans(text, tokens);
      const lines = text.split('\n');
      const s = snippetLines(text, spans, maxLines);
      if (lines.length <= maxLines) {
        assert.deepEqual(s, { text, firstLine: 0, truncated: false });
        return;
      }
      assert.equal(s.truncated, true);
      assert.equal(s.text, lines.slice(s.firstLine, s.firstLine + maxLines).join('\n'), 'whole lines, verbatim');
      assert.ok(s.firstLine + maxLines <= lines.length);
      const lineOf = (pos: number) => text.slice(0, pos).split('\n').length - 1;
      const count = (first: number) =>
        spans.filter((sp) => lineOf(sp.start) >= first && lineOf(sp.start) < first + maxLines).length;
      const counts = Array.from({ length: lines.length - maxLines + 1 }, (_, i) => count(i));
      const best = Math.max(...counts);
      assert.equal(s.firstLine, counts.indexOf(best));
    }),
  );
});

/** The spans by the Unicode word pattern on every text, each word tokenised: what {@link matchSpans} must give. */
function referenceSpans(text: string, tokens: ReadonlySet<string>) {
  if (tokens.size === 0) return [];
  return [...text.matchAll(/[\p{L}\p{N}\p{M}]+/gu)]
    .filter((m) => tokenize(m[0]).some((t) => tokens.has(t)))
    .map((m) => ({ start: m.index, end: m.index + m[0].length }));
}

test('ASCII text (split without the Unicode pattern) and any text give the spans of the Unicode word pattern', () => {
  const ascii = fc
    .array(fc.oneof(fc.constantFrom('redis', 'Redis', 'x1', 'token_s', 'limiter2', 'tokens', '_', '9'), fc.string()), {
      maxLength: 40,
    })
    .map((p) => p.join(' ').replace(/[^\x00-\x7f]/g, ''));
  fc.assert(
    fc.property(fc.oneof(ascii, textArb), tokensArb, (text, tokens) => {
      assert.deepEqual(matchSpans(text, tokens), referenceSpans(text, tokens));
    }),
  );
});

test('a snippet asks for the spans only when the text is longer than the window', () => {
  let asked = 0;
  const spans = () => (asked++, []);
  assert.deepEqual(snippetLines('a\nb', spans, 2), { text: 'a\nb', firstLine: 0, truncated: false });
  assert.equal(asked, 0);
  assert.equal(snippetLines('a\nb\nc', spans, 2).truncated, true);
  assert.equal(asked, 1);
});
