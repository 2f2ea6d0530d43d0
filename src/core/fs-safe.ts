/**
 * @module core/fs-safe
 * Crash-safe file writes: write to a temp file in the same folder, fsync, then rename over the target.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { fsError } from './errors.js';
import { randomHex } from './light-hash.js';

/**
 * Atomically replaces `path` with `data`. Readers see either the old or the new content, never a
 * partial file; a crash leaves at most a stray `.<name>.<random>.tmp` beside it.
 * @param mode file mode for a new file (default 0o644; use 0o600 for private data)
 * @param options `fsync: false` skips the flush before the rename (still atomic for readers, not
 *   durable across a power loss; for caches that can check and rewrite their files). Default true.
 */
export function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  mode = 0o644,
  options: { fsync?: boolean } = {},
): void {
  const dir = dirname(path);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw fsError(e, dir, 'create');
  }
  const tmp = join(dir, `.${basename(path)}.${randomHex(12)}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, 'wx', mode);
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    if (options.fsync !== false) fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, path);
  } catch (e) {
    if (fd !== undefined) closeSync(fd);
    rmSync(tmp, { force: true });
    throw fsError(e, path, 'write');
  }
}
