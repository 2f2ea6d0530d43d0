/**
 * @module store/sqlite/usage.test
 * Usage writes on SQLite give up quickly (instead of blocking a hook) while another connection holds
 * the write lock, and leave the connection's busy timeout as it was.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openDatabase } from './driver.js';
import { createSqliteStore } from './drawer-store.js';

const dir = mkdtempSync(join(tmpdir(), 'loci-usage-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a usage write is skipped (0) while another connection holds the write lock; busy timeout kept', async () => {
  const path = join(dir, 'palace.db');
  const db = openDatabase(path, { busyTimeoutMs: 5_000 });
  const store = createSqliteStore(db, { path });
  const other = openDatabase(path);
  other.prepare('BEGIN IMMEDIATE').run();
  try {
    assert.equal(await store.recordUsage(['drawer:d1'], '2026-01-01T00:00:00.000Z', { waitMs: 50 }), 0);
    assert.equal(db.pragma('busy_timeout', { simple: true }), 5_000, 'the connection keeps its busy timeout');
  } finally {
    other.prepare('ROLLBACK').run();
    other.close();
  }
  assert.equal(await store.recordUsage(['drawer:d1'], '2026-01-01T00:00:00.000Z', { waitMs: 50 }), 1);
  assert.deepEqual(await store.readUsage(['drawer:d1']), [
    { item: 'drawer:d1', uses: 1, lastUsed: '2026-01-01T00:00:00.000Z' },
  ]);
  await store.close();
});
