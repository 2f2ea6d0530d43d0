/**
 * @module ingest/mine-project
 * Mines a project folder into the palace: walk (ignores respected) → read → chunk by structure →
 * one atomic `replaceSource` per changed file. Incremental: a file whose size, mtime and settings
 * are unchanged is not even read; a touched file with the same content writes only its bookkeeping.
 */
import { readFileSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { createError, fsError } from '../core/errors.js';
import { sha256, stableId } from '../core/hash.js';
import type { Logger } from '../core/logger.js';
import type { DrawerInput, MemoryStore, SourceState } from '../store/ports.js';
import {
  chunkDocument,
  contentDateFor,
  decodeText,
  DEFAULT_CHUNK_OPTIONS,
  languageFor,
  looksBinary,
  roomForPath,
  walkProject,
  type ChunkOptions,
} from './project/index.js';
import { defaultWing } from './project-identity.js';

/** Bump when chunking or drawer layout changes, so every file is re-mined once. */
export const PROJECT_MINER_VERSION = 1;

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
  /** Stored as `addedBy`. Default `loci-mine`. */
  addedBy?: string;
  /** Called after every file. */
  onProgress?: (p: MineProgress) => void;
  /** Cancels between files (what was committed stays). */
  signal?: AbortSignal;
  logger?: Logger;
}

/** Progress of a mining run. */
export interface MineProgress {
  filesSeen: number;
  bytesRead: number;
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
  seconds: number;
  /** One line per file that could not be mined as-is (what and why). */
  warnings: string[];
}

function configFingerprint(opts: MineProjectOptions, chunk: Required<ChunkOptions>): string {
  return sha256(JSON.stringify({ v: PROJECT_MINER_VERSION, chunk, room: opts.room ?? null })).slice(0, 16);
}

/** Mines `path` (a folder or a single file) into `store`. */
export async function mineProject(store: MemoryStore, path: string, opts: MineProjectOptions = {}): Promise<MineSummary> {
  const t0 = performance.now();
  const root = resolve(path);
  const wing = opts.wing ?? defaultWing(root);
  const chunkOpts = { ...DEFAULT_CHUNK_OPTIONS, ...opts.chunk };
  if (chunkOpts.targetChars < 100 || chunkOpts.maxChars < chunkOpts.targetChars || chunkOpts.overlapChars >= chunkOpts.maxChars / 2) {
    throw createError('INVALID_ARGUMENT', {
      name: 'chunk options',
      value: chunkOpts,
      expected: 'targetChars >= 100, maxChars >= targetChars, overlapChars < maxChars / 2',
    });
  }
  const config = configFingerprint(opts, chunkOpts);
  const addedBy = opts.addedBy ?? 'loci-mine';
  const summary: MineSummary = {
    path: root, wing, filesScanned: 0, filesSkipped: 0, filesUnchanged: 0, filesMined: 0,
    drawersAdded: 0, drawersUpdated: 0, drawersRemoved: 0, bytesRead: 0, seconds: 0, warnings: [],
  };

  const known = new Map<string, SourceState>();
  for (const s of await store.listSources({ kind: 'project' })) {
    if (s.source === root || s.source.startsWith(root + sep)) known.set(s.source, s);
  }
  const seen = new Set<string>();

  const walkOpts = {
    root,
    ...(opts.maxFileBytes !== undefined ? { maxFileBytes: opts.maxFileBytes } : {}),
    ...(opts.respectGitignore !== undefined ? { respectGitignore: opts.respectGitignore } : {}),
    ...(opts.ignore ? { extraIgnores: opts.ignore } : {}),
  };
  for (const item of walkProject(walkOpts)) {
    if (opts.signal?.aborted) throw createError('ABORTED', { operation: 'mining' });
    summary.filesScanned++;
    if (item.kind === 'skipped') {
      // Drawers of a file that is now unreadable, too large or binary are kept (never lose data).
      seen.add(item.path);
      summary.filesSkipped++;
      if (item.reason === 'unreadable') summary.warnings.push(`${item.path}: unreadable (${item.detail ?? 'error'}) — check its permissions`);
      // A file that became too large or binary keeps no stale drawers.
      continue;
    }
    seen.add(item.path);
    const prev = known.get(item.path);
    if (prev && prev.size === item.size && prev.mtimeMs === item.mtimeMs && prev.config === config && prev.wing === wing) {
      summary.filesUnchanged++;
      opts.onProgress?.({ filesSeen: summary.filesScanned, bytesRead: summary.bytesRead, current: item.rel });
      continue;
    }
    let buf: Buffer;
    try {
      buf = readFileSync(item.path);
    } catch (e) {
      summary.filesSkipped++;
      summary.warnings.push(`${fsError(e, item.path).message}`);
      continue;
    }
    summary.bytesRead += buf.length;
    if (looksBinary(buf)) {
      summary.filesSkipped++;
      continue;
    }
    const hash = sha256(buf);
    const state: SourceState = {
      source: item.path, wing, kind: 'project', root, size: item.size, mtimeMs: item.mtimeMs, hash,
      offset: buf.length, prefixHash: null, config, state: { rel: item.rel }, minedAt: new Date().toISOString(),
    };
    if (prev && prev.hash === hash && prev.config === config && prev.wing === wing) {
      await store.touchSource(state);
      summary.filesUnchanged++;
      continue;
    }
    const { text, invalidUtf8 } = decodeText(buf);
    if (invalidUtf8) {
      summary.warnings.push(`${item.path}: not valid UTF-8; stored with replacement characters — convert it to UTF-8 to keep it exactly`);
    }
    const drawers = toDrawers(text, item.rel, item.path, item.mtimeMs, hash, wing, opts.room, chunkOpts, addedBy);
    const r = await store.replaceSource(state, drawers, { skipIfHash: hash });
    summary.filesMined++;
    if (r) {
      summary.drawersAdded += r.added;
      summary.drawersUpdated += r.updated;
      summary.drawersRemoved += r.removed;
    }
    opts.onProgress?.({ filesSeen: summary.filesScanned, bytesRead: summary.bytesRead, current: item.rel });
  }

  if (opts.prune) {
    for (const source of known.keys()) {
      if (!seen.has(source)) summary.drawersRemoved += await store.removeSource(source);
    }
  }
  summary.seconds = (performance.now() - t0) / 1000;
  return summary;
}

function toDrawers(
  text: string,
  rel: string,
  path: string,
  mtimeMs: number,
  hash: string,
  wing: string,
  room: string | undefined,
  chunkOpts: Required<ChunkOptions>,
  addedBy: string,
): DrawerInput[] {
  const chunks = chunkDocument(rel, text, chunkOpts);
  const language = languageFor(rel);
  const date = contentDateFor(rel, text, mtimeMs);
  const theRoom = room ?? roomForPath(rel);
  const occurrences = new Map<string, number>();
  return chunks.map((c) => {
    const ch = sha256(c.text);
    const n = occurrences.get(ch) ?? 0;
    occurrences.set(ch, n + 1);
    return {
      id: stableId('d', path, ch, n),
      wing,
      room: theRoom,
      hall: null,
      source: path,
      sourceHash: hash,
      sourceMtime: mtimeMs,
      chunkIndex: c.index,
      lineStart: c.lineStart,
      lineEnd: c.lineEnd,
      contentDate: date,
      addedBy,
      metadata: { rel, kind: c.kind, ...(language ? { language } : {}), ...(c.heading ? { heading: c.heading } : {}) },
      text: c.text,
      indexExtra: c.heading ? `${rel} ${c.heading}` : rel,
    };
  });
}
