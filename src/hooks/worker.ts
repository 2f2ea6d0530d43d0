/**
 * @module hooks/worker
 * The detached hook worker (`loci hook-worker`): takes the worker lock, drains
 * `<LOCI_HOME>/queue/`, and exits when the queue is empty.
 *
 * Per round: read every ready job (oldest first), group by transcript path (several jobs for one
 * transcript are mined once, with `flush` when any of them asks for it), store each compaction
 * summary as a drawer (hall `summary`, the project's wing, content-addressed id — stored once
 * however often post-compact fires), mine each transcript with `palace.mine(path, { mode:
 * 'convos' })` (zero tokens: no model call), then delete the group's job files. A failing group's jobs are
 * retried by later workers with a back-off (30 s × attempts) and moved to `queue/failed/` after 5
 * attempts. A transcript that no longer exists completes its jobs with a warning. The lock's
 * heartbeat is refreshed between groups. At the end recall's usage journal is folded into the
 * palace (`foldUsageJournal`) and the wake-up cache of every project touched is refreshed (after
 * the palace is closed), so the next `session-start` answers from the cache.
 * After releasing the lock the queue is checked once more, so a job queued while the worker was
 * finishing is not stranded. With `LOCI_DREAM_AUTO=1` the worker then consolidates the memory of
 * each project it archived (`src/dream/`, behind its own gates and lock), outside the worker lock.
 */
import { existsSync, rmSync } from 'node:fs';
import {
  archiveSessionNotes,
  claudeSessionSummary,
  extractForProject,
  providerFromEnv,
  updateSessionNotes,
  cacheWakeUpPlan,
  createError,
  foldUsageJournal,
  homePaths,
  openPalace,
  planWakeUp,
  storeCompactSummary,
  type Logger,
  type MineOptions,
  type Palace,
  processEnv,
  readSettings,
  type WakeUpPlan,
} from '../internal.js';
import { errorFields } from './log.js';
import { acquireLock, heartbeat, moveToFailed, queuedFiles, readJob, releaseLock, type QueuedJob } from './queue.js';
import { writeFileAtomic } from './light-core.js';

/** Options of {@link runHookWorker}. */
export interface HookWorkerOptions {
  home: string;
  logger: Logger;
  /** Environment (memory-directory choice of the wake-up refresh). Default: the process's (`core/env.ts`). */
  env?: NodeJS.ProcessEnv | undefined;
  /** Attempts before a job is moved to `queue/failed/`. Default 5; 1 … 100. */
  maxAttempts?: number | undefined;
  /** Refresh the wake-up cache of the projects archived. Default true. */
  refreshWakeUp?: boolean | undefined;
}

/** What a worker run did. */
export interface HookWorkerSummary {
  /** `busy`: another live worker holds the lock; nothing was done. */
  status: 'done' | 'busy';
  /** Job files completed (deleted). */
  jobs: number;
  /** Transcripts mined. */
  transcripts: number;
  /** Summary drawers newly stored. */
  summaries: number;
  /** Jobs that failed this run (retried later or moved to failed/). */
  failed: number;
}

const BACKOFF_MS = 30_000;

/** Stores the job's compaction summary, if any (`storeCompactSummary`); true when it was new. */
async function storeSummary(palace: Palace, job: QueuedJob['job']): Promise<boolean> {
  if (!job.summary) return false;
  return storeCompactSummary(palace, {
    ...job.summary,
    sessionId: job.sessionId,
    cwd: job.cwd,
    transcript: job.transcript,
    date: job.createdAt,
  });
}

function ready(q: QueuedJob, now: number): boolean {
  return !q.job.notBefore || Date.parse(q.job.notBefore) <= now;
}

function fail(group: QueuedJob[], e: unknown, maxAttempts: number, log: Logger): void {
  const msg = (e as Error)?.message ?? String(e);
  for (const q of group) {
    const attempts = q.job.attempts + 1;
    const next = {
      ...q.job,
      attempts,
      lastError: msg,
      notBefore: new Date(Date.now() + BACKOFF_MS * attempts).toISOString(),
    };
    if (attempts >= maxAttempts) {
      const moved = moveToFailed(q.file, JSON.stringify(next));
      log.log(
        'error',
        moved
          ? 'hook worker: job failed for good; moved to queue/failed'
          : 'hook worker: job failed for good; could not move it to queue/failed, left in the queue',
        {
          file: q.file,
          transcript: q.job.transcript,
          attempts,
          ...errorFields(e),
        },
      );
    } else {
      try {
        if (existsSync(q.file)) writeFileAtomic(q.file, JSON.stringify(next), 0o600);
      } catch {
        // the job stays as it was and is retried without back-off
      }
      log.log('error', 'hook worker: job failed; will retry', {
        file: q.file,
        transcript: q.job.transcript,
        attempts,
        ...errorFields(e),
      });
    }
  }
}

