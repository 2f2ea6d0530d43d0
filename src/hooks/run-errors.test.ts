/**
 * @module hooks/run-errors.test
 * Hook input errors come from the catalogue (code, message and details), so the hooks log says
 * which event and which field or path was wrong.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runHook } from './run.js';

function lastLogLine(home: string): Record<string, unknown> {
  const lines = readFileSync(join(home, 'logs', 'hooks.log'), 'utf8')
    .trim()
    .split('\n');
  return JSON.parse(lines.at(-1)!) as Record<string, unknown>;
}

test('a stop without transcript_path, or with a missing transcript, logs a catalogue error with details', async (t) => {
  const home = mkdtempSync(join(tmpdir(), 'loci-'));
  t.after(() => rmSync(home, { recursive: true, force: true }));
  const o = { home, env: {}, cwd: home, spawnWorker: false };
  assert.equal(await runHook('stop', '{"session_id":"s1"}', o), '');
  let line = lastLogLine(home);
  assert.equal(line['code'], 'HOOK_INPUT_INVALID');
  assert.deepEqual(line['details'], { event: 'stop', reason: 'it has no transcript_path' });
  assert.match(String(line['error']), /transcript_path/);
  const gone = join(home, 'gone.jsonl');
  assert.equal(await runHook('session-end', JSON.stringify({ session_id: 's1', transcript_path: gone }), o), '');
  line = lastLogLine(home);
  assert.equal(line['code'], 'PATH_NOT_FOUND');
  assert.deepEqual(line['details'], { path: gone });
});
