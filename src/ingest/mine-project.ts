/**
 * @module ingest/mine-project
 * Mines a project folder into the palace: walk (ignores respected) → read → chunk by structure →
 * one atomic `replaceSource` per changed file. Incremental: a file whose size, mtime and settings
 * are unchanged is not even read; a touched file with the same content writes only its bookkeeping.
 */
import { join, resolve } from 'node:path';
import { createError } from '../core/errors.js';
// Not core/hash: node:crypto (~60 M instructions to load) is needed only when a file changed.
import { sha256Hex } from '../core/light-hash.js';
import { monotonicMs } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { DrawerInput, MemoryStore, SourceState } from '../store/ports.js';
import type { GraphBatch } from '../kg/index.js';
// Direct imports (not the project door): an unchanged tree never loads the chunkers.
import { DEFAULT_MAX_FILE_BYTES, walkProject, type WalkItem } from './project/walk.js';
import { DEFAULT_CHUNK_OPTIONS, type ChunkOptions } from './project/chunk-types.js';
import { defaultWing } from '../core/project-identity.js';
import { defaultWorkers } from './workers.js';
import { emptySkips, noteSkip, type SkipReason, type SkippedFile } from './skips.js';
import type { Preparer } from './preparer.js';
import type { PrepareContext, PrepareJob } from './prepare-file.js';
// The version leaf, not the door: an unchanged re-mine never loads the rules.
import { REDACT_RULES_VERSION } from '../redact/version.js';
import { isFullSource, knownSources, type KnownSource } from './known.js';

/** Bump when chunking or drawer layout changes, so every file is re-mined once. */
const PROJECT_MINER_VERSION = 1;

/**
 * Files are written in batches of about this many drawers or bytes per transaction: one
 * transaction per file halves write throughput, while a batch still commits every file whole
 * (a crash loses at most the uncommitted batch, which the next run mines again).
 */
const BATCH_DRAWERS = 2000;
const BATCH_BYTES = 4 << 20;

/** Options of {@link mineProject}. */
export interface MineProjectOptions {
  /** Wing for every drawer. Default: the git root's name, else the folder name. */
  wing?: string;
  /** Force one room for every drawer. Default: from the folder structure (`roomForPath`). */
  room?: string;
  /** Skip files larger than this. Default 2 MiB. */
  maxFileBytes?: number;
  /** Chunk size settings (defaults: target 1200, max 2400, overlap 200, min 40 chars). */
  chunk?: ChunkOptions;
  /** Respect `.gitignore` files. Default true (`.lociignore` is always respected). */
  respectGitignore?: boolean;
  /** Extra gitignore-style patterns. */
  ignore?: readonly string[];
  /** Remove drawers of files that no longer exist under the path. Default false. */
  prune?: boolean;
  /** Replace secrets with `[REDACTED:kind]` before storing. Default true. */
  redact?: boolean;
  /** Stored as `addedBy`. Default `loci-mine`. */
  addedBy?: string;
  /** Called after every file. */
  onProgress?: (p: MineProgress) => void;
  /**
   * Run the knowledge-graph extractor while preparing files (in the workers), and hand the results
   * to `onWritten` after each batch is committed. Default off.
   */
  extract?: {
    userName: string | null;
    onWritten: (written: { id: string; batch: GraphBatch | null }[]) => Promise<void>;
  };
  /**
   * Worker threads that read, chunk and tokenise while the main thread writes. Default: one
   * per idle core (at most 3) when more than 8 MB must be mined, else 0 (inline); see `defaultWorkers`.
   */
  workers?: number;
  /** Cancels between files (what was committed stays). */
  signal?: AbortSignal;
  logger?: Logger;
  /**
   * Entries already walked (by `walkProject` over the same `path`, e.g. when `palace.mine` splits
   * one walk between conversations and project files): mined instead of walking again; files over
   * `maxFileBytes` among them are skipped as too large, as the walk would have. Default: walk.
   */
  items?: Iterable<WalkItem>;
  /**
   * Stored sources under `path` (any kind), when the caller has listed them already (auto mode's
   * discovery): used instead of listing them again. Default: listed from the store.
   */
  known?: ReadonlyMap<string, KnownSource>;
}

/** Progress of a mining run. */
export interface MineProgress {
  /** Files handled so far (mined, unchanged or skipped). */
  filesSeen: number;
  /** Files found by the walk. */
  filesTotal: number;
  bytesRead: number;
  /** Bytes of the files that have to be read (changed or new). */
  bytesTotal: number;
  current: string;
}

