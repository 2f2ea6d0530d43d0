/**
 * @module dream/run
 * `runDream`: gates, lock, then the four phases, then the report; `undoDream`.
 *
 * Gates of an unforced run, in order (Claude Code's autoDream): at least `minHours` (24) since the
 * last consolidation; the sessions scanned at most every `scanEveryMinutes` (10); at least
 * `minSessions` (5) new sessions (`sessions.ts`). Then the lock: one process per memory directory
 * (a dead holder's lock is taken over). `force` skips the gates, never the lock. A dry run takes no
 * lock and writes nothing (no memory file, no state, no report file).
 *
 * Phases: orient (memories, index, sessions) → gather (recent sessions, drift, archive; only when a
 * model will read them, drift always) → consolidate (rules: duplicates, dates; then the model per
 * batch, validated) → prune and index (one snapshotted write of every change, then `MEMORY.md`
 * rebuilt within 200 lines and 25 KB).
 */
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { systemClock, isoAt } from '../core/clock.js';
import { createError } from '../core/errors.js';
import { writeFileAtomic } from '../core/fs-safe.js';
import { silentLogger } from '../core/logger.js';
import { INDEX_FILE, loadMemories, loadMemoryIndex, rebuildIndex, type IndexStats } from '../memdir/index.js';
import { loadClaudeMd } from './claude-md.js';
import { WorkingCopy } from './consolidate.js';
import { findDrift, type Drift } from './drift.js';
import { findDuplicates } from './duplicates.js';
import { batchMemories, batchPrompt, gatherContext } from './gather.js';
import { askModel } from './model.js';
import { renderReport } from './report.js';
import { listSessions } from './sessions.js';
import { runDir, undoRun, writeWithSnapshot } from './snapshot.js';
import { acquireDreamLock, readState, releaseDreamLock, stateDir, writeState } from './state.js';
import { DREAM_GATES, type DreamOptions, type DreamResult, type UndoResult } from './types.js';

const HOUR = 3_600_000;

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function hours(ms: number): string {
  return `${(ms / HOUR).toFixed(1)} h`;
}

function runIdFor(home: string, dir: string, now: number): string {
  const base = isoAt(now)
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  let id = `${base}-${process.pid}`;
  for (let n = 2; existsSync(runDir(home, dir, id)); n++) id = `${base}-${process.pid}-${n}`;
  return id;
}

function notRun(reason: string, dryRun: boolean): DreamResult {
  return {
    ran: false,
    reason,
    changes: [],
    report: null,
    reportText: `Memory consolidation did not run: ${reason}\n`,
    model: 'none',
    conflicts: [],
    refused: [],
    notes: [],
    tokensSent: 0,
    dryRun,
  };
}

/**
 * Consolidates a memory directory (see the module comment). Returns `ran: false` with the reason
 * when a gate is closed or another process holds the lock. Model failures never throw: the
 * deterministic steps stand and the result says what happened (`model`, `notes`).
 */
export async function runDream(o: DreamOptions): Promise<DreamResult> {
  const clock = o.clock ?? systemClock;
  const log = o.logger ?? silentLogger;
  const now = clock.now();
  const gates = { ...DREAM_GATES, ...o.gates };
  const dir = resolve(o.dir);
  const dryRun = o.dryRun === true;
  const state = readState(o.home, dir);
  const sessions = listSessions(o.transcriptDirs ?? [dirname(dir)]);
  const fresh = sessions.filter((s) => state.lastRunAt === undefined || s.mtimeMs > state.lastRunAt);
  const since = state.lastRunAt === undefined ? 'so far (no consolidation yet)' : `since ${isoAt(state.lastRunAt)}`;
  let why: string;
  if (o.force)
    why = `forced (--force skips the time and session gates); ${plural(fresh.length, 'new session')} ${since}`;
  else {
    if (state.lastRunAt !== undefined && now - state.lastRunAt < gates.minHours * HOUR) {
      return notRun(
        `the last consolidation was ${hours(now - state.lastRunAt)} ago; it runs at most every ${gates.minHours} h ` +
          '(--force to run now)',
        dryRun,
      );
    }
    if (state.lastScanAt !== undefined && now - state.lastScanAt < gates.scanEveryMinutes * 60_000) {
      return notRun(
        `the sessions were scanned ${Math.floor((now - state.lastScanAt) / 60_000)} min ago; they are scanned at ` +
          `most every ${gates.scanEveryMinutes} min (--force to run now)`,
        dryRun,
      );
    }
    if (!dryRun) writeState(o.home, { ...state, lastScanAt: now });
    if (fresh.length < gates.minSessions) {
      return notRun(
        `${plural(fresh.length, 'new session')} ${since}; it needs ${gates.minSessions} (--force to run now)`,
        dryRun,
      );
    }
    why =
      `${plural(fresh.length, 'new session')} ${since}` +
      (state.lastRunAt === undefined ? '' : `, the last one ${hours(now - state.lastRunAt)} ago`);
  }
  if (!dryRun) {
    const lock = acquireDreamLock(o.home, dir, now);
    if (!lock.ok) return notRun(`another process (pid ${lock.holder}) is consolidating this folder`, dryRun);
    if (lock.tookOver) log.log('info', 'dream: took over the lock of a dead process', { pid: lock.tookOver });
  }
  try {
    return await consolidate(o, dir, now, why, fresh.length ? fresh : sessions.slice(0, 3));
  } finally {
    if (!dryRun) releaseDreamLock(o.home, dir);
  }
}

