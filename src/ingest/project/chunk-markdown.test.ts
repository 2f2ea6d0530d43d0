/** @module ingest/project/chunk-markdown.test — markdown, reStructuredText and plain-text segmentation. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { chunkDocument } from './index.js';
import { checkChunks } from './chunk-invariants.test.js';

const SMALL = { targetChars: 120, maxChars: 240, overlapChars: 40, minChars: 10 };

describe('markdown chunking', () => {
  it('splits at headings and carries the heading path', () => {
    const md = [
      '# Loci',
      '',
      'Local memory for agents. '.repeat(4),
      '',
      '## Install',
      '',
      'Run the installer with npm and wait. '.repeat(3),
      '',
      '### Offline',
      '',
      'Set the skip flag before installing. '.repeat(3),
      '',
      '## Usage',
      '',
      'Mine a folder, then search it. '.repeat(3),
    ].join('\n');
    const c = chunkDocument('README.md', md, SMALL);
    assert.deepEqual(
      c.map((x) => [x.heading, x.text.split('\n')[0]]),
      [
        ['Loci', '# Loci'],
        ['Loci › Install', '## Install'],
        ['Loci › Install › Offline', '### Offline'],
        ['Loci › Usage', '## Usage'],
      ],
    );
    assert.ok(c.every((x) => x.kind === 'markdown'));
  });

  it('packs small sections together until half of targetChars, then breaks at a heading', () => {
    const md = ['# A', 'a', '## B', 'b', '## C', 'c', '## D', 'd '.repeat(40), '## E', 'e'].join('\n\n');
    const c = chunkDocument('x.md', md, { targetChars: 100, maxChars: 200, minChars: 0 });
    assert.equal(c[0]!.text.startsWith('# A') && c[0]!.text.includes('## C'), true, 'A, B, C share a chunk');
    assert.ok(
      c.some((x) => x.text.startsWith('## D')),
      'D starts a chunk',
    );
  });

  it('keeps a heading with the block below it, and consecutive headings together', () => {
    const md = [
      'Intro text that fills the first chunk nicely. '.repeat(2),
      '# Title',
      '## Sub',
      'Body under sub.',
    ].join('\n\n');
    const c = chunkDocument('x.md', md, { targetChars: 100, maxChars: 200, minChars: 0 });
    const withTitle = c.find((x) => x.text.includes('# Title'))!;
    assert.ok(withTitle.text.includes('## Sub') && withTitle.text.includes('Body under sub.'));
    assert.equal(withTitle.heading, 'Title');
  });

  it('recognises setext headings and YAML front matter', () => {
    const md = [
      '---',
      'title: Notes',
      'date: 2024-03-05',
      '---',
      '',
      'Guide',
      '=====',
      '',
      'Text one.',
      '',
      'Part two',
      '--------',
      '',
      'Text two.',
    ].join('\n');
    const c = chunkDocument('notes.md', md, { targetChars: 20, maxChars: 60, minChars: 0 });
    assert.equal(c[0]!.text, '---\ntitle: Notes\ndate: 2024-03-05\n---');
    assert.equal(c[0]!.heading, undefined);
    assert.deepEqual(
      c.slice(1).map((x) => x.heading),
      ['Guide', 'Guide › Part two'],
    );
  });

  it('never splits a fenced code block that fits maxChars, even with blank lines inside', () => {
    const fence = ['```ts', 'function a() {', '', '  return 1;', '', '}', '```'].join('\n');
    const md = ['# Code', 'Some words before the fence, quite a few of them.', fence, 'After.'].join('\n\n');
    const c = chunkDocument('x.md', md, { targetChars: 40, maxChars: 100, minChars: 0 });
    const holder = c.filter((x) => x.text.includes('function a'));
    assert.equal(holder.length, 1);
    assert.ok(holder[0]!.text.includes(fence));
  });

  it('fences never split (property)', () => {
    const block = fc.oneof(
      fc
        .integer({ min: 1, max: 12 })
        .map((n) =>
          [
            '```js',
            ...Array.from({ length: n }, (_, i) => (i % 3 === 2 ? '' : `  stmt(${i}); // # not a heading`)),
            '```',
          ].join('\n'),
        ),
      fc.integer({ min: 1, max: 30 }).map((n) => 'Words of a paragraph. '.repeat(n)),
      fc.constantFrom('# H1', '## H2', '### H3', '- item one\n- item two', 'Setext\n---'),
    );
    fc.assert(
      fc.property(fc.array(block, { maxLength: 25 }), fc.constantFrom('\n\n', '\n'), (blocks, sep) => {
        const md = blocks.join(sep);
        const opts = { targetChars: 150, maxChars: 400, overlapChars: 60, minChars: 20 };
        const chunks = chunkDocument('doc.md', md, opts);
        checkChunks('doc.md', md, chunks, { ...opts });
        const lines = md.split('\n');
        for (let i = 0; i < lines.length; i++) {
          if (!lines[i]!.startsWith('```js')) continue;
          let j = i + 1;
          while (lines[j] !== '```') j++;
          const size = lines.slice(i, j + 1).join('\n').length;
          if (size > opts.maxChars) continue;
          for (const c of chunks) {
            const touches = c.lineStart - 1 <= j && c.lineEnd - 1 >= i;
            if (touches)
              assert.ok(
                c.lineStart - 1 <= i && c.lineEnd - 1 >= j,
                `chunk ${c.lineStart}-${c.lineEnd} contains the whole fence ${i + 1}-${j + 1}`,
              );
          }
          i = j;
        }
      }),
      { numRuns: 300 },
    );
  });

  it('cuts a fence larger than maxChars, with overlap', () => {
    const fence = ['```', ...Array.from({ length: 80 }, (_, i) => `row ${i} of generated output`), '```'].join('\n');
    const c = chunkDocument('log.md', fence, { targetChars: 300, maxChars: 600, overlapChars: 60 });
    assert.ok(c.length > 3);
    assert.ok(c.every((x) => x.text.length <= 600));
  });

  it('reads reStructuredText titles (underline and overline)', () => {
    const rst = [
      '=====',
      'Guide',
      '=====',
      '',
      'Intro.',
      '',
      'Install',
      '-------',
      '',
      'Steps.',
      '',
      'Deep',
      '~~~~',
      '',
      'More.',
    ].join('\n');
    const c = chunkDocument('guide.rst', rst, { targetChars: 10, maxChars: 60, minChars: 0 });
    assert.deepEqual(
      c.map((x) => x.heading),
      ['Guide', 'Guide › Install', 'Guide › Install › Deep'],
    );
  });

  it('treats .txt with markdown headings as markdown, and without as text', () => {
    assert.equal(chunkDocument('a.txt', '# Title\n\nBody.')[0]!.kind, 'markdown');
    assert.equal(chunkDocument('a.txt', 'Just words.\n\nMore words.')[0]!.kind, 'text');
    assert.equal(chunkDocument('a.txt', 'Just words.')[0]!.heading, undefined);
  });

  it('packs plain-text paragraphs and cuts a huge one at sentence-ending lines', () => {
    const para = Array.from({ length: 30 }, (_, i) =>
      i % 4 === 3 ? `end of sentence ${i}.` : `a wrapped line number ${i}`,
    ).join('\n');
    const c = chunkDocument('essay.txt', para, { targetChars: 200, maxChars: 400, overlapChars: 0 });
    assert.ok(c.length > 2);
    for (const x of c.slice(0, -1)) assert.match(x.text, /\.$/, 'pieces end where a sentence ends');
  });
});
