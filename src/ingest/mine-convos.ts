/**
 * @module ingest/mine-convos
 * Mines conversation transcripts into the palace: Claude Code sessions, subagents and
 * `history.jsonl`, Codex and Gemini CLI logs, ChatGPT / Claude.ai exports, Slack channels and
 * plain-text chat logs (see `ingest/convos` for the formats and `convos-miner/` for the parts).
 *
 * One run: discover (one walk; unchanged files decided without reading) → prepare each changed
 * unit (inline, or on worker threads when more than 8 MB must be read and cores are idle, see
 * `defaultWorkers`) → write. Whole reads are
 * written in batches of about 2,000 drawers or 4 MB with `replaceSources` (each source
 * all-or-nothing, `skipIfHash` so that a second process mining the same content writes nothing);
 * appends are written one per file with `appendSource`, one transaction guarded by the committed
 * offset: when another process appended first, the unit is prepared again from the new state
 * (up to 3 times). A killed process therefore never leaves half an append, and two processes
 * mining one file write each drawer once (ids are deterministic, inserts idempotent).
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { createError } from '../core/errors.js';
// Not core/hash: node:crypto (~60 M instructions to load) is needed only when a file changed.
import { sha256Hex } from '../core/light-hash.js';
import { monotonicMs } from '../core/clock.js';
import type { DrawerInput, MemoryStore, SourceState } from '../store/ports.js';
import { defaultWorkers } from './workers.js';
import { defaultWing } from '../core/project-identity.js';
import { claudeConfigDir, discoverClaudeFiles } from './convos-miner/claude-dirs.js';
import { discover, type Discovery } from './convos-miner/discover.js';
import { UnknownTypes } from './convos-miner/unknown-types.js';
import { emptySkips, noteSkip, SKIPPED_LISTED } from './skips.js';
import { rootProjectOf } from './convos-miner/identity.js';
import type { UnitPreparer } from './convos-miner/pool.js';
import { isUnchanged } from './convos-miner/unchanged.js';
// The version leaf, not the door: an unchanged re-mine never loads the rules.
import { REDACT_RULES_VERSION } from '../redact/version.js';
import { isFullSource, knownSources, type KnownSource } from './known.js';
import {
  CONVO_MINER_VERSION,
  type ClaudeSourceState,
  type ConvoContext,
  type ConvoJob,
  type ConvoUnit,
  type MineConvosOptions,
  type MineConvosSummary,
  type PreparedUnit,
} from './convos-miner/types.js';

const BATCH_DRAWERS = 2000;
const BATCH_BYTES = 4 << 20;
const APPEND_ATTEMPTS = 3;

function clampInt(name: string, v: number | undefined, def: number, lo: number, hi: number): number {
  if (v === undefined) return def;
  if (!Number.isFinite(v) || v < lo || v > hi)
    throw createError('INVALID_ARGUMENT', { name, value: v, expected: `a number from ${lo} to ${hi}` });
  return Math.floor(v);
}

/** The run context (settings, fingerprint, clock) of a mining run rooted at `root`. */
function convoContext(root: string, opts: MineConvosOptions): ConvoContext {
  const base = {
    wing: opts.wing ?? null,
    room: opts.room ?? null,
    redact: opts.redact ?? true,
    toolResultChars: clampInt('toolResultChars', opts.toolResultChars, 300, 0, 100_000),
    toolInputChars: clampInt('toolInputChars', opts.toolInputChars, 200, 20, 100_000),
    maxChars: clampInt('maxChars', opts.maxChars, 1600, 200, 1_000_000),
    includeBranches: opts.includeBranches ?? true,
  };
  clampInt('idleMinutes', opts.idleMinutes, 10, 0, 100_000); // accepted, no effect (validated only)
  const config = sha256Hex(
    JSON.stringify({ v: CONVO_MINER_VERSION, ...base, ...(base.redact ? { redactRules: REDACT_RULES_VERSION } : {}) }),
  ).slice(0, 16);
  return {
    ...base,
    root,
    fallbackWing: opts.wing ?? defaultWing(root),
    rootProject: rootProjectOf(root),
    addedBy: opts.addedBy ?? 'loci-mine',
    config,
    now: (opts.now ?? Date.now)(),
  };
}

