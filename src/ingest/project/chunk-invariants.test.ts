/**
 * @module ingest/project/chunk-invariants.test
 * Test helper (no tests of its own; named `.test.ts` so the build leaves it out): asserts every
 * invariant a chunk list must hold for its source text.
 */
import assert from 'node:assert/strict';
import type { Chunk, ChunkOptions } from './index.js';

/** Source lines with the offsets of each line's content. */
function sourceLines(text: string): { text: string; start: number; end: number }[] {
  const out: { text: string; start: number; end: number }[] = [];
  let pos = 0;
  for (;;) {
    const nl = text.indexOf('\n', pos);
    const e = nl < 0 ? text.length : nl;
    const ce = e > pos && text[e - 1] === '\r' ? e - 1 : e;
    out.push({ text: text.slice(pos, ce), start: pos, end: ce });
    if (nl < 0) return out;
    pos = nl + 1;
  }
}

/** Asserts every invariant of a chunk list for `text`; returns nothing, throws on the first failure. */
export function checkChunks(rel: string, text: string, chunks: Chunk[], o: Required<ChunkOptions>): void {
  const lines = sourceLines(text);
  const covered: [number, number][][] = lines.map(() => []);
  let prevStart = 0;
  chunks.forEach((c, k) => {
    assert.equal(c.index, k, 'indexes are sequential');
    assert.ok(c.text.trim() !== '', `chunk ${k} is not blank`);
    assert.ok(
      c.lineStart >= 1 && c.lineEnd >= c.lineStart && c.lineEnd <= lines.length,
      `chunk ${k} line range ${c.lineStart}-${c.lineEnd} is valid`,
    );
    assert.ok(c.lineStart >= prevStart, 'chunks are in document order');
    prevStart = c.lineStart;
    const first = lines[c.lineStart - 1]!;
    const last = lines[c.lineEnd - 1]!;
    if (c.colStart === undefined) {
      assert.equal(
        c.text,
        text.slice(first.start, last.end),
        `chunk ${k} is exactly lines ${c.lineStart}-${c.lineEnd}`,
      );
      assert.deepEqual(
        c.text.split(/\r?\n/),
        lines.slice(c.lineStart - 1, c.lineEnd).map((l) => l.text),
      );
      assert.ok(first.text.trim() !== '' && last.text.trim() !== '', `chunk ${k} starts and ends on non-blank lines`);
      for (let i = c.lineStart - 1; i < c.lineEnd; i++) covered[i]!.push([0, lines[i]!.text.length]);
    } else {
      assert.equal(c.lineStart, c.lineEnd, 'a partial chunk stays on one line');
      assert.equal(c.text, first.text.slice(c.colStart, c.colEnd), `partial chunk ${k} is exactly its columns`);
      covered[c.lineStart - 1]!.push([c.colStart, c.colEnd!]);
    }
    assert.ok(
      c.text.length <= o.maxChars + o.minChars,
      `chunk ${k} (${c.text.length} chars) within maxChars ${o.maxChars} + minChars ${o.minChars}`,
    );
  });
  lines.forEach((l, i) => {
    for (let x = 0; x < l.text.length; x++) {
      if (/\s/.test(l.text[x]!)) continue;
      assert.ok(
        covered[i]!.some(([a, b]) => x >= a && x < b),
        `${rel}: line ${i + 1} col ${x} (${JSON.stringify(l.text.slice(x, x + 20))}) is covered`,
      );
    }
  });
}
