/**
 * @module mcp/install.test
 * Pieces of `loci mcp install`: shell quoting of the printed command and the PATH lookup.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { onPath, shellQuote } from './install.js';

test('shellQuote leaves plain words and quotes the rest', () => {
  assert.equal(shellQuote('/usr/bin/node'), '/usr/bin/node');
  assert.equal(shellQuote('LOCI_HOME=/a b'), "'LOCI_HOME=/a b'");
  assert.equal(shellQuote("it's"), `'it'\\''s'`);
  assert.equal(shellQuote(''), "''");
});

test('onPath finds only executable files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'loci-onpath-'));
  try {
    writeFileSync(join(dir, 'loci'), '#!/bin/sh\n');
    assert.equal(onPath('loci', { PATH: dir }), process.platform === 'win32');
    chmodSync(join(dir, 'loci'), 0o755);
    assert.equal(onPath('loci', { PATH: `/nonexistent:${dir}` }), true);
    assert.equal(onPath('loci', { PATH: '' }), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
