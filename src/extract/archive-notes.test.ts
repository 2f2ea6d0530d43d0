/** @module extract/archive-notes.test */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPalace } from '../palace/index.js';
import { archiveSessionNotes } from './project.js';

test('archiveSessionNotes keeps one drawer per session: a new version replaces the earlier ones', async () => {
  const home = mkdtempSync(join(tmpdir(), 'loci-notes-archive-'));
  const palace = await openPalace({ home });
  try {
    const base = { cwd: null, transcript: '/t/s.jsonl', date: '2026-12-01T10:00:00.000Z' };
    assert.equal(await archiveSessionNotes(palace, { ...base, sessionId: 's1', notes: '# State\nstep 1' }), true);
    assert.equal(
      await archiveSessionNotes(palace, { ...base, sessionId: 's2', notes: '# State\nother session' }),
      true,
    );
    assert.equal(await archiveSessionNotes(palace, { ...base, sessionId: 's1', notes: '# State\nstep 2' }), true);
    assert.equal(await archiveSessionNotes(palace, { ...base, sessionId: 's1', notes: '# State\nstep 2' }), false);
    const { drawers } = await palace.listDrawers({ room: 'session-notes' });
    const texts = drawers.map((d) => d.text).sort();
    assert.deepEqual(texts, ['# State\nother session', '# State\nstep 2']);
  } finally {
    await palace.close();
    rmSync(home, { recursive: true, force: true });
  }
});
