/**
 * @module test/e2e/hooks-archive.test
 * Zero-token archiving through the queue: hooks write job files and return; the worker
 * (`loci hook-worker`, or the detached one the hooks spawn) mines the transcript with the
 * conversation miner. Idempotent pre-compact / session-end, the compact summary stored once, the
 * worker lock (busy, stale takeover), the resume catch-up, and the usage journal folded and the wake-up cache
 * refreshed by the worker. Needs `npm run build`.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { openPalace } from '../../src/index.js';
import { journalUsage } from '../../src/wakeup/index.js';
import {
  appendTurns,
  hookInput,
  hookWorld,
  lociIn,
  logLines,
  NEEDS_BUILD,
  runHookProcess,
  until,
  type HookWorld,
} from '../fixtures/hooks/support.js';

let w: HookWorld;
beforeEach(() => {
  w = hookWorld({ LOCI_HOOK_WORKER: '0' });
});
afterEach(() => w.cleanup());

const queued = () => {
  try {
    return readdirSync(join(w.home, 'queue')).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
};

/** Drawers of the transcript and summary drawers of the project, read in a fresh connection. */
async function counts(): Promise<{ transcript: number; summaries: string[] }> {
  if (!existsSync(join(w.home, 'palace.db'))) return { transcript: 0, summaries: [] };
  const p = await openPalace({ home: w.home, embedder: null });
  try {
    const t = await p.listDrawers({ source: w.transcript }, { limit: 1 });
    const s = await p.listDrawers({ wing: 'acme-api', hall: 'summary', room: 'summaries' }, { limit: 10 });
    return { transcript: t.total, summaries: s.drawers.map((d) => d.text) };
  } finally {
    await p.close();
  }
}