/** Walks `path` once and sorts conversations from other files (for `palace.mine` in auto mode). */
export async function discoverConversations(
  store: MemoryStore,
  path: string,
  opts: Pick<MineConvosOptions, 'files' | 'respectGitignore' | 'ignore'> = {},
): Promise<Discovery & { root: string; known: Map<string, KnownSource> }> {
  const root = resolve(path);
  if (!existsSync(root)) throw createError('PATH_NOT_FOUND', { path: root });
  const known = await knownSources(store, root);
  const d = await discover(root, {
    known,
    ...(opts.files ? { files: opts.files.map((f) => resolve(f)) } : {}),
    ...(opts.respectGitignore !== undefined ? { respectGitignore: opts.respectGitignore } : {}),
    ...(opts.ignore ? { ignore: opts.ignore } : {}),
  });
  return { ...d, root, known };
}

/** Mines conversations under `path` (a file or a folder); see the module comment. */
export async function mineConversations(
  store: MemoryStore,
  path: string,
  opts: MineConvosOptions = {},
): Promise<MineConvosSummary> {
  const t0 = monotonicMs();
  const d = await discoverConversations(store, path, opts);
  const summary = await mineConvoUnits(store, d.root, d.units, d.known, opts);
  accountWalk(summary, d, true);
  if (d.units.length === 0 && d.others.length > 0 && statSync(d.root).isFile()) {
    summary.warnings.push(`${d.root}: not a recognised conversation format — mine it with --mode projects`);
  }
  summary.seconds = (monotonicMs() - t0) / 1000;
  return summary;
}

/**
 * Counts what the walk did not hand to the conversation miner (see ingest/skips): pruned entries
 * (ignored), companions, and — when `others` are not mined by the project miner — every other
 * entry (a file: unrecognised; a walker skip: its reason).
 */
export function accountWalk(summary: MineConvosSummary, d: Discovery, others: boolean): void {
  for (const p of d.pruned) {
    summary.filesScanned++;
    noteSkip(summary, p.path, 'ignored', p.why === 'skip-dir' ? 'default skip list' : undefined);
  }
  summary.filesScanned += d.companions;
  summary.filesSkipped += d.companions;
  summary.skipped.companion += d.companions;
  for (const p of d.companionPaths)
    if (summary.skippedFiles.length < SKIPPED_LISTED) summary.skippedFiles.push({ path: p, reason: 'companion' });
  if (!others) return;
  for (const it of d.others) {
    summary.filesScanned++;
    if (it.kind === 'file')
      noteSkip(summary, it.path, 'unrecognised', 'not a conversation (mine it with --mode projects)');
    else noteSkip(summary, it.path, it.reason, it.detail);
  }
}

