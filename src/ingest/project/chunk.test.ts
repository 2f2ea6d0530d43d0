/** @module ingest/project/chunk.test — invariants of the chunker (property-tested) and its options. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { chunkDocument, DEFAULT_CHUNK_OPTIONS, resolveChunkOptions, type ChunkOptions } from './index.js';
import { checkChunks } from './chunk-invariants.test.js';

const TOKENS = [
  'alpha',
  'beta',
  'gamma',
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  '"',
  "'",
  '`',
  '//',
  '/*',
  '*/',
  '#',
  '##',
  '---',
  '===',
  '```',
  '~~~',
  'def',
  'class',
  'function',
  'end',
  'else',
  '@dec',
  '- ',
  '1.',
  '> ',
  '|',
  '.',
  '。',
  '认证模块',
  '😀',
  '<!--',
  '-->',
  'x = 1;',
  '"""',
  ':',
  '=>',
  '\t',
  '  ',
  '\u3000',
  'A sentence.',
  'Done!',
];
const NAMES = [
  'a.md',
  'a.ts',
  'a.py',
  'a.txt',
  'a.rb',
  'a.yaml',
  'a.go',
  'a.rs',
  'README',
  'a.json',
  'a.rst',
  'a.sh',
  'a.html',
  'a.css',
  'x.unknown',
];

const lineArb = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom('', '   ', '\t') },
  {
    weight: 6,
    arbitrary: fc
      .tuple(fc.nat(8), fc.array(fc.constantFrom(...TOKENS), { maxLength: 12 }))
      .map(([ind, t]) => ' '.repeat(ind) + t.join(' ')),
  },
  { weight: 3, arbitrary: fc.array(fc.constantFrom(...TOKENS), { maxLength: 6 }).map((t) => t.join('')) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('word ', 'x', 'Sentence ends. ', '長い文。', '😀'), fc.integer({ min: 20, max: 400 }))
      .map(([w, n]) => w.repeat(n)),
  },
);

const docArb = fc.record({
  name: fc.constantFrom(...NAMES),
  lines: fc.array(lineArb, { maxLength: 120 }),
  eol: fc.constantFrom('\n', '\r\n', 'mixed'),
  trailing: fc.boolean(),
  target: fc.integer({ min: 8, max: 400 }),
  maxFactor: fc.constantFrom(1, 1.5, 2, 3),
  overlapShare: fc.constantFrom(0, 0.1, 0.25, 0.6),
  minShare: fc.constantFrom(0, 0.05, 0.2, 1),
});

describe('chunkDocument invariants (property)', () => {
  it('chunks are verbatim line ranges that cover every non-blank character', () => {
    fc.assert(
      fc.property(docArb, (d) => {
        const text = d.lines
          .map(
            (l, i) =>
              l +
              (i === d.lines.length - 1 && !d.trailing
                ? ''
                : d.eol === 'mixed'
                  ? i % 3 === 0
                    ? '\r\n'
                    : '\n'
                  : d.eol),
          )
          .join('');
        const opts = {
          targetChars: d.target,
          maxChars: Math.floor(d.target * d.maxFactor),
          overlapChars: Math.floor(d.target * d.overlapShare),
          minChars: Math.floor(d.target * d.minShare),
        };
        const chunks = chunkDocument(d.name, text, opts);
        if (text.trim() === '') assert.deepEqual(chunks, []);
        checkChunks(d.name, text, chunks, resolveChunkOptions(opts));
      }),
      { numRuns: 600 },
    );
  });

  it('holds with the default options on larger generated documents', () => {
    fc.assert(
      fc.property(fc.constantFrom(...NAMES), fc.array(lineArb, { minLength: 50, maxLength: 600 }), (name, lines) => {
        const text = lines.join('\n');
        checkChunks(name, text, chunkDocument(name, text), DEFAULT_CHUNK_OPTIONS);
      }),
      { numRuns: 150 },
    );
  });
});

