/**
 * @module test/hooks-lifecycle
 * The opt-in lifecycle steps of the hooks: session-end queues memory extraction only with
 * `LOCI_EXTRACT_ON_END=1` and an LLM configured (session notes unless `LOCI_SESSION_NOTES=0`), and
 * the worker runs them after archiving — here against a loopback Anthropic server.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { silentLogger } from '../src/core/logger.js';
import { runHook, runHookWorker } from '../src/hooks/index.js';
import { listMemories, selectMemoryDir } from '../src/memdir/index.js';
import { openPalace } from '../src/palace/index.js';
import { wakeUp } from '../src/wakeup/index.js';
import { startLoopback, type Loopback } from './helpers/loopback.js';
import { anthropicText, fakeTranscript } from './helpers/session.js';

let server: Loopback;
let root: string;
let home: string;
let cwd: string;
let t: ReturnType<typeof fakeTranscript>;
before(async () => {
  server = await startLoopback();
});
after(() => server.close());
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'loci-hook-life-'));
  home = join(root, 'home');
  cwd = join(root, 'project');
  mkdirSync(cwd);
  t = fakeTranscript(join(root, 'sess-h.jsonl'), 'sess-h', cwd);
  t.write([{ user: 'From now on, write commit messages in the imperative mood.', at: '2026-03-04T09:00:00Z' }]);
});
after(() => rmSync(root, { recursive: true, force: true }));

const baseEnv = (): NodeJS.ProcessEnv => ({
  HOME: root,
  LOCI_HOME: home,
  CLAUDE_CONFIG_DIR: join(root, 'claude'),
  LOCI_HOOK_WORKER: '0',
  LOCI_HOOK_SERVER: '0',
});
const llmEnv = (): NodeJS.ProcessEnv => ({
  LOCI_LLM_PROVIDER: 'anthropic',
  LOCI_LLM_BASE_URL: server.url,
  ANTHROPIC_API_KEY: 'sk-ant-test',
});

async function sessionEnd(env: NodeJS.ProcessEnv): Promise<Record<string, unknown>> {
  const stdin = JSON.stringify({
    session_id: 'sess-h',
    transcript_path: t.path,
    cwd,
    hook_event_name: 'SessionEnd',
    reason: 'exit',
  });
  assert.equal(await runHook('session-end', stdin, { home, env, cwd, spawnWorker: false }), '');
  const dir = join(home, 'queue');
  const files = readdirSync(dir).filter((n) => n.endsWith('.json'));
  const job = JSON.parse(readFileSync(join(dir, files[files.length - 1]!), 'utf8')) as Record<string, unknown>;
  return job;
}

describe('hook lifecycle steps', () => {
  it('extraction is opt-in and needs an LLM; session notes are on unless turned off', async () => {
    let job = await sessionEnd(baseEnv());
    assert.equal(job['extract'], undefined);
    assert.equal(job['notes'], true);
    job = await sessionEnd({ ...baseEnv(), LOCI_EXTRACT_ON_END: '1' });
    assert.equal(job['extract'], undefined, 'no LLM configured: no extraction');
    job = await sessionEnd({ ...baseEnv(), ...llmEnv(), LOCI_SESSION_NOTES: '0' });
    assert.equal(job['extract'], undefined, 'an LLM alone does not opt in');
    assert.equal(job['notes'], undefined);
    job = await sessionEnd({ ...baseEnv(), ...llmEnv(), LOCI_EXTRACT_ON_END: '1' });
    assert.equal(job['extract'], true);
  });

  it('the worker extracts into the project memory folder after archiving', async () => {
    const env = { ...baseEnv(), ...llmEnv(), LOCI_EXTRACT_ON_END: '1' };
    await sessionEnd(env);
    server.reply(
      'anthropic.messages',
      anthropicText(
        JSON.stringify({
          memories: [
            {
              type: 'feedback',
              name: 'imperative commit messages',
              description: 'Write commit messages in the imperative mood',
              body: 'Write commit messages in the imperative mood.',
              why: 'The user asked for it.',
              how: 'Every commit.',
              turn: 0,
              reason: 'explicit preference',
              updates: null,
            },
          ],
        }),
      ),
    );
    const s = await runHookWorker({ home, logger: silentLogger, env, refreshWakeUp: false });
    assert.equal(s.failed, 0);
    const dir = selectMemoryDir({ cwd, env, lociHome: home }).dir;
    assert.deepEqual(
      listMemories(dir).map((m) => m.file),
      ['feedback_imperative-commit-messages.md'],
    );
  });

  it('session notes are kept by the worker, archived, and shown by the wake-up as where we left off', async () => {
    const env = { ...baseEnv(), LOCI_EMBEDDER: 'none' };
    t.append([
      { assistant: `${'Reworking the limiter so it counts per API key. '.repeat(900)}`, at: '2026-03-04T09:10:00Z' },
      { assistant: 'The limiter now counts per API key; the gateway tests are next.', at: '2026-03-04T09:20:00Z' },
    ]);
    await sessionEnd(env);
    const s = await runHookWorker({ home, logger: silentLogger, env, refreshWakeUp: false });
    assert.equal(s.failed, 0);
    const notes = readFileSync(join(home, 'sessions', 'sess-h', 'notes.md'), 'utf8');
    assert.match(notes, /# Current State\n2026-03-04 09:20 The limiter now counts per API key/);
    const palace = await openPalace({ home, env, embedder: null });
    try {
      const w = await wakeUp({ palace, home, cwd, env, memoryDir: null });
      assert.match(w.text, /Session notes:\n.*# Current State\n.*2026-03-04 09:20 The limiter now counts per API key/s);
      assert.doesNotMatch(w.text, /\(none\)|Built without a model/, 'placeholders and the notice are not repeated');
      const { drawers } = await palace.listDrawers({ room: 'session-notes' });
      assert.equal(drawers[0]?.contentDate, '2026-03-04T09:20:00.000Z', 'dated by the last turn they cover, not today');
    } finally {
      await palace.close();
    }
  });
});
