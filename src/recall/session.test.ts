/** @module recall/session.test — per-session recall state on disk: persistence, corruption, expiry, pruning. */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { fixedClock } from '../core/clock.js';
import type { Logger, LogLevel } from '../core/logger.js';
import { memoryFixture } from '../../test/fixtures/recall/support.js';
import { loadRecallSession, pruneRecallSessions, recordSurfaced, sessionBytesLeft, sessionPath } from './index.js';

let f: ReturnType<typeof memoryFixture>;
beforeEach(() => {
  f = memoryFixture();
});
afterEach(() => f.cleanup());

function memoryLogger(): Logger & { lines: { level: LogLevel; message: string; fields?: Record<string, unknown> }[] } {
  const lines: { level: LogLevel; message: string; fields?: Record<string, unknown> }[] = [];
  return { lines, log: (level, message, fields) => void lines.push({ level, message, ...(fields ? { fields } : {}) }) };
}

const DAY = 86_400_000;

describe('recall session state', () => {
  it('starts fresh, records, merges and persists across loads', () => {
    const id = '5b0c8f8e-1d2a-4c6b-9a57-0f4e2c1d9b7a';
    const s0 = loadRecallSession(f.home, id);
    assert.deepEqual(
      { surfaced: [...s0.surfaced], drawers: [...s0.drawers], bytes: s0.bytes, turns: s0.turns },
      { surfaced: [], drawers: [], bytes: 0, turns: 0 },
    );
    recordSurfaced(f.home, id, { files: ['a.md', 'b.md'], bytes: 1000 });
    const s2 = recordSurfaced(f.home, id, { files: ['b.md', 'c.md'], drawers: ['d1'], bytes: 500 });
    assert.deepEqual([...s2.surfaced], ['a.md', 'b.md', 'c.md']);
    const back = loadRecallSession(f.home, id);
    assert.deepEqual(
      { surfaced: [...back.surfaced], drawers: [...back.drawers], bytes: back.bytes, turns: back.turns },
      { surfaced: ['a.md', 'b.md', 'c.md'], drawers: ['d1'], bytes: 1500, turns: 2 },
    );
    const path = sessionPath(f.home, id);
    assert.equal(path, join(f.home, 'sessions', `${id}.json`));
    assert.equal(statSync(path).mode & 0o777, 0o600, 'private');
    assert.deepEqual(readdirSync(dirname(path)), [`${id}.json`], 'no temp files left behind');
    assert.equal(sessionBytesLeft(back), 61_440 - 1500);
    assert.equal(sessionBytesLeft(back, { sessionBytes: 1000 }), 0);
  });

  it('never lets an id escape the sessions folder', () => {
    for (const id of ['../../etc/passwd', '/abs', 'a/b', '.hidden', 'con\0', '']) {
      const p = sessionPath(f.home, id);
      assert.equal(dirname(p), join(f.home, 'sessions'), id);
      assert.match(p, /\/s-[0-9a-f]{32}\.json$/);
    }
    recordSurfaced(f.home, '../../x', { files: ['a.md'], bytes: 1 });
    assert.deepEqual([...loadRecallSession(f.home, '../../x').surfaced], ['a.md']);
  });

  it('reads a corrupt file as a fresh state and logs it; the next record repairs it', () => {
    const id = 'corrupt';
    for (const junk of [
      '{not json',
      '[]',
      '{"version":1,"surfaced":"a.md","bytes":3}',
      '{"version":9,"surfaced":[],"bytes":0,"updatedAt":"2025-01-01T00:00:00Z"}',
    ]) {
      mkdirSync(join(f.home, 'sessions'), { recursive: true });
      writeFileSync(sessionPath(f.home, id), junk);
      const log = memoryLogger();
      const s = loadRecallSession(f.home, id, { logger: log });
      assert.equal(s.bytes, 0);
      assert.equal(s.surfaced.size, 0);
      assert.equal(log.lines.length, 1, junk);
      assert.equal(log.lines[0]!.level, 'warn');
      assert.match(log.lines[0]!.message, /corrupt session state/);
    }
    recordSurfaced(f.home, id, { files: ['x.md'], bytes: 10 });
    assert.equal(JSON.parse(readFileSync(sessionPath(f.home, id), 'utf8')).bytes, 10);
  });

  it('treats a session untouched for more than 7 days as fresh, and prunes old files', () => {
    const start = Date.parse('2025-01-01T00:00:00Z');
    recordSurfaced(f.home, 'old', { files: ['a.md'], bytes: 100 }, { clock: fixedClock(start) });
    assert.equal(loadRecallSession(f.home, 'old', { clock: fixedClock(start + 6 * DAY) }).bytes, 100);
    assert.equal(loadRecallSession(f.home, 'old', { clock: fixedClock(start + 8 * DAY) }).bytes, 0);

    const old = new Date(Date.now() - 8 * DAY);
    utimesSync(sessionPath(f.home, 'old'), old, old);
    writeFileSync(join(f.home, 'sessions', '.stale.json.abc.tmp'), '');
    utimesSync(join(f.home, 'sessions', '.stale.json.abc.tmp'), old, old);
    recordSurfaced(f.home, 'recent', { files: ['b.md'], bytes: 1 });
    assert.equal(existsSync(sessionPath(f.home, 'old')), false, 'pruned when a new session starts');
    assert.equal(existsSync(join(f.home, 'sessions', '.stale.json.abc.tmp')), false);
    assert.equal(existsSync(sessionPath(f.home, 'recent')), true);
    assert.equal(pruneRecallSessions(f.home), 0);
    assert.equal(pruneRecallSessions(f.home, { clock: fixedClock(Date.now() + 8 * DAY) }), 1);
    assert.equal(pruneRecallSessions(join(f.root, 'no-home')), 0);
  });

  it('a failed write is logged, not thrown', () => {
    writeFileSync(join(f.home, 'sessions'), 'a file where the folder should be');
    const log = memoryLogger();
    const s = recordSurfaced(f.home, 'x', { files: ['a.md'], bytes: 5 }, { logger: log });
    assert.equal(s.bytes, 5);
    assert.ok(log.lines.some((l) => l.level === 'error' && /cannot write session state/.test(l.message)));
  });
});