/** Mines discovered conversation units (see {@link discoverConversations}). */
export async function mineConvoUnits(
  store: MemoryStore,
  root: string,
  units: readonly ConvoUnit[],
  known: ReadonlyMap<string, KnownSource>,
  opts: MineConvosOptions = {},
): Promise<MineConvosSummary> {
  const t0 = monotonicMs();
  const ctx = convoContext(root, opts);
  const summary: MineConvosSummary = {
    path: root,
    wing: ctx.fallbackWing,
    filesScanned: units.length,
    filesSkipped: 0,
    filesUnchanged: 0,
    filesMined: 0,
    drawersAdded: 0,
    drawersUpdated: 0,
    drawersRemoved: 0,
    bytesRead: 0,
    seconds: 0,
    warnings: [],
    redactions: 0,
    conversations: 0,
    skipped: emptySkips(),
    skippedFiles: [],
  };
  const unknown = new UnknownTypes();
  const wings = new Set<string>();
  let sessions: Map<string, string> | undefined;
  const jobs: ConvoJob[] = [];
  let bytesTotal = 0;
  for (const unit of units) {
    // A stamp only is a project file's: no conversation miner continues from it.
    const prev = known.get(unit.path);
    const job: ConvoJob = { unit, prev: prev && isFullSource(prev) ? prev : null };
    if (isUnchanged(job, ctx)) {
      summary.filesUnchanged++;
      // the wing its drawers are in, so an unchanged run names the wings and not the folder
      if (job.prev) wings.add(job.prev.wing);
    } else {
      jobs.push(job);
      bytesTotal += Math.max(
        0,
        unit.size - (job.prev?.kind === 'convo' && job.prev.config === ctx.config ? job.prev.offset : 0),
      );
    }
  }

  const workers = opts.workers ?? defaultWorkers(bytesTotal);
  // The parsers load only when a unit must be read (an unchanged run never needs them).
  const pool = jobs.length ? await import('./convos-miner/pool.js') : null;
  const preparer: UnitPreparer | null = pool ? pool.createUnitPreparer(ctx, jobs.length > 1 ? workers : 0) : null;
  type Pending = { state: SourceState; drawers: DrawerInput[]; skipIfHash: string; r: PreparedUnit };
  let batch: Pending[] = [];
  let batchDrawers = 0;
  let batchBytes = 0;
  const credit = (r: PreparedUnit, added: number, updated = 0, removed = 0) => {
    summary.drawersAdded += added;
    summary.drawersUpdated += updated;
    summary.drawersRemoved += removed;
    summary.redactions += r.redactions;
    summary.conversations += r.conversations;
    if ('state' in r) wings.add(r.state.wing);
  };
  const flushBatch = async () => {
    if (batch.length === 0) return;
    const results = await store.replaceSources(
      batch.map(({ state, drawers, skipIfHash }) => ({ state, drawers, skipIfHash })),
    );
    results.forEach((res, i) => {
      if (res) credit(batch[i]!.r, res.added, res.updated, res.removed);
    });
    batch = [];
    batchDrawers = 0;
    batchBytes = 0;
  };
  /** Writes one prepared unit; appends are retried from the fresh state when another process got there first. */
  const write = async (first: PreparedUnit, job: ConvoJob): Promise<void> => {
    let r = first;
    for (let attempt = 1; ; attempt++) {
      if (!ctx.wing) joinSession(r, (sessions ??= sessionWings(known)));
      summary.warnings.push(...unknown.take(r.warnings));
      if (r.kind === 'unchanged') {
        summary.filesUnchanged++;
        if (job.prev) wings.add(job.prev.wing);
      } else if (r.kind === 'skipped') noteSkip(summary, r.path, 'unreadable', r.warnings[0]);
      else if (r.kind === 'touch') {
        summary.filesUnchanged++;
        wings.add(r.state.wing);
        await store.touchSource(r.state);
      } else if (r.kind === 'replace') {
        summary.filesMined++;
        batch.push({ state: r.state, drawers: r.drawers, skipIfHash: r.skipIfHash, r });
        batchDrawers += r.drawers.length;
        batchBytes += r.bytesRead;
        if (batchDrawers >= BATCH_DRAWERS || batchBytes >= BATCH_BYTES) await flushBatch();
      } else {
        const res = await store.appendSource(
          r.state,
          r.drawers,
          r.fromOffset,
          r.remove.length ? { remove: r.remove } : undefined,
        );
        if (res) {
          if (r.drawers.length > 0 || r.state.offset !== r.fromOffset) summary.filesMined++;
          else summary.filesUnchanged++;
          credit(r, res.added, res.updated, res.removed);
        } else if (attempt < APPEND_ATTEMPTS) {
          // Another process appended since this unit's state was read: continue from its state.
          opts.logger?.log('debug', 'another process appended first; continuing from its state', {
            source: job.unit.path,
            attempt,
          });
          const fresh: ConvoJob = { unit: job.unit, prev: (await store.getSource(job.unit.path)) ?? null };
          r = (await import('./convos-miner/prepare.js')).prepareUnit(fresh, ctx);
          summary.bytesRead += r.bytesRead;
          continue;
        } else {
          noteSkip(summary, job.unit.path, 'unreadable', 'busy: other processes kept appending to it');
          summary.warnings.push(
            `${job.unit.path}: other processes kept appending to it; it will be mined on the next run`,
          );
        }
      }
      return;
    }
  };
  const progress = (current: string) =>
    opts.onProgress?.({
      filesSeen: summary.filesSkipped + summary.filesUnchanged + summary.filesMined,
      filesTotal: summary.filesScanned,
      bytesRead: summary.bytesRead,
      bytesTotal,
      current,
    });
  try {
    const window: { job: ConvoJob; p: Promise<PreparedUnit> }[] = [];
    let next = 0;
    const depth = workers > 0 ? 4 * workers : 1;
    while (next < jobs.length || window.length) {
      while (next < jobs.length && window.length < depth) {
        const job = jobs[next++]!;
        window.push({ job, p: preparer!.prepare(job) });
      }
      if (opts.signal?.aborted) throw createError('ABORTED', { operation: 'mining' });
      const { job, p } = window.shift()!;
      const r = await p;
      summary.bytesRead += r.bytesRead;
      await write(r, job);
      progress(r.path);
    }
    await flushBatch();
  } finally {
    await preparer?.close();
  }

  summary.warnings.push(...unknown.finish());
  if (ctx.wing) summary.wing = ctx.wing;
  else if (wings.size > 0) summary.wing = [...wings].sort().join(', ');
  summary.seconds = (monotonicMs() - t0) / 1000;
  return summary;
}