async function consolidate(
  o: DreamOptions,
  dir: string,
  now: number,
  why: string,
  recent: ReturnType<typeof listSessions>,
): Promise<DreamResult> {
  const nowIso = isoAt(now);
  const dryRun = o.dryRun === true;
  const notes: string[] = [];
  // ── orient ──
  const skipped: string[] = [];
  const memories = loadMemories(dir, { limit: Infinity, onSkip: (f) => skipped.push(f.file) });
  const index = loadMemoryIndex(dir);
  const copy = new WorkingCopy(memories, nowIso);
  const teamCount = memories.filter((m) => copy.isTeam(m.file)).length;
  notes.push(
    `orient: ${plural(memories.length, 'memory', 'memories')} (${teamCount} team), MEMORY.md ` +
      `${index.exists ? `${index.lines} lines / ${index.bytes} bytes` : 'missing'}, ` +
      `${plural(recent.length, 'recent session')}` +
      (skipped.length ? `; left alone (frontmatter unreadable): ${skipped.join(', ')}` : ''),
  );
  // ── gather ──
  let drift: Drift[] = [];
  if (o.projectRoot) {
    drift = findDrift(memories, o.projectRoot);
    notes.push(
      `gather: drift check found ${plural(drift.length, 'memory', 'memories')} naming files or functions no ` +
        'longer in the repository',
    );
  } else notes.push('gather: no project root, so no drift check');
  const claudeMd = o.llm ? (o.claudeMd ?? (o.projectRoot ? loadClaudeMd(o.projectRoot, o.env) : [])) : [];
  const ctx = o.llm
    ? await gatherContext({ sessions: recent, drift, memories: copy.alive(), archive: o.archive, claudeMd })
    : undefined;
  notes.push(...(ctx?.notes ?? ['gather: sessions and archive not read (they are for the model, and there is none)']));
  // ── consolidate: rules ──
  const merges = findDuplicates(memories, (m) => copy.isTeam(m.file));
  copy.applyDuplicates(merges);
  copy.applyDates();
  const ruled = copy.changes.length;
  const dated = copy.changes.filter((c) => c.action === 'rewrite-dates').length;
  notes.push(
    `consolidate (rules): ${plural(merges.length, 'duplicate group')} merged, ` +
      `${plural(dated, 'memory', 'memories')} with relative dates rewritten`,
  );
  // ── consolidate: model ──
  let model: DreamResult['model'] = 'none';
  let tokensSent = 0;
  if (o.llm) {
    const batches = batchMemories(copy.alive(), o.batchChars ?? 40_000);
    let failures = 0;
    for (const [i, batch] of batches.entries()) {
      const answer = await askModel(o.llm, batchPrompt(ctx!.text, batch, nowIso.slice(0, 10)), o.timeoutMs ?? 60_000);
      tokensSent += answer.tokensSent;
      if (!answer.ok) {
        failures++;
        notes.push(`consolidate (model): batch ${i + 1} of ${batches.length} failed: ${answer.reason}`);
        continue;
      }
      copy.applyModel(answer.actions, new Set(batch.map((m) => m.file)), claudeMd);
    }
    model = failures === batches.length && batches.length > 0 ? 'failed' : 'used';
    notes.push(
      `consolidate (model ${o.llm.name} ${o.llm.model}): ${plural(batches.length, 'batch', 'batches')}, ` +
        `${plural(copy.changes.length - ruled, 'change')}, ${plural(copy.conflicts.length, 'CLAUDE.md conflict')}, ` +
        `${plural(copy.refused.length, 'proposal')} refused`,
    );
  } else {
    notes.push(
      `consolidate (model): skipped: ${o.llmMissingReason ?? 'no model configured'}; contradictions, drift and ` +
        'CLAUDE.md conflicts were not reviewed (the rules above ran: duplicates, dates; the index is rebuilt below)',
    );
  }
  // ── prune and index ──
  const runId = runIdFor(o.home, dir, now);
  let stats: IndexStats | undefined;
  if (dryRun) {
    notes.push(`prune and index: dry run; ${plural(copy.writes.size, 'file')} would change and MEMORY.md be rebuilt`);
  } else {
    const touched = [...copy.writes.entries()].filter(([, t]) => t !== null).map(([f]) => f);
    writeWithSnapshot(o.home, dir, runId, nowIso, [...copy.writes.keys(), INDEX_FILE], copy.writes, () => {
      stats = rebuildIndex(dir, { touched });
    });
    if (stats?.written) {
      copy.changes.push({
        action: 'index',
        file: INDEX_FILE,
        reason:
          `rebuilt: ${stats.entries} entries, ${stats.lines} lines, ${stats.bytes} bytes (limits 200 lines, 25,000 ` +
          `bytes)` +
          (stats.dropped ? `; ${stats.dropped} dangling lines dropped` : '') +
          (stats.omitted ? `; ${stats.omitted} oldest memories left out of the index (still on disk)` : ''),
        by: 'rules',
      });
    }
    notes.push(
      `prune and index: ${plural(copy.writes.size, 'file')} written or deleted; MEMORY.md ` +
        (stats?.written ? 'rebuilt' : 'already up to date') +
        (stats ? ` (${stats.lines} lines, ${stats.bytes} bytes)` : ''),
    );
    if (!copy.changes.length) rmSync(join(runDir(o.home, dir, runId), 'snapshot.json'), { force: true });
  }
  const result: Omit<DreamResult, 'report' | 'reportText'> = {
    ran: true,
    reason: why,
    changes: copy.changes,
    ...(dryRun ? {} : { runId }),
    model,
    conflicts: copy.conflicts,
    refused: copy.refused,
    notes,
    tokensSent,
    dryRun,
  };
  const reportText = renderReport({
    dir,
    at: nowIso,
    result,
    drift,
    ...(o.llm ? { modelName: `${o.llm.name} ${o.llm.model}` } : {}),
  });
  let report: string | null = null;
  if (!dryRun) {
    report = join(runDir(o.home, dir, runId), 'report.md');
    writeFileAtomic(report, reportText, 0o600);
    // What the state was before this run, so that undoing it also undoes its place in the time gate.
    const before = readState(o.home, dir);
    writeFileAtomic(join(runDir(o.home, dir, runId), STATE_BEFORE), `${JSON.stringify(before)}\n`, 0o600);
    writeState(o.home, { dir, lastRunAt: now, lastScanAt: now, lastRunId: runId });
  }
  return { ...result, report, reportText };
}

