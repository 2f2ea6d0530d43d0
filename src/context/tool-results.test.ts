/** @module context/tool-results.test — persistence of large tool results, dedup and the ledger. */
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { isLociError } from '../core/errors.js';
import { sha256 } from '../core/hash.js';
import { createToolResultStore } from './tool-results.js';

test('a result over the limit is written once by content hash and previewed with its path', () => {
  const home = mkdtempSync(join(tmpdir(), 'loci-ctx-tr-'));
  try {
    const store = createToolResultStore({ home, maxResultSizeChars: 100, previewChars: 40 });
    const big = Array.from({ length: 50 }, (_, i) => `line ${i}`).join('\n');
    const a = store.add({ toolUseId: 'a', content: big, toolName: 'read' });
    const b = store.add({ toolUseId: 'b', content: big });
    const small = store.add({ toolUseId: 'c', content: 'short', isError: true });
    const path = join(home, 'tool-results', `${sha256(big)}.txt`);
    assert.deepEqual(readdirSync(join(home, 'tool-results')), [`${sha256(big)}.txt`], 'one file for two results');
    assert.equal(readFileSync(path, 'utf8'), big);
    assert.ok(a.content.includes(path) && a.content.includes('line 0') && !a.content.includes('line 49'));
    assert.equal(a.content, b.content);
    assert.deepEqual(small, { type: 'tool_result', toolUseId: 'c', content: 'short', isError: true });
    assert.equal(store.get('a')?.path, path);
    assert.equal(store.get('a')?.toolName, 'read');
    const t = store.totals();
    assert.equal(t.results, 3);
    assert.equal(t.persisted, 2);
    assert.equal(t.charsKeptOut, 2 * (big.length - a.content.length));
    store.markSummarised(['a', 'c']);
    assert.equal(store.totals().charsInMessages, b.content.length);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test(
  'an unwritable folder raises CONTEXT_RESULT_UNWRITABLE',
  { skip: process.getuid?.() === 0 && 'root ignores modes' },
  () => {
    const home = mkdtempSync(join(tmpdir(), 'loci-ctx-tr-'));
    try {
      mkdirSync(join(home, 'tool-results'));
      chmodSync(join(home, 'tool-results'), 0o500);
      const store = createToolResultStore({ home, maxResultSizeChars: 10 });
      assert.throws(
        () => store.add({ toolUseId: 'a', content: 'x'.repeat(100) }),
        (e) => isLociError(e, 'CONTEXT_RESULT_UNWRITABLE'),
      );
    } finally {
      chmodSync(join(home, 'tool-results'), 0o700);
      rmSync(home, { recursive: true, force: true });
    }
  },
);

test('a torn file (wrong size) left by a crash is rewritten; an intact one is reused', () => {
  const home = mkdtempSync(join(tmpdir(), 'loci-ctx-tr-'));
  try {
    const content = 'y'.repeat(500);
    const path = join(home, 'tool-results', `${sha256(content)}.txt`);
    mkdirSync(join(home, 'tool-results'));
    writeFileSync(path, 'y'.repeat(100));
    createToolResultStore({ home, maxResultSizeChars: 10 }).add({ toolUseId: 'a', content });
    assert.equal(readFileSync(path, 'utf8'), content);
    const inode = statSync(path).ino;
    createToolResultStore({ home, maxResultSizeChars: 10 }).add({ toolUseId: 'b', content });
    assert.equal(statSync(path).ino, inode, 'an intact file is not rewritten');
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