function worker(): Record<string, unknown> {
  const r = lociIn(w, ['hook-worker', '--json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

describe('archiving through the queue', { skip: NEEDS_BUILD }, () => {
  test('pre-compact and session-end only queue (no palace opened); repeated firings archive once', async () => {
    for (let i = 0; i < 3; i++)
      assert.deepEqual(runHookProcess('pre-compact', hookInput('pre-compact.json', w), w), {
        code: 0,
        stdout: '',
        stderr: '',
      });
    for (let i = 0; i < 2; i++)
      assert.deepEqual(runHookProcess('session-end', hookInput('session-end.json', w), w, 'main'), {
        code: 0,
        stdout: '',
        stderr: '',
      });
    assert.equal(queued().length, 5);
    assert.equal(existsSync(join(w.home, 'palace.db')), false, 'hooks never open the palace to queue');
    assert.deepEqual(worker(), { status: 'done', jobs: 5, transcripts: 1, summaries: 0, failed: 0 });
    assert.equal(queued().length, 0);
    const first = await counts();
    assert.ok(first.transcript >= 5, `${first.transcript} drawers`);
    runHookProcess('pre-compact', hookInput('pre-compact.json', w), w);
    runHookProcess('session-end', hookInput('session-end.json', w), w);
    assert.deepEqual(worker(), { status: 'done', jobs: 2, transcripts: 1, summaries: 0, failed: 0 });
    assert.equal((await counts()).transcript, first.transcript, 'nothing new, nothing duplicated');
    appendTurns(w.transcript, 2);
    runHookProcess('session-end', hookInput('session-end.json', w), w);
    worker();
    assert.ok((await counts()).transcript > first.transcript, 'the new part is archived');
  });

  test('stop archives the turn that just ended: searchable at once, replaced as it grows (issue 10)', async () => {
    runHookProcess('stop', hookInput('stop.json', w), w, 'main');
    worker();
    const p = await openPalace({ home: w.home, embedder: null });
    try {
      const hits = await p.search('Tests pass and the change is committed', { limit: 3 });
      assert.ok(
        hits.hits.some((h) => h.source === w.transcript && h.text.includes('Tests pass and the change is committed.')),
        'the reply that ended the turn',
      );
    } finally {
      await p.close();
    }
    appendTurns(w.transcript, 1, 1);
    runHookProcess('stop', hookInput('stop.json', w), w, 'main');
    worker();
    const q = await openPalace({ home: w.home, embedder: null });
    try {
      const all = (await q.listDrawers({ source: w.transcript }, { limit: 500 })).drawers;
      const last = all.filter((d) => d.text.includes('what about the retry budget'));
      assert.equal(last.length, 1, 'the new open exchange is stored once');
      const ids = all.map((d) => d.id);
      assert.equal(new Set(ids).size, ids.length);
    } finally {
      await q.close();
    }
  });

  test('post-compact stores compact_summary once per summary, as a summary drawer of the project wing', async () => {
    for (let i = 0; i < 2; i++) runHookProcess('post-compact', hookInput('post-compact.json', w), w);
    assert.equal(worker()['summaries'], 1);
    runHookProcess('post-compact', hookInput('post-compact.json', w), w, 'main');
    assert.equal(worker()['summaries'], 0);
    const c = await counts();
    assert.equal(c.summaries.length, 1);
    assert.match(c.summaries[0]!, /^Primary request: rate-limit POST \/login/);
    runHookProcess(
      'post-compact',
      hookInput('post-compact.json', w, {
        compact_summary: 'A second compaction: the limiter now also covers /signup.',
      }),
      w,
    );
    worker();
    assert.equal((await counts()).summaries.length, 2);
    const p = await openPalace({ home: w.home, embedder: null });
    try {
      const d = (await p.listDrawers({ hall: 'summary' }, { limit: 5 })).drawers[0]!;
      assert.equal(d.metadata['sessionId'], '7c1e9a52-3b4d-4f6e-8a90-1b2c3d4e5f60');
      assert.equal(d.metadata['kind'], 'compact-summary');
    } finally {
      await p.close();
    }
  });

  test('the hooks start a detached worker that archives the transcript, drains the queue and exits', async () => {
    const live = { ...w, env: { ...w.env, LOCI_HOOK_WORKER: '' } };
    const r = runHookProcess('session-end', hookInput('session-end.json', w), live, 'main');
    assert.deepEqual(r, { code: 0, stdout: '', stderr: '' });
    runHookProcess('post-compact', hookInput('post-compact.json', w), live, 'main');
    const c = await until(async () => {
      const n = await counts();
      return n.transcript > 0 && n.summaries.length === 1 ? n : undefined;
    }, 'the detached worker to archive the transcript');
    assert.ok(c.transcript >= 5);
    await until(
      () => queued().length === 0 && !existsSync(join(w.home, 'locks', 'hook-worker.lock')),
      'the queue to drain and the lock to go',
    );
    const log = logLines(join(w.home, 'logs', 'hooks.log'));
    assert.ok(log.some((l) => l['message'] === 'hook worker: transcript archived'));
    assert.ok(!log.some((l) => l['level'] === 'error'), JSON.stringify(log.filter((l) => l['level'] === 'error')));
  });

  test('a live worker lock makes another worker step aside; a stale one is taken over', () => {
    runHookProcess('pre-compact', hookInput('pre-compact.json', w), w);
    mkdirSync(join(w.home, 'locks'), { recursive: true });
    const lock = join(w.home, 'locks', 'hook-worker.lock');
    writeFileSync(lock, JSON.stringify({ pid: process.pid, startedAt: Date.now(), beat: Date.now() }));
    assert.equal(worker()['status'], 'busy');
    assert.equal(queued().length, 1);
    writeFileSync(
      lock,
      JSON.stringify({ pid: process.pid, startedAt: Date.now() - 11 * 60_000, beat: Date.now() - 11 * 60_000 }),
    );
    assert.deepEqual(worker(), { status: 'done', jobs: 1, transcripts: 1, summaries: 0, failed: 0 });
    assert.equal(existsSync(lock), false);
  });

  test('session-start of a resumed session queues a catch-up archive', () => {
    runHookProcess('session-start', hookInput('session-start-resume.json', w), w);
    assert.equal(queued().length, 1);
    runHookProcess('session-start', hookInput('session-start.json', w), w);
    assert.equal(queued().length, 1, 'a new session (startup) has nothing to catch up');
  });

  test('after archiving, the worker folds the usage journal and refreshes the wake-up cache (used next)', async () => {
    runHookProcess('post-compact', hookInput('post-compact.json', w), w);
    journalUsage(w.home, [{ kind: 'drawer', id: 'd-used' }]);
    worker();
    assert.deepEqual(readdirSync(join(w.home, 'usage')), [], 'the journal was folded');
    const p = await openPalace({ home: w.home, embedder: null });
    try {
      assert.equal((await p.store.readUsage(['drawer:d-used']))[0]?.uses, 1, 'into the store');
    } finally {
      await p.close();
    }
    const r = runHookProcess('session-start', hookInput('session-start.json', w), w, 'main', { LOCI_HOOK_DEBUG: '1' });
    assert.match(r.stderr, /cached wake-up/);
    const ctx = (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
      .additionalContext;
    assert.match(
      ctx,
      new RegExp(
        String.raw`## Where we left off\n- session "Login rate limiting"[^\n]*\n {2}Compaction summary:` +
          String.raw`\n {2}Primary request: rate-limit POST \/login`,
      ),
    );
    assert.match(ctx, /\[decision\] Go with option 1: we decided to use Redis/);
    assert.doesNotMatch(ctx, /Subagent task/, 'a subagent side conversation is not where the session left off');
  });

  test('a job that keeps failing is retried later, then moved to queue/failed', () => {
    runHookProcess('pre-compact', hookInput('pre-compact.json', w), w);
    writeFileSync(join(w.home, 'palace.db'), 'this is not a database');
    const s = worker();
    assert.equal(s['failed'], 1);
    assert.equal(queued().length, 1, 'kept for a later retry (with a back-off)');
    const again = worker();
    assert.equal(again['jobs'], 0, 'not retried before its back-off');
    assert.ok(
      logLines(join(w.home, 'logs', 'hooks.log')).some(
        (l) => l['message'] === 'hook worker: job failed; will retry' && l['code'] === 'DB_CORRUPT',
      ),
    );
    const file = join(w.home, 'queue', queued()[0]!);
    const job = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    assert.equal(job['attempts'], 1);
    writeFileSync(file, JSON.stringify({ ...job, attempts: 4, notBefore: new Date(Date.now() - 1000).toISOString() }));
    assert.equal(worker()['failed'], 1);
    assert.equal(queued().length, 0);
    assert.deepEqual(readdirSync(join(w.home, 'queue', 'failed')), [basename(file)]);
  });
});
