/**
 * @module ingest/convos-miner/file-io
 * Reading append-only transcripts: byte ranges through one file descriptor, the prefix hash that
 * detects a rewritten file, and the source-state fields shared by every unit kind.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { fsError } from '../../core/errors.js';
import type { DrawerInput, SourceState } from '../../store/ports.js';
import type { ConvoContext, ConvoSourceState, PreparedUnit } from './types.js';

/** Bytes at the start of a file covered by the prefix hash. */
const PREFIX_HEAD = 64 * 1024;
/** Bytes just before the committed offset covered by the prefix hash. */
const PREFIX_TAIL = 4 * 1024;

/** An open transcript: its size and mtime at open time, and range reads. */
export interface OpenFile {
  size: number;
  mtimeMs: number;
  /** Bytes [start, end) (clamped to the size seen at open time). */
  read(start: number, end: number): Buffer;
  close(): void;
}

/** Opens a file for range reads. Throws a catalogue error (PATH_NOT_FOUND, PERMISSION_DENIED, FILE_UNREADABLE). */
function openFile(path: string): OpenFile {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw fsError(e, path);
  }
  const st = fstatSync(fd);
  const size = st.size;
  return {
    size,
    mtimeMs: st.mtimeMs,
    read(start, end) {
      const e = Math.min(end, size);
      const len = Math.max(0, e - start);
      const buf = Buffer.allocUnsafe(len);
      let got = 0;
      while (got < len) {
        const n = readSync(fd, buf, got, len - got, start + got);
        if (n === 0) break;
        got += n;
      }
      return got === len ? buf : buf.subarray(0, got);
    },
    close() {
      closeSync(fd);
    },
  };
}

/** Runs `fn` on the opened file and closes it. */
export function withFile<T>(path: string, fn: (f: OpenFile) => T): T {
  const f = openFile(path);
  try {
    return fn(f);
  } finally {
    f.close();
  }
}

/**
 * Hash of the first {@link PREFIX_HEAD} bytes and the {@link PREFIX_TAIL} bytes before `offset`
 * (both clipped to `offset`): a file rewritten from the start, or cut and rewritten near the
 * committed offset, no longer matches, at the cost of two small reads.
 */
export function prefixHash(f: OpenFile, offset: number): string {
  const h = createHash('sha256');
  h.update(f.read(0, Math.min(PREFIX_HEAD, offset)));
  h.update('\0');
  h.update(f.read(Math.max(0, offset - PREFIX_TAIL), offset));
  return h.digest('hex');
}

/** A source state for `path` with the given bookkeeping (kind `convo`). */
export function sourceState(
  path: string,
  ctx: ConvoContext,
  wing: string,
  f: { size: number; mtimeMs: number },
  fields: { hash: string; offset: number; prefixHash: string | null; state: ConvoSourceState },
): SourceState {
  return {
    source: path,
    wing,
    kind: 'convo',
    root: ctx.root,
    size: f.size,
    mtimeMs: f.mtimeMs,
    hash: fields.hash,
    offset: fields.offset,
    prefixHash: fields.prefixHash,
    config: ctx.config,
    state: fields.state as unknown as Record<string, unknown>,
    minedAt: new Date(ctx.now).toISOString(),
  };
}

/** True when a stored append-only source can be continued: the file did not shrink and its prefix is unchanged. */
export function canContinue(f: OpenFile, prev: SourceState): boolean {
  return f.size >= prev.offset && prev.prefixHash !== null && prefixHash(f, prev.offset) === prev.prefixHash;
}

/**
 * The `append` answer of an append-only source: bookkeeping advanced over the `consumed` bytes
 * (complete lines, `tail.hash` their chained hash, see `readLines`) read from the stored offset, and
 * the drawers to add.
 */
export function appendAnswer(
  path: string,
  f: OpenFile,
  prev: SourceState,
  ctx: ConvoContext,
  tail: { read: number; consumed: number; hash: string },
  wing: string,
  state: ConvoSourceState,
  out: { drawers: DrawerInput[]; remove: string[]; redactions: number; conversations: number; warnings: string[] },
): PreparedUnit {
  const offset = prev.offset + tail.consumed;
  const moved = tail.consumed > 0;
  return {
    kind: 'append',
    path,
    state: sourceState(path, ctx, wing, f, {
      hash: moved ? tail.hash : prev.hash,
      offset,
      prefixHash: moved ? prefixHash(f, offset) : prev.prefixHash,
      state,
    }),
    fromOffset: prev.offset,
    bytesRead: tail.read,
    ...out,
  };
}