/**
 * The opt-in lifecycle steps of a transcript's jobs, after archiving: session notes (when any job
 * asks, archived in the palace when they changed; Claude Code's own `session-memory/summary.md`
 * too when present) and memory extraction (when any job asks; the
 * hook asks only with `LOCI_EXTRACT_ON_END=1` and an LLM configured). A failing step is logged and
 * never fails the archive.
 */
async function lifecycleSteps(o: HookWorkerOptions, palace: Palace, group: QueuedJob[], transcript: string) {
  const env = o.env ?? processEnv();
  const cwd = group.find((q) => q.job.cwd)?.job.cwd ?? null;
  let provider;
  try {
    provider = providerFromEnv(env);
  } catch (e) {
    o.logger.log('warn', 'hook worker: the LLM provider cannot be used; notes are extractive', errorFields(e));
  }
  if (group.some((q) => q.job.notes)) {
    try {
      const n = await updateSessionNotes({ home: o.home, transcript, ...(provider ? { provider } : {}) });
      o.logger.log('info', `hook worker: session notes ${n.updated ? 'updated' : 'unchanged'}`, { reason: n.reason });
      if (n.updated && n.notes) {
        // Dated by the last turn they cover: an old session's notes made today are not today's news.
        const date = n.lastAt ?? new Date().toISOString();
        await archiveSessionNotes(palace, { sessionId: n.sessionId, cwd, transcript, notes: n.notes, date });
      }
    } catch (e) {
      o.logger.log('warn', 'hook worker: session notes failed', { transcript, ...errorFields(e) });
    }
  }
  // Claude Code's own session memory (older versions), archived the same way when present.
  const sid = group.find((q) => q.job.sessionId)?.job.sessionId;
  const cc = sid ? claudeSessionSummary(transcript, sid) : undefined;
  if (cc && sid) {
    const date = new Date().toISOString();
    await archiveSessionNotes(palace, { sessionId: sid, cwd, transcript, notes: cc.text, date }).catch((e: unknown) =>
      o.logger.log('warn', 'hook worker: archiving session-memory/summary.md failed', errorFields(e)),
    );
  }
  if (provider && cwd && group.some((q) => q.job.extract)) {
    try {
      const { result } = await extractForProject({ home: o.home, transcript, cwd, env, provider });
      o.logger.log('info', 'hook worker: memories extracted', {
        transcript,
        proposals: result.proposals.map((p) => `${p.action} ${p.file}: ${p.reason}`),
        skipped: result.skipped.map((s) => `${s.rule} ${s.name}`),
      });
    } catch (e) {
      o.logger.log('warn', 'hook worker: memory extraction failed', { transcript, ...errorFields(e) });
    }
  }
}

function done(group: QueuedJob[]): void {
  // Deleting is enough: the drawers are the record.
  for (const q of group) rmSync(q.file, { force: true });
}

async function drain(
  o: HookWorkerOptions,
  palaceRef: { p?: Palace },
  cwds: Set<string>,
  s: HookWorkerSummary,
  attempted: Set<string>,
): Promise<void> {
  const maxAttempts = Math.min(100, Math.max(1, o.maxAttempts ?? 5));
  for (;;) {
    const now = Date.now();
    const jobs = queuedFiles(o.home)
      .filter((file) => !attempted.has(file))
      .map((file) => ({ file, job: readJob(file, o.logger) }))
      .filter((q): q is QueuedJob => q.job !== undefined && ready(q as QueuedJob, now));
    if (jobs.length === 0) return;
    const groups = new Map<string, QueuedJob[]>();
    for (const q of jobs) {
      const key = q.job.transcript ?? `summary:${q.file}`;
      groups.set(key, [...(groups.get(key) ?? []), q]);
    }
    for (const group of groups.values()) {
      heartbeat(o.home);
      for (const q of group) attempted.add(q.file);
      try {
        const palace = (palaceRef.p ??= await openPalace({ home: o.home, logger: o.logger }));
        // Summaries first: they do not depend on mining, and storing one twice is a no-op.
        for (const q of group) if (await storeSummary(palace, q.job)) s.summaries++;
        const transcript = group[0]!.job.transcript;
        if (transcript) {
          if (existsSync(transcript)) {
            const flush = group.some((q) => q.job.flush);
            const opts: MineOptions = { mode: 'convos', flush };
            const r = await palace.mine(transcript, opts);
            s.transcripts++;
            o.logger.log('info', 'hook worker: transcript archived', {
              transcript,
              flush,
              jobs: group.length,
              drawers: r.drawersAdded,
              conversations: r.conversations,
            });
            await lifecycleSteps(o, palace, group, transcript);
          } else {
            o.logger.log('warn', 'hook worker: transcript no longer exists; nothing to archive', { transcript });
          }
        }
        for (const q of group) if (q.job.cwd) cwds.add(q.job.cwd);
        done(group);
        s.jobs += group.length;
      } catch (e) {
        s.failed += group.length;
        fail(group, e, maxAttempts, o.logger);
      }
    }
  }
}

