/**
 * @module test/hooks-continued
 * A `SessionStart` that continues a session (`source` resume or compact) leaves that session out of
 * "where we left off": the agent already holds it (the transcript, or the summary Claude Code has
 * just written). A new session (startup, clear) still sees it, and the per-project cache is not
 * written by the continued one.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { runHook } from '../src/hooks/index.js';
import { openPalace } from '../src/palace/index.js';

let root: string;
let home: string;
let cwd: string;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'loci-hook-continued-'));
  home = join(root, 'home');
  cwd = join(root, 'shop');
  mkdirSync(cwd);
  env = { HOME: root, LOCI_HOME: home, CLAUDE_CONFIG_DIR: join(root, 'claude'), LOCI_HOOK_SERVER: '0' };
  const p = await openPalace({ home, embedder: null });
  const said = [
    ['s-old', 'User: add the invoice export\nAssistant: The invoice export writes CSV files now.', 2],
    ['s-now', 'User: wire the payment webhook\nAssistant: The payment webhook verifies signatures now.', 1],
  ] as const;
  for (const [i, [sessionId, text, days]] of said.entries())
    await p.addDrawer({
      wing: 'shop',
      room: 'general',
      source: join(root, `${sessionId}.jsonl`),
      chunkIndex: i,
      addedBy: 'loci-mine',
      contentDate: new Date(Date.now() - days * 86_400_000).toISOString(),
      text,
      metadata: { sessionId, exchangeId: `${sessionId}:0`, format: 'claude-code' },
    });
  await p.close();
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function wake(source: string, sessionId: string): Promise<string> {
  const stdin = JSON.stringify({ session_id: sessionId, cwd, hook_event_name: 'SessionStart', source });
  const out = await runHook('session-start', stdin, { home, env, cwd, spawnWorker: false });
  return (JSON.parse(out) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
    .additionalContext;
}

describe('session-start of a continued session', () => {
  it('resume and compact leave the continued session out; a new session still sees it', async () => {
    const fresh = await wake('startup', 's-new'); // computed, then cached for the project
    assert.match(fresh, /Last request: wire the payment webhook/);
    assert.match(fresh, /invoice export/);
    for (const source of ['resume', 'compact']) {
      const text = await wake(source, 's-now');
      assert.doesNotMatch(text, /payment webhook/, source);
      assert.match(text, /Last request: add the invoice export/, source);
    }
    assert.equal(await wake('clear', 's-next'), fresh, 'the cached wake-up of a new session is unchanged');
  });
});
