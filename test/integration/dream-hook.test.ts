/**
 * @module test/integration/dream-hook.test
 * Consolidation from the hooks: a SessionEnd hook queues the archive, and the worker, when
 * `LOCI_DREAM_AUTO=1`, consolidates the project's Claude Code memory folder once its gates open
 * (5 sessions beside it); without the setting it never touches the memory.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, it } from 'node:test';
import { FIXTURE, filesOf } from '../fixtures/dream/support.js';
import { runHook, runHookWorker } from '../../src/hooks/index.js';
import { sanitizeProjectPath, silentLogger } from '../../src/internal.js';

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'loci-dream-hook-')));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function setup() {
  const project = join(root, 'proj');
  mkdirSync(project, { recursive: true });
  const projectDir = join(root, 'claude', 'projects', sanitizeProjectPath(project));
  const memory = join(projectDir, 'memory');
  cpSync(FIXTURE, memory, { recursive: true });
  const at = Date.now() / 1000 - 60;
  let transcript = '';
  for (let i = 0; i < 5; i++) {
    transcript = join(projectDir, `s${i}.jsonl`);
    const rec = { type: 'user', sessionId: `s${i}`, cwd: project, timestamp: new Date().toISOString() };
    writeFileSync(transcript, JSON.stringify({ ...rec, message: { role: 'user', content: `task ${i}` } }) + '\n');
    utimesSync(transcript, at, at);
  }
  const env = { HOME: root, CLAUDE_CONFIG_DIR: join(root, 'claude'), LOCI_HOME: join(root, 'home') };
  return { project, memory, transcript, env, home: join(root, 'home') };
}

async function sessionEndThenWorker(s: ReturnType<typeof setup>, env: Record<string, string>) {
  const input = { session_id: 's4', transcript_path: s.transcript, cwd: s.project, hook_event_name: 'SessionEnd' };
  await runHook('session-end', JSON.stringify(input), { home: s.home, env, cwd: s.project, spawnWorker: false });
  return runHookWorker({ home: s.home, logger: silentLogger, env, refreshWakeUp: false });
}

it('LOCI_DREAM_AUTO=1: the worker consolidates the memory folder once the gates open', async () => {
  const s = setup();
  const w = await sessionEndThenWorker(s, { ...s.env, LOCI_DREAM_AUTO: '1' });
  assert.equal(w.transcripts, 1);
  const files = filesOf(s.memory);
  assert.equal(files['feedback_testing_copy.md'], undefined, 'the exact duplicate was merged');
  assert.match(files['project_release.md']!, /Friday 2026-03-06/);
});

it('without the setting the memory folder is left as it is', async () => {
  const s = setup();
  const before = filesOf(s.memory);
  await sessionEndThenWorker(s, s.env);
  assert.deepEqual(filesOf(s.memory), before);
});
