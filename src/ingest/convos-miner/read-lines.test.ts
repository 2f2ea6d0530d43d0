/** @module ingest/convos-miner/read-lines.test */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readCompleteLines } from '../convos/index.js';
import { withFile } from './file-io.js';
import { readLines, stubRecord } from './read-lines.js';

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

describe('readLines: bounded line reading (issue 11 defect 8)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'loci-lines-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };

  it('equals a whole read for ordinary lines, whatever the block boundaries', () => {
    const text =
      Array.from({ length: 300 }, (_, i) => `{"n":${i},"t":"${'é'.repeat(i % 37)}"}`).join('\n') + '\n{"cut":';
    const p = file('a.jsonl', text);
    const whole = readCompleteLines(Buffer.from(text), 0);
    for (const max of [90, 100, 257, 1000, 1 << 20]) {
      const r = withFile(p, (f) => readLines(f, 0, { maxLineBytes: max }));
      assert.deepEqual(r.lines, whole.lines, `max ${max}`);
      assert.equal(r.consumed, whole.nextOffset);
      assert.equal(r.hash, sha(Buffer.from(text).subarray(0, whole.nextOffset)));
      assert.deepEqual(r.huge, []);
    }
  });

  it('replaces a too-long line by a stub of its envelope keys, in any key order, and chains the hash', () => {
    const big = JSON.stringify({
      message: { content: [{ type: 'tool_result', content: 'z'.repeat(5000) }] },
      type: 'user',
      parentUuid: 'p1',
      uuid: 'u1',
      sessionId: 's1',
      timestamp: '2026-01-01T00:00:00.000Z',
    });
    const text = `{"a":1}\n${big}\n{"b":2}\n`;
    const p = file('b.jsonl', text);
    const r = withFile(p, (f) => readLines(f, 0, { maxLineBytes: 1024, chain: 'prev' }));
    assert.equal(r.lines.length, 3);
    assert.deepEqual(JSON.parse(r.lines[1]!), {
      type: 'user',
      uuid: 'u1',
      parentUuid: 'p1',
      sessionId: 's1',
      timestamp: '2026-01-01T00:00:00.000Z',
      message: { role: 'user', content: [] },
      payload: {},
    });
    assert.deepEqual(r.huge, [{ index: 1, bytes: big.length + 1 }]);
    assert.equal(r.consumed, Buffer.byteLength(text));
    assert.equal(r.hash, createHash('sha256').update('prev').update('\0').update(text).digest('hex'));
  });

  it('leaves a too-long line still being written unconsumed', () => {
    const text = `{"a":1}\n{"type":"user","x":"${'y'.repeat(5000)}`;
    const p = file('c.jsonl', text);
    const r = withFile(p, (f) => readLines(f, 0, { maxLineBytes: 1024 }));
    assert.deepEqual(r.lines, ['{"a":1}']);
    assert.equal(r.consumed, 8);
    assert.equal(r.hash, sha('{"a":1}\n'));
  });

  it('a line of unknown type becomes an empty line', () => {
    assert.equal(stubRecord('{"weird":"x"', '"more":1}'), '');
  });
});