/** Wings of the main session files already stored, by session id (see {@link joinSession}). */
function sessionWings(known: ReadonlyMap<string, KnownSource>): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of known.values()) {
    if (s.kind !== 'convo' || !isFullSource(s)) continue;
    const st = s.state as Partial<ClaudeSourceState>;
    if (st.kind === 'claude' && st.thread?.group === 'main' && st.thread.facts.sessionId)
      out.set(st.thread.facts.sessionId, s.wing);
  }
  return out;
}

/**
 * A subagent or compaction file joins the wing of its parent session (same `sessionId`), whose main
 * file is stored or mined earlier in the run (a session file sorts before its `subagents/` folder);
 * a main file records its wing for them. Rewrites the prepared drawers and cursor in place.
 */
function joinSession(r: PreparedUnit, sessions: Map<string, string>): void {
  if (!r.session || !('state' in r)) return;
  if (r.session.main) {
    sessions.set(r.session.id, r.state.wing);
    return;
  }
  const wing = sessions.get(r.session.id);
  if (!wing || wing === r.state.wing) return;
  r.state.wing = wing;
  const st = r.state.state as unknown as ClaudeSourceState;
  if (st.main) st.main.wing = wing;
  if ('drawers' in r) for (const d of r.drawers) d.wing = wing;
}

/** Options of {@link mineClaudeCode}. */
export interface MineClaudeOptions extends Omit<MineConvosOptions, 'files'> {
  /** Claude Code's configuration folder. Default `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
  configDir?: string;
  /** Environment for the default folder. Default: the process's (`core/env.ts`). */
  env?: NodeJS.ProcessEnv;
}

/**
 * Mines every Claude Code transcript (sessions, subagents, `history.jsonl`, see
 * `discoverClaudeFiles`) under the configuration folder; each conversation's wing comes from the
 * project of its `cwd` (see convos-miner/identity). Incremental and idempotent like
 * {@link mineConversations}. Throws CLAUDE_DIR_NOT_FOUND when the folder has no transcripts.
 */
export async function mineClaudeCode(store: MemoryStore, opts: MineClaudeOptions = {}): Promise<MineConvosSummary> {
  const { configDir, env, ...rest } = opts;
  const dir = claudeConfigDir(configDir, env);
  const files = discoverClaudeFiles(dir);
  return mineConversations(store, dir, { ...rest, files });
}