/** What a mining run did. */
export interface MineSummary {
  path: string;
  wing: string;
  filesScanned: number;
  filesSkipped: number;
  filesUnchanged: number;
  filesMined: number;
  drawersAdded: number;
  drawersUpdated: number;
  drawersRemoved: number;
  bytesRead: number;
  /** Secrets replaced by `[REDACTED:kind]`. */
  redactions: number;
  seconds: number;
  /** One line per file that could not be mined as-is (what and why). */
  warnings: string[];
  /** Skipped entries per reason (every reason present); they add up to `filesSkipped` (see ingest/skips). */
  skipped: Record<SkipReason, number>;
  /** The skipped entries with their paths (the first 2000), for `--verbose`. */
  skippedFiles: SkippedFile[];
}

function configFingerprint(opts: MineProjectOptions, chunk: Required<ChunkOptions>): string {
  const redact = opts.redact ?? true;
  return sha256Hex(
    JSON.stringify({
      v: PROJECT_MINER_VERSION,
      chunk,
      room: opts.room ?? null,
      redact,
      ...(redact ? { redactRules: REDACT_RULES_VERSION } : {}),
    }),
  ).slice(0, 16);
}

/** Mines `path` (a folder or a single file) into `store`. */
export async function mineProject(
  store: MemoryStore,
  path: string,
  opts: MineProjectOptions = {},
): Promise<MineSummary> {
  const t0 = monotonicMs();
  const root = resolve(path);
  const wing = opts.wing ?? defaultWing(root);
  const chunk = { ...DEFAULT_CHUNK_OPTIONS, ...opts.chunk };
  if (chunk.targetChars < 100 || chunk.maxChars < chunk.targetChars || chunk.overlapChars >= chunk.maxChars / 2) {
    throw createError('INVALID_ARGUMENT', {
      name: 'chunk options',
      value: chunk,
      expected: 'targetChars >= 100, maxChars >= targetChars, overlapChars < maxChars / 2',
    });
  }
  const config = configFingerprint(opts, chunk);
  const summary: MineSummary = {
    path: root,
    wing,
    filesScanned: 0,
    filesSkipped: 0,
    filesUnchanged: 0,
    filesMined: 0,
    drawersAdded: 0,
    drawersUpdated: 0,
    drawersRemoved: 0,
    bytesRead: 0,
    redactions: 0,
    seconds: 0,
    warnings: [],
    skipped: emptySkips(),
    skippedFiles: [],
  };

  // Stored sources of every kind under the root (a path stored by another miner counts as new here).
  const known = opts.known ?? (await knownSources(store, root));
  // The walked paths, for pruning only (an unchanged re-mine of a large tree would otherwise keep one more set).
  const seen = opts.prune ? new Set<string>() : null;

  // 1. Walk and sort out what is unchanged at the stat level (no read at all).
  const maxBytes = opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const jobs: PrepareJob[] = [];
  const stampOnly: PrepareJob[] = [];
  let bytesTotal = 0;
  const items =
    opts.items ??
    walkProject({
      root,
      ...(opts.maxFileBytes !== undefined ? { maxFileBytes: opts.maxFileBytes } : {}),
      ...(opts.respectGitignore !== undefined ? { respectGitignore: opts.respectGitignore } : {}),
      ...(opts.ignore ? { extraIgnores: opts.ignore } : {}),
      onPrune: (rel, why) => {
        summary.filesScanned++;
        noteSkip(
          summary,
          `${join(root, rel)}${why === 'skip-dir' ? '/' : ''}`,
          'ignored',
          why === 'skip-dir' ? 'default skip list' : undefined,
        );
      },
    });
  for (const item of items) {
    summary.filesScanned++;
    seen?.add(item.path);
    if (item.kind === 'skipped') {
      // Drawers of a file that is now unreadable, too large or binary are kept (never lose data).
      noteSkip(summary, item.path, item.reason, item.detail);
      if (item.reason === 'unreadable')
        summary.warnings.push(`${item.path}: unreadable (${item.detail ?? 'error'}) — check its permissions`);
      continue;
    }
    if (item.size > maxBytes) {
      // Items handed over by auto mode's discovery were walked without the limit (conversations have none).
      noteSkip(summary, item.path, 'too-large', `${item.size} bytes > ${maxBytes}`);
      continue;
    }
    const stored = known.get(item.path);
    const prev = stored?.kind === 'project' ? stored : undefined;
    if (
      prev &&
      prev.size === item.size &&
      prev.mtimeMs === item.mtimeMs &&
      prev.config === config &&
      prev.wing === wing
    ) {
      summary.filesUnchanged++;
      continue;
    }
    const sameSettings = prev && prev.config === config && prev.wing === wing;
    const job: PrepareJob = { path: item.path, rel: item.rel, size: item.size, mtimeMs: item.mtimeMs, prevHash: null };
    if (sameSettings) {
      if (isFullSource(prev)) job.prevHash = prev.hash;
      else stampOnly.push(job);
    }
    jobs.push(job);
    bytesTotal += item.size;
  }
  // A changed file's stored hash (a touched file with the same content then writes only its bookkeeping).
  for (const job of stampOnly) {
    const s = await store.getSource(job.path);
    job.prevHash = s && s.kind === 'project' && s.config === config && s.wing === wing ? s.hash : null;
  }

  // 2. Prepare (inline or in workers) and write in batches.
  const ctx: PrepareContext = {
    root,
    wing,
    room: opts.room,
    chunk,
    config,
    addedBy: opts.addedBy ?? 'loci-mine',
    redact: opts.redact ?? true,
    extract: opts.extract ? { userName: opts.extract.userName } : false,
  };
  const workers = opts.workers ?? defaultWorkers(bytesTotal);
  // Loaded only when something must be read (chunkers, redaction, extraction: the preparing side).
  const preparer: Preparer | null = jobs.length ? (await import('./preparer.js')).createPreparer(ctx, workers) : null;
  type Pending = {
    state: SourceState;
    drawers: DrawerInput[];
    skipIfHash: string;
    extractions?: (GraphBatch | null)[];
  };
  let batch: Pending[] = [];
  let batchDrawers = 0;
  let batchBytes = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const results = await store.replaceSources(batch.map(({ extractions: _x, ...b }) => b));
    if (opts.extract) {
      const written: { id: string; batch: GraphBatch | null }[] = [];
      batch.forEach((b, i) => {
        if (!results[i]) return;
        b.drawers.forEach((d, j) => written.push({ id: d.id!, batch: b.extractions?.[j] ?? null }));
      });
      await opts.extract.onWritten(written);
    }
    for (const r of results) {
      if (!r) continue;
      summary.drawersAdded += r.added;
      summary.drawersUpdated += r.updated;
      summary.drawersRemoved += r.removed;
    }
    batch = [];
    batchDrawers = 0;
    batchBytes = 0;
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
    const window: ReturnType<Preparer['prepare']>[] = [];
    let next = 0;
    while (next < jobs.length || window.length) {
      // Keep the workers busy while the main thread is inside a (synchronous) batch write.
      while (next < jobs.length && window.length < (workers > 0 ? 512 : 8))
        window.push(preparer!.prepare(jobs[next++]!));
      if (opts.signal?.aborted) throw createError('ABORTED', { operation: 'mining' });
      const r = await window.shift()!;
      if (r.kind === 'unreadable') {
        noteSkip(summary, r.path, 'unreadable', r.message);
        summary.warnings.push(r.message);
      } else if (r.kind === 'binary') {
        noteSkip(summary, r.path, 'binary', 'content');
        summary.bytesRead += r.bytes;
      } else if (r.kind === 'same') {
        summary.bytesRead += r.bytes;
        summary.filesUnchanged++;
        await store.touchSource(r.state);
      } else {
        summary.bytesRead += r.bytes;
        summary.filesMined++;
        summary.redactions += r.redactions;
        if (r.warning) summary.warnings.push(r.warning);
        batch.push({
          state: r.state,
          drawers: r.drawers,
          skipIfHash: r.state.hash,
          ...(r.extractions ? { extractions: r.extractions } : {}),
        });
        batchDrawers += r.drawers.length;
        batchBytes += r.bytes;
        if (batchDrawers >= BATCH_DRAWERS || batchBytes >= BATCH_BYTES) await flush();
      }
      progress(r.path);
    }
    await flush();
  } finally {
    await preparer?.close();
  }

  if (seen) {
    for (const [source, s] of known) {
      if (s.kind === 'project' && !seen.has(source)) summary.drawersRemoved += await store.removeSource(source);
    }
  }
  summary.seconds = (monotonicMs() - t0) / 1000;
  return summary;
}
