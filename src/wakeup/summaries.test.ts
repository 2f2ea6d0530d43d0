/**
 * @module wakeup/summaries.test
 * Compaction summaries as drawers (moved out of the hook worker, issue 12): stored once per
 * session and text, in the project's wing (else `sessions`), room `summaries`, hall `summary`;
 * a blank summary stores nothing; the wake-up shows it under "Where we left off".
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { openPalace, type Palace } from '../palace/index.js';
import { createMemoryStore } from '../store/index.js';
import { storeCompactSummary, SUMMARY_ROOM, UNKNOWN_PROJECT_WING, type CompactSummary } from './summaries.js';
import { wakeUp } from './wake-up.js';

let root: string;
let palace: Palace;
beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'loci-summaries-'));
  palace = await openPalace({ home: join(root, 'home'), embedder: null, store: createMemoryStore() });
});
afterEach(async () => {
  await palace.close();
  rmSync(root, { recursive: true, force: true });
});

const summary = (o: Partial<CompactSummary> = {}): CompactSummary => ({
  text: 'Summary:\n1. Primary Request: move the wake-up into its own capability folder.',
  trigger: 'manual',
  sessionId: 's1',
  cwd: '/gone/acme',
  transcript: '/logs/s1.jsonl',
  date: '2025-06-01T10:00:00.000Z',
  ...o,
});

describe('storeCompactSummary', () => {
  it('stores a summary once, in the project wing, room summaries, hall summary', async () => {
    assert.equal(await storeCompactSummary(palace, summary()), true);
    assert.equal(await storeCompactSummary(palace, summary()), false, 'the same summary again is a no-op');
    const { drawers } = await palace.listDrawers({ wing: 'acme' }, { limit: 10 });
    assert.equal(drawers.length, 1);
    const d = drawers[0]!;
    assert.deepEqual(
      [d.room, d.hall, d.contentDate, d.addedBy],
      [SUMMARY_ROOM, 'summary', summary().date, 'loci-hook'],
    );
    assert.deepEqual(d.metadata, {
      kind: 'compact-summary',
      sessionId: 's1',
      trigger: 'manual',
      transcript: '/logs/s1.jsonl',
      cwd: '/gone/acme',
    });
  });

  it('a session without cwd goes to the sessions wing; a blank summary stores nothing', async () => {
    assert.equal(await storeCompactSummary(palace, summary({ cwd: null })), true);
    assert.equal((await palace.listDrawers({ wing: UNKNOWN_PROJECT_WING })).total, 1);
    assert.equal(await storeCompactSummary(palace, summary({ text: '  \n ' })), false);
  });

  it('the wake-up of the project reads it back under "Where we left off"', async () => {
    await storeCompactSummary(palace, summary());
    const r = await wakeUp({ palace, cwd: '/gone/acme', memoryDir: null, env: {} });
    assert.match(r.text, /move the wake-up into its own capability folder/);
  });
});
