/** @module ingest/convos/jsonl.test */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isLociError } from '../../core/errors.js';
import { readCompleteLines } from './index.js';

const enc = (s: string) => new TextEncoder().encode(s);

describe('readCompleteLines', () => {
  it('gives the lines of decoding the whole chunk and splitting it, for any bytes (decoded line by line)', () => {
    // Reference: the former implementation (one decode of the chunk, split on \n, one trailing \r dropped).
    const reference = (buf: Buffer, from: number) => {
      const end = buf.lastIndexOf(0x0a) + 1;
      if (end <= from) return [];
      const lines = buf.toString('utf8', from, end).split('\n');
      lines.pop();
      return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
    };
    const pieces = ['{"a":1}', 'é', '日本', '\r', '\n', '\n', '\r\n', 'x', ' ', '\u{1F600}'];
    const bad = [Buffer.from([0xc3]), Buffer.from([0xff]), Buffer.from([0xe6, 0x97]), Buffer.from([0x0d])];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 300; round++) {
      const parts: Buffer[] = [];
      for (let i = Math.floor(next() * 30); i > 0; i--)
        parts.push(
          next() < 0.1 ? bad[Math.floor(next() * bad.length)]! : Buffer.from(pieces[Math.floor(next() * 10)]!),
        );
      const buf = Buffer.concat(parts);
      const from = Math.floor(next() * 3) === 0 ? 0 : Math.min(buf.length, Math.floor(next() * buf.length));
      assert.deepEqual(readCompleteLines(buf, from).lines, reference(buf, from), JSON.stringify([...buf]));
      assert.deepEqual(readCompleteLines(new Uint8Array(buf), from).lines, reference(buf, from));
    }
  });

  it('returns complete lines and stops before an incomplete last line', () => {
    const buf = enc('{"a":1}\n{"b":2}\n{"c":');
    const r = readCompleteLines(buf, 0);
    assert.deepEqual(r.lines, ['{"a":1}', '{"b":2}']);
    assert.equal(r.nextOffset, 16);
    assert.equal(r.invalidUtf8Lines, 0);
    // the writer finishes the line: the next read starts where the last stopped
    const grown = enc('{"a":1}\n{"b":2}\n{"c":3}\n');
    const r2 = readCompleteLines(grown, r.nextOffset);
    assert.deepEqual(r2.lines, ['{"c":3}']);
    assert.equal(r2.nextOffset, grown.length);
  });

  it('returns nothing when no complete line follows the offset', () => {
    const buf = enc('{"a":1}\n{"b"');
    assert.deepEqual(readCompleteLines(buf, 8), { lines: [], nextOffset: 8, invalidUtf8Lines: 0 });
    assert.deepEqual(readCompleteLines(buf, buf.length).lines, []);
  });

  it('strips CR of CRLF line ends and keeps empty lines', () => {
    const r = readCompleteLines(enc('a\r\n\r\nb\n'), 0);
    assert.deepEqual(r.lines, ['a', '', 'b']);
  });

  it('decodes invalid UTF-8 with U+FFFD and counts the lines that had it', () => {
    const good = enc('{"t":"ok é"}\n');
    const bad = new Uint8Array([...enc('{"t":"x'), 0xff, 0xfe, ...enc('"}\n')]);
    const buf = new Uint8Array([...good, ...bad, ...good]);
    const r = readCompleteLines(buf, 0);
    assert.equal(r.lines.length, 3);
    assert.equal(r.invalidUtf8Lines, 1);
    assert.ok(r.lines[1]!.includes('\uFFFD'));
    assert.equal(r.lines[0], '{"t":"ok é"}');
    assert.doesNotThrow(() => JSON.parse(r.lines[1]!));
  });

  it('does not split a multi-byte character at the offset boundary it returns', () => {
    const buf = enc('{"t":"日本"}\n{"t":"語');
    const r = readCompleteLines(buf, 0);
    assert.deepEqual(r.lines, ['{"t":"日本"}']);
    assert.equal(r.nextOffset, enc('{"t":"日本"}\n').length);
  });

  it('handles a line longer than 1 MB', () => {
    const long = `{"t":"${'x'.repeat(1_200_000)}"}`;
    const buf = enc(`${long}\n{"u":1}\n`);
    const r = readCompleteLines(buf, 0);
    assert.equal(r.lines.length, 2);
    assert.equal(r.lines[0]!.length, long.length);
  });

  it('rejects an offset outside the buffer with INVALID_ARGUMENT', () => {
    const buf = enc('a\n');
    for (const bad of [-1, 3, 1.5, Number.NaN]) {
      assert.throws(
        () => readCompleteLines(buf, bad),
        (e) => isLociError(e, 'INVALID_ARGUMENT'),
      );
    }
  });
});
