/**
 * @module test/torture/convos-corrupt-line
 * Found by the torture suite (issue 11): a Claude Code transcript with one broken line in the
 * middle (a record cut short, then more records appended — what a writer killed mid-line leaves)
 * is archived differently when it is mined while it grows than when the final file is mined once.
 * The well-formed case is checked too (it holds today). In-process, so it is quick.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPalace } from '../../src/index.js';
import { generateClaudeSession } from '../fixtures/convos/generate-claude-session.js';
import { drawerRows } from './support.js';

/**
 * Mines `text` grown in `steps` appends (cut mid-line, `skip` bytes lost at each cut) and once at the end; returns both
 * row lists.
 */
async function incrementalVsOnce(
  text: string,
  steps: number,
  skip: number,
): Promise<{ grown: string[]; once: string[] }> {
  const root = mkdtempSync(join(tmpdir(), 'loci-torture-corrupt-'));
  try {
    const file = join(root, 'claude', 'projects', '-home-dev-app', 'session.jsonl');
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, '');
    const grownHome = join(root, 'grown');
    let at = 0;
    for (let s = 0; s < steps; s++) {
      const to = s === steps - 1 ? text.length : Math.floor((text.length * (s + 1)) / steps) - 7;
      appendFileSync(file, text.slice(at, to));
      at = to + skip;
      const p = await openPalace({ home: grownHome, embedder: null });
      await p.mine(file, { mode: 'convos' });
      await p.close();
    }
    const onceHome = join(root, 'once');
    const p = await openPalace({ home: onceHome, embedder: null });
    await p.mine(file, { mode: 'convos' });
    await p.close();
    return { grown: drawerRows(grownHome), once: drawerRows(onceHome) };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

test('a transcript mined while it grows (cut mid-line) equals one mine of the final file', async () => {
  const r = await incrementalVsOnce(generateClaudeSession(400, 42), 4, 0);
  assert.ok(r.once.length > 20);
  assert.deepEqual(r.grown, r.once);
});

test('with a broken line in the middle, mining while it grows equals one mine of the final file', async () => {
  const r = await incrementalVsOnce(generateClaudeSession(400, 42), 4, 7);
  assert.deepEqual(r.grown, r.once);
});
