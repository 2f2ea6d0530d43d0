import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isStopword, queryTokens, searchColumn, tokenize } from './tokenize.js';

const WORD = /[\p{L}\p{N}\p{M}]+/gu;

test('Latin text: lower-case, diacritics folded, stemmed, camelCase parts', () => {
  assert.deepEqual(tokenize('The openPalace() — Café résumé, running HTTPServer drawer_id'), [
    'the',
    'openpalac',
    'open',
    'palac',
    'cafe',
    'resum',
    'run',
    'httpserver',
    'http',
    'server',
    'drawer',
    'id',
  ]);
  assert.deepEqual(tokenize('running', { stem: false }), ['running']);
});

test('Chinese: segmenter words plus every Han bigram, so 模块 is found', () => {
  const t = tokenize('我们决定把认证模块迁移到OAuth2');
  for (const w of ['认证', '模块', '迁移', 'oauth2']) assert.ok(t.includes(w), w);
  assert.deepEqual(queryTokens('认证'), ['认证']);
});

test('Japanese: kana and kanji words', () => {
  const t = tokenize('私たちは認証モジュールをOAuth2に移行することに決めました');
  for (const w of ['認証', 'モジュール', '移行', 'oauth2']) assert.ok(t.includes(w), w);
});

test('queries drop stop-words and question words unless nothing else is left', () => {
  assert.deepEqual(queryTokens('When did Caroline go to the LGBTQ support group?'), [
    'carolin',
    'go',
    'lgbtq',
    'support',
    'group',
  ]);
  assert.deepEqual(queryTokens('what is it'), ['what', 'is', 'it']);
});

test('property: the fast path equals the general Unicode path on any text', () => {
  // The general path: every regex word through the same per-word rules.
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom(...'aZ9 _-.é認証모듈ü›—\n'.split('')), maxLength: 60 }), (s) => {
      const general = [...s.matchAll(WORD)].flatMap((m) => tokenize(m[0]));
      assert.deepEqual(tokenize(s), general);
    }),
  );
});

test('property: tokenising is idempotent on its own output', () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 80 }), (s) => {
      const once = tokenize(s, { stem: false });
      assert.deepEqual(
        tokenize(once.join(' '), { stem: false }),
        once.filter((t) => t.length > 0),
      );
    }),
  );
  assert.equal(searchColumn('Hello World'), 'hello world');
});

test('property: searchColumn (cached runs) equals the joined tokens, stemmed or not, on repeated text', () => {
  const unit = fc.constantFrom(...'aZ9 _-.é認証모듈ü›—\nOpenPalaceHTTPServer'.split(''));
  fc.assert(
    fc.property(fc.array(fc.string({ unit, maxLength: 40 }), { maxLength: 4 }), (parts) => {
      // The same runs again: the second pass is served from the run cache.
      const text = parts.join(' ') + ' ' + parts.join('\n');
      for (const stem of [true, false]) {
        assert.equal(searchColumn(text, { stem }), tokenize(text, { stem }).join(' '));
        assert.equal(searchColumn(text, { stem }), tokenize(text, { stem }).join(' '));
      }
    }),
    { numRuns: 500 },
  );
  assert.equal(searchColumn('— … ›'), '');
  assert.equal(searchColumn('runningServer — running'), 'runningserv run server run');
});

test('property: searchColumn of pieces equals searchColumn of the pieces joined by newlines', () => {
  // Mining passes [text, indexExtra] instead of building `${text}\n${indexExtra}`; a run may end at a
  // piece's last character (the scan must stop there, not read past the end).
  const unit = fc.constantFrom(...'aZ9 _-.é認証모듈\nrunningServer'.split(''));
  fc.assert(
    fc.property(fc.array(fc.string({ unit, maxLength: 30 }), { minLength: 1, maxLength: 4 }), (pieces) => {
      for (const stem of [true, false]) {
        const want = tokenize(pieces.join('\n'), { stem }).join(' ');
        assert.equal(searchColumn(pieces, { stem }), want);
        assert.equal(searchColumn(pieces.join('\n'), { stem }), want);
      }
    }),
    { numRuns: 500 },
  );
  assert.equal(searchColumn(['openPalace', 'src/a.ts']), 'openpalac open palac src a ts');
});

test('property: queries split ASCII text as the Unicode word pattern does, on any text', () => {
  const reference = (q: string) => {
    const all: string[] = [];
    const kept: string[] = [];
    for (const m of q.matchAll(WORD)) {
      const t = tokenize(m[0]);
      all.push(...t);
      if (!isStopword(m[0])) kept.push(...t);
    }
    return [...new Set(kept.length ? kept : all)];
  };
  const part = fc.constantFrom(
    'Why',
    'the',
    'openPalace',
    'HTTPServer',
    'redis',
    'x9',
    '2024',
    'drawer_id',
    ' ',
    '-',
    '?',
  );
  const ascii = fc.array(fc.oneof(part, fc.string()), { maxLength: 20 }).map((p) => p.join(' '));
  fc.assert(fc.property(fc.oneof(ascii, fc.string()), (q) => assert.deepEqual(queryTokens(q), reference(q))));
});