/** Folds recall's usage journal into the palace (a write the archive made anyway). Never throws. */
async function foldUsage(o: HookWorkerOptions, palace: Palace): Promise<void> {
  try {
    const n = await foldUsageJournal(palace);
    if (n) o.logger.log('debug', 'hook worker: usage journal folded', { lines: n });
  } catch (e) {
    o.logger.log('warn', 'hook worker: folding the usage journal failed', errorFields(e));
  }
}

async function refreshWakeUps(
  o: HookWorkerOptions,
  palace: Palace,
  cwds: Set<string>,
): Promise<{ cwd: string; plan: WakeUpPlan }[]> {
  const plans: { cwd: string; plan: WakeUpPlan }[] = [];
  for (const cwd of cwds) {
    try {
      plans.push({
        cwd,
        plan: await planWakeUp({ palace, home: o.home, cwd, env: o.env ?? processEnv(), logger: o.logger }),
      });
    } catch (e) {
      o.logger.log('warn', 'hook worker: wake-up refresh failed', { cwd, ...errorFields(e) });
    }
  }
  return plans;
}

/**
 * `LOCI_DREAM_AUTO=1`: consolidates the memory of each project archived (`dreamProject` of
 * `src/dream/`, loaded only then), behind its own gates and lock, with the palace for archive
 * searches. Never throws: failures are logged.
 */
async function autoDream(o: HookWorkerOptions, cwds: ReadonlySet<string>): Promise<void> {
  if (!cwds.size) return;
  let palace: Palace | undefined;
  try {
    const { dreamProject } = await import('../dream/index.js');
    palace = await openPalace({ home: o.home, logger: o.logger });
    for (const cwd of cwds) {
      const r = await dreamProject({ home: o.home, cwd, env: o.env ?? processEnv(), palace, logger: o.logger });
      o.logger.log(r.ran ? 'info' : 'debug', `hook worker: memory consolidation ${r.ran ? 'ran' : 'skipped'}`, {
        cwd,
        reason: r.reason,
        changes: r.changes.length,
        report: r.report,
      });
    }
  } catch (e) {
    o.logger.log('warn', 'hook worker: memory consolidation failed', errorFields(e));
  } finally {
    await palace?.close().catch(() => {});
  }
}

/**
 * Drains the archive queue of `home` under the worker lock (see the module comment). Returns
 * `status: 'busy'` at once when another live worker holds the lock. Never throws for a job's
 * failure (it is logged and retried later); throws only when the lock cannot be handled at all.
 */
export async function runHookWorker(o: HookWorkerOptions): Promise<HookWorkerSummary> {
  const s: HookWorkerSummary = { status: 'done', jobs: 0, transcripts: 0, summaries: 0, failed: 0 };
  if (!existsSync(homePaths(o.home).queue)) return s;
  const attempted = new Set<string>();
  const dreamCwds = new Set<string>();
  for (let round = 0; round < 100; round++) {
    if (!acquireLock(o.home)) return round === 0 ? { ...s, status: 'busy' } : s;
    const palaceRef: { p?: Palace } = {};
    const cwds = new Set<string>();
    let plans: { cwd: string; plan: WakeUpPlan }[] = [];
    try {
      await drain(o, palaceRef, cwds, s, attempted);
      if (palaceRef.p) await foldUsage(o, palaceRef.p);
      if (palaceRef.p && o.refreshWakeUp !== false) plans = await refreshWakeUps(o, palaceRef.p, cwds);
    } finally {
      await palaceRef.p
        ?.close()
        .catch((e: Error) => o.logger.log('warn', 'hook worker: closing the palace failed', { error: e.message }));
      for (const { cwd, plan } of plans) cacheWakeUpPlan(o.home, cwd, plan);
      releaseLock(o.home);
    }
    const now = Date.now();
    const left = queuedFiles(o.home).some((file) => {
      if (attempted.has(file)) return false;
      const j = readJob(file);
      return j !== undefined && (!j.notBefore || Date.parse(j.notBefore) <= now);
    });
    for (const cwd of cwds) dreamCwds.add(cwd);
    if (!left) {
      // After the lock is released: a slow model never holds up archiving.
      if (readSettings(o.env ?? processEnv()).dreamAuto) await autoDream(o, dreamCwds);
      return s;
    }
  }
  throw createError('INTERNAL', { what: 'the hook worker did not drain its queue in 100 rounds' });
}