/**
 * Undoes the latest run of `dir` that changed files and was not undone yet: every file it touched
 * goes back to what it was (files changed since are left alone and listed). Throws
 * DREAM_NOTHING_TO_UNDO when there is none. Takes the lock like a run.
 */
export function undoDream(o: Pick<DreamOptions, 'dir' | 'home' | 'clock'>): UndoResult {
  const dir = resolve(o.dir);
  const now = (o.clock ?? systemClock).now();
  const runsDir = join(stateDir(o.home, dir), 'runs');
  let runs: string[] = [];
  try {
    runs = readdirSync(runsDir).sort().reverse();
  } catch {
    // no runs
  }
  const lock = acquireDreamLock(o.home, dir, now);
  if (!lock.ok) {
    throw createError('DREAM_NOTHING_TO_UNDO', {
      dir,
      reason: `another process (pid ${lock.holder}) is consolidating this folder; try again when it is done`,
    });
  }
  try {
    for (const runId of runs) {
      try {
        const r = undoRun(o.home, dir, runId, isoAt(now));
        restoreStateBefore(o.home, dir, runId);
        return { runId, ...r };
      } catch (e) {
        if ((e as { code?: string }).code !== 'DREAM_NOTHING_TO_UNDO') throw e;
      }
    }
  } finally {
    releaseDreamLock(o.home, dir);
  }
  throw createError('DREAM_NOTHING_TO_UNDO', {
    dir,
    reason: 'no consolidation run that changed files is left to undo',
  });
}

/** The file in a run's folder that holds the state as it was before the run. */
const STATE_BEFORE = 'state-before.json';

/**
 * After an undo, the run no longer counts as the last consolidation: when the state names the undone
 * run, its last-run time and id go back to what they were before it (the scan time stays).
 */
function restoreStateBefore(home: string, dir: string, runId: string): void {
  const state = readState(home, dir);
  if (state.lastRunId !== runId) return;
  let before: { lastRunAt?: unknown; lastRunId?: unknown } = {};
  try {
    before = JSON.parse(readFileSync(join(runDir(home, dir, runId), STATE_BEFORE), 'utf8')) as typeof before;
  } catch {
    // A run written before this file existed: the state before it is unknown, so no last run.
  }
  const next: typeof state = { dir: state.dir };
  if (typeof before.lastRunAt === 'number') next.lastRunAt = before.lastRunAt;
  if (typeof before.lastRunId === 'string') next.lastRunId = before.lastRunId;
  if (state.lastScanAt !== undefined) next.lastScanAt = state.lastScanAt;
  writeState(home, next);
}
