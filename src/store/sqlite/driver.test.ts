/**
 * @module store/sqlite/driver.test
 * Opening a palace database: the driver's addon is handed over by path (no `bindings` lookup), and the
 * settings of a connection are those the driver documents.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { nativeBinding, openDatabase } from './driver.js';

const dir = mkdtempSync(join(tmpdir(), 'loci-driver-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('the addon is found where the install builds it, and opening does not load the bindings package', () => {
  const addon = nativeBinding();
  assert.ok(addon && existsSync(addon), 'the addon path exists');
  assert.ok(addon.endsWith(['build', 'Release', 'better_sqlite3.node'].join(sep)));
  openDatabase(join(dir, 'a.db')).close();
  const loaded = Object.keys(createRequire(import.meta.url).cache);
  assert.ok(
    loaded.some((p) => p.includes(`${sep}better-sqlite3${sep}`)),
    'the driver is loaded through require',
  );
  assert.ok(!loaded.some((p) => p.includes(`${sep}bindings${sep}`)), 'the bindings package is not loaded');
});

test('a connection has its busy timeout, WAL, foreign keys, its cache and temp store in memory', () => {
  const db = openDatabase(join(dir, 'b.db'), { busyTimeoutMs: 4321 });
  assert.equal(db.pragma('busy_timeout', { simple: true }), 4321);
  assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
  assert.equal(db.pragma('synchronous', { simple: true }), 1, 'NORMAL');
  assert.equal(db.pragma('foreign_keys', { simple: true }), 1);
  assert.equal(db.pragma('cache_size', { simple: true }), -32000);
  assert.equal(db.pragma('temp_store', { simple: true }), 2, 'MEMORY');
  db.close();
  const ro = openDatabase(join(dir, 'b.db'), { readonly: true, busyTimeoutMs: 99 });
  assert.equal(ro.pragma('busy_timeout', { simple: true }), 99);
  assert.equal(ro.pragma('foreign_keys', { simple: true }), 1);
  ro.close();
});

test('one read of application id and schema version: foreign and newer databases are refused', async () => {
  const { default: Database } = await import('better-sqlite3');
  const foreign = new Database(join(dir, 'foreign.db'));
  foreign.exec('PRAGMA application_id = 42; CREATE TABLE t (x)');
  foreign.close();
  assert.throws(
    () => openDatabase(join(dir, 'foreign.db')),
    (e: { code?: string }) => e.code === 'DB_FOREIGN',
  );
  const newer = openDatabase(join(dir, 'newer.db'));
  newer.exec('PRAGMA user_version = 99');
  newer.close();
  assert.throws(
    () => openDatabase(join(dir, 'newer.db')),
    (e: { code?: string }) => e.code === 'DB_TOO_NEW',
  );
  const fresh = openDatabase(join(dir, 'fresh.db'));
  assert.equal(fresh.pragma('application_id', { simple: true }), 0x4c4f4349);
  fresh.close();
});
