/**
 * @module wakeup/usage.test
 * Usage counts: increments, reads, most-used listing, the in-memory fallback, and a write that
 * gives up quickly (instead of blocking a hook) while another process holds the write lock.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createMemoryStore, openPalace, type Palace } from '../index.js';
import { openDatabase } from '../store/index.js';
import { readUsage, recordUsage, topUsage } from './usage.js';

let root: string;
let palace: Palace;
beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'loci-usage-'));
  palace = await openPalace({ home: join(root, 'home'), embedder: null });
});
afterEach(async () => {
  await palace.close();
  rmSync(root, { recursive: true, force: true });
});

describe('usage counts', () => {
  it('counts uses per item (once per call), reads them and lists the most used', async () => {
    await recordUsage(
      palace,
      [
        { kind: 'drawer', id: 'd1' },
        { kind: 'drawer', id: 'd1' },
        { kind: 'memory', path: '/m/a.md' },
      ],
      1_000,
    );
    await recordUsage(
      palace,
      [
        { kind: 'drawer', id: 'd1' },
        { kind: 'drawer', id: 'd2' },
      ],
      2_000,
    );
    const u = await readUsage(palace, ['drawer:d1', 'drawer:d2', 'memory:/m/a.md', 'drawer:none']);
    assert.deepEqual(
      [u.get('drawer:d1')?.uses, u.get('drawer:d2')?.uses, u.get('memory:/m/a.md')?.uses, u.has('drawer:none')],
      [2, 1, 1, false],
    );
    assert.equal(u.get('drawer:d1')?.lastUsed, new Date(2_000).toISOString());
    assert.deepEqual(
      (await topUsage(palace, 'drawer:', 10)).map((r) => r.item),
      ['drawer:d1', 'drawer:d2'],
    );
    assert.deepEqual(
      (await topUsage(palace, 'memory:', 10)).map((r) => r.item),
      ['memory:/m/a.md'],
    );
  });

  it('keeps counts in memory for a palace without SQLite', async () => {
    const mem = await openPalace({ home: join(root, 'mem'), store: createMemoryStore(), embedder: null });
    await recordUsage(mem, [{ kind: 'drawer', id: 'x' }]);
    await recordUsage(mem, [{ kind: 'drawer', id: 'x' }]);
    assert.equal((await readUsage(mem, ['drawer:x'])).get('drawer:x')?.uses, 2);
    await mem.close();
  });

  it('skips the write (returns 0) when another connection holds the write lock', async () => {
    const other = openDatabase(join(root, 'home', 'palace.db'));
    other.prepare('BEGIN IMMEDIATE').run();
    try {
      assert.equal(await recordUsage(palace, [{ kind: 'drawer', id: 'd1' }], Date.now(), 50), 0);
    } finally {
      other.prepare('ROLLBACK').run();
      other.close();
    }
    assert.equal(await recordUsage(palace, [{ kind: 'drawer', id: 'd1' }]), 1);
  });
});
