/**
 * @module hooks/queue.test
 * Job files and the worker lock: atomic jobs, O_EXCL lock, live vs stale holders, release.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import {
  acquireLock,
  enqueue,
  heartbeat,
  lockIsLive,
  lockPath,
  LOCK_STALE_MS,
  queuedFiles,
  readJob,
  readLock,
  releaseLock,
} from './queue.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'loci-queue-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('archive queue', () => {
  it('writes one JSON file per job, listed oldest first, temp files excluded', () => {
    const a = enqueue(home, { event: 'stop', transcript: '/t/a.jsonl', sessionId: 's', cwd: '/p', flush: false });
    const b = enqueue(home, { event: 'session-end', transcript: '/t/a.jsonl', sessionId: 's', cwd: '/p', flush: true });
    writeFileSync(join(home, 'queue', '.x.json.123.tmp'), '{');
    assert.deepEqual(queuedFiles(home), [a, b].sort());
    const j = readJob(b)!;
    assert.equal(j.flush, true);
    assert.equal(j.attempts, 0);
    assert.equal(j.event, 'session-end');
  });

  it('moves a corrupt job to queue/failed', () => {
    mkdirSync(join(home, 'queue'), { recursive: true });
    const f = join(home, 'queue', '00000000000001-1-aa.json');
    writeFileSync(f, 'not json');
    assert.equal(readJob(f), undefined);
    assert.equal(existsSync(f), false);
    assert.equal(readFileSync(join(home, 'queue', 'failed', '00000000000001-1-aa.json'), 'utf8'), 'not json');
  });
});

describe('worker lock', () => {
  it('is exclusive while its holder lives, and released by its holder only', () => {
    assert.equal(acquireLock(home), true);
    const held = readLock(home)!;
    assert.equal(held.pid, process.pid);
    assert.equal(lockIsLive(held), true);
    assert.equal(acquireLock(home), false, 'a second acquire fails while the holder is alive');
    heartbeat(home);
    assert.ok(readLock(home)!.beat >= held.beat);
    releaseLock(home);
    assert.equal(existsSync(lockPath(home)), false);
  });

  it('takes over a lock whose pid is dead or whose heartbeat is older than 10 minutes', () => {
    mkdirSync(join(home, 'locks'), { recursive: true });
    writeFileSync(lockPath(home), JSON.stringify({ pid: 2 ** 22 + 12345, startedAt: Date.now(), beat: Date.now() }));
    assert.equal(lockIsLive(readLock(home)), false);
    assert.equal(acquireLock(home), true);
    releaseLock(home);
    const old = Date.now() - LOCK_STALE_MS - 1000;
    writeFileSync(lockPath(home), JSON.stringify({ pid: process.ppid, startedAt: old, beat: old }));
    assert.equal(acquireLock(home), true);
    assert.equal(readLock(home)!.pid, process.pid);
    releaseLock(home);
  });

  it('never releases a lock held by another process', () => {
    mkdirSync(join(home, 'locks'), { recursive: true });
    writeFileSync(lockPath(home), JSON.stringify({ pid: process.ppid, startedAt: Date.now(), beat: Date.now() }));
    releaseLock(home);
    assert.equal(existsSync(lockPath(home)), true);
  });
});
