/**
 * @module wakeup/usage.test
 * Usage counts: increments, reads, most-used listing, the in-memory fallback, a write that
 * gives up quickly (instead of blocking a hook) while another process holds the write lock, and the
 * usage journal (recall's uses without a palace write: read with the store's, folded into it).
 */
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createMemoryStore, openPalace, type Palace } from '../index.js';
import { openDatabase } from '../store/index.js';
import { foldUsageJournal, journalUsage, readUsage, recordUsage, topUsage } from './usage.js';

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

  it('journals uses without writing the palace; reads add them to the store counts; a fold moves them', async () => {
    const home = join(root, 'home');
    await recordUsage(palace, [{ kind: 'drawer', id: 'd1' }], 1_000);
    for (let i = 0; i < 4; i++) await recordUsage(palace, [{ kind: 'drawer', id: `hot${i % 2}` }], 1_500);
    const db = join(home, 'palace.db');
    const sig = () => ['', '-wal'].map((x) => statSync(db + x, { throwIfNoEntry: false })?.mtimeMs ?? 'absent');
    const before = sig();
    assert.equal(
      journalUsage(
        home,
        [
          { kind: 'drawer', id: 'd1' },
          { kind: 'drawer', id: 'd1' },
        ],
        2_000,
      ),
      1,
    );
    journalUsage(
      home,
      [
        { kind: 'drawer', id: 'd1' },
        { kind: 'memory', path: '/m/a.md' },
      ],
      3_000,
    );
    journalUsage(home, [{ kind: 'drawer', id: 'd1' }], 4_000);
    assert.deepEqual(sig(), before, 'no palace write');
    appendFileSync(join(home, 'usage', 'pending.jsonl'), '{"at":"2026-01-01T00:00:00.000Z","ite'); // a torn line
    const expect = async () => {
      const keys = ['drawer:d1', 'memory:/m/a.md', 'drawer:hot0'];
      const u = await readUsage(palace, keys);
      assert.deepEqual(
        keys.map((k) => [u.get(k)?.uses, u.get(k)?.lastUsed]),
        [
          [4, new Date(4_000).toISOString()],
          [1, new Date(3_000).toISOString()],
          [2, new Date(1_500).toISOString()],
        ],
      );
      assert.deepEqual(
        (await topUsage(palace, 'drawer:', 2)).map((r) => [r.item, r.uses]),
        [
          ['drawer:d1', 4],
          ['drawer:hot0', 2],
        ],
      );
    };
    await expect();
    assert.equal(await foldUsageJournal(palace), 3, 'three whole lines folded, the torn one dropped');
    assert.deepEqual(readdirSync(join(home, 'usage')), [], 'the journal is gone');
    await expect();
    assert.equal(await foldUsageJournal(palace), 0);
  });

  it('a fold takes the journal of a dead process, and puts back what a busy store refused', async () => {
    const home = join(root, 'home');
    const dir = join(home, 'usage');
    mkdirSync(dir, { recursive: true });
    // Left by a fold that died (no such pid), and a live process's (this one's parent: never taken).
    writeFileSync(
      join(dir, 'folding-999999999-abcdef.jsonl'),
      '{"at":"1970-01-01T00:00:01.000Z","items":["drawer:x"]}\n',
    );
    writeFileSync(
      join(dir, `folding-${process.ppid}-abcdef.jsonl`),
      '{"at":"1970-01-01T00:00:01.000Z","items":["drawer:y"]}\n',
    );
    journalUsage(home, [{ kind: 'drawer', id: 'x' }], 2_000);
    const other = openDatabase(join(home, 'palace.db'));
    other.prepare('BEGIN IMMEDIATE').run();
    try {
      assert.equal(await foldUsageJournal(palace, 20), 0);
    } finally {
      other.prepare('ROLLBACK').run();
      other.close();
    }
    assert.deepEqual(readdirSync(dir).sort(), [`folding-${process.ppid}-abcdef.jsonl`, 'pending.jsonl']);
    assert.equal((await readUsage(palace, ['drawer:x'])).get('drawer:x')?.uses, 2, 'nothing lost');
    assert.equal(await foldUsageJournal(palace), 2);
    assert.equal((await palace.store.readUsage(['drawer:x']))[0]?.uses, 2);
    assert.deepEqual(readdirSync(dir), [`folding-${process.ppid}-abcdef.jsonl`]);
  });
});