describe('chunkDocument basics', () => {
  it('gives [] for empty and whitespace-only input', () => {
    for (const t of ['', ' ', '\n\n', ' \r\n\t\n', '\u3000\u00a0']) assert.deepEqual(chunkDocument('a.md', t), []);
  });

  it('keeps a tiny file as one chunk', () => {
    const c = chunkDocument('a.txt', '\n\n  ok\n\n');
    assert.equal(c.length, 1);
    assert.deepEqual([c[0]!.text, c[0]!.lineStart, c[0]!.lineEnd, c[0]!.kind], ['  ok', 3, 3, 'text']);
  });

  it('treats \\r\\n as a line end and keeps the text verbatim', () => {
    const text = 'First paragraph line one.\r\nline two.\r\n\r\nSecond paragraph.\r\n';
    const c = chunkDocument('a.txt', text, { targetChars: 30, minChars: 0 });
    assert.deepEqual(
      c.map((x) => [x.text, x.lineStart, x.lineEnd]),
      [
        ['First paragraph line one.\r\nline two.', 1, 2],
        ['Second paragraph.', 4, 4],
      ],
    );
  });

  it('uses no overlap when no block exceeds maxChars', () => {
    const text = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} ${'word '.repeat((i % 7) + 3)}`).join('\n\n');
    const c = chunkDocument('a.txt', text, { targetChars: 120, maxChars: 240, overlapChars: 50 });
    for (let k = 1; k < c.length; k++) assert.ok(c[k]!.lineStart > c[k - 1]!.lineEnd, 'ranges do not overlap');
    assert.ok(c.length > 5);
  });

  it('overlaps the pieces of a block larger than maxChars by whole lines', () => {
    const text = Array.from({ length: 60 }, (_, i) => `line ${i} of one long paragraph without blank lines`).join('\n');
    const c = chunkDocument('a.txt', text, { targetChars: 300, maxChars: 600, overlapChars: 120 });
    assert.ok(c.length > 3);
    for (let k = 1; k < c.length; k++) {
      assert.ok(c[k]!.lineStart <= c[k - 1]!.lineEnd, `piece ${k} repeats the end of piece ${k - 1}`);
      assert.ok(c[k]!.lineEnd > c[k - 1]!.lineEnd, 'every piece advances');
      const repeated = c[k - 1]!.lineEnd - c[k]!.lineStart + 1;
      assert.ok(repeated * 50 <= 120 + 50, 'overlap stays within overlapChars (whole lines)');
    }
  });

  it('cuts an overlong single line at sentence ends, never inside a surrogate pair', () => {
    const line = 'This is a sentence about memory. '.repeat(200) + '😀'.repeat(900);
    const c = chunkDocument('notes.txt', line, { targetChars: 500, maxChars: 1000, overlapChars: 0 });
    assert.ok(c.length > 5);
    for (const x of c) {
      assert.equal(x.lineStart, 1);
      assert.ok(x.colStart !== undefined && x.colEnd !== undefined);
      assert.ok(!/^[\udc00-\udfff]/.test(x.text) && !/[\ud800-\udbff]$/.test(x.text), 'no lone surrogate at the edges');
    }
    assert.ok(
      c.slice(0, 5).every((x) => x.text.endsWith('memory.')),
      'prose pieces end at a sentence',
    );
  });

  it('merges a tiny trailing piece into the previous chunk', () => {
    const text = `${'A full paragraph of reasonable length here. '.repeat(5)}\n\nok`;
    const c = chunkDocument('a.txt', text, { targetChars: 100, maxChars: 400, minChars: 40 });
    assert.equal(c.length, 1);
    assert.equal(c[0]!.lineEnd, 3);
  });

  it('validates options with INVALID_ARGUMENT naming the option', () => {
    const bad: ChunkOptions[] = [
      { targetChars: 0 },
      { targetChars: 100, maxChars: 50 },
      { overlapChars: -1 },
      { overlapChars: 1200 },
      { minChars: 5000 },
      { targetChars: 1.5 },
    ];
    for (const o of bad)
      assert.throws(
        () => chunkDocument('a.md', 'x', o),
        (e: Error & { code?: string }) => e.code === 'INVALID_ARGUMENT',
      );
    assert.deepEqual(resolveChunkOptions({ targetChars: 100 }), {
      targetChars: 100,
      maxChars: 2400,
      overlapChars: 25,
      minChars: 40,
    });
    assert.deepEqual(resolveChunkOptions(), DEFAULT_CHUNK_OPTIONS);
  });
});
