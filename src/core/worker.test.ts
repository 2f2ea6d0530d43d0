/**
 * @module core/worker.test
 * A job that fails in a worker thread fails in the caller with a catalogue error: the worker's own
 * LociError (same code and details), or INTERNAL for anything else.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isLociError } from './errors.js';
import { createJobPool } from './worker.js';

const url = new URL('../../test/fixtures/worker/failing-jobs.ts', import.meta.url);

test('a job failing in a worker rejects with a catalogue error', async () => {
  const pool = createJobPool<string, string>(url, undefined, 1, (j) => j);
  try {
    assert.equal(await pool.run('hello'), 'hello');
    await assert.rejects(pool.run('loci'), (e: unknown) => {
      assert.ok(isLociError(e, 'PATH_NOT_FOUND'), String(e));
      assert.deepEqual(e.details, { path: '/nowhere' });
      return true;
    });
    await assert.rejects(pool.run('plain'), (e: unknown) => {
      assert.ok(isLociError(e, 'INTERNAL'), String(e));
      assert.match(e.message, /worker job failed: Error: boom/);
      return true;
    });
  } finally {
    await pool.close();
  }
});
