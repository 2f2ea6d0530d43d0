/**
 * @module ingest/convos-miner/sniff
 * Reading just enough of a file to tell its conversation format, in bounded memory.
 *
 * The first 64 KiB decide (`detectFormat`). When they hold no line break and the file goes on (a
 * first line longer than the head, e.g. a 50 MB record), the end of that line is found by reading
 * 1 MiB blocks one at a time, and `detectFormatPastHugeLine` decides from the records after it and
 * from the key names of the line's head and tail, so neither the line's length nor its key order
 * hides a transcript. Files whose name cannot hold a conversation are first peeked at (512 bytes)
 * and sniffed only when they start like JSON.
 */
import { extname } from 'node:path';
import { DETECT_HEAD_CHARS, detectFormat, detectFormatPastHugeLine } from '../convos/detect.js';
import type { ConvoFormat } from '../convos/types.js';
import { withFile, type OpenFile } from './file-io.js';

const BLOCK = 1 << 20;
/** The end of a first line is looked for in at most this many bytes. */
const MAX_SCAN = 4 * 1024 ** 3;
/** Names that may hold a conversation: read the head directly. Others are peeked at first. */
const CANDIDATE_EXT = new Set(['.jsonl', '.ndjson', '.json', '.txt', '.md', '.markdown', '.log', '.text', '.chat', '']);

/** Offset of the first `\n` at or after `from`, else the size (scanning blocks one at a time). */
function lineEnd(f: OpenFile, from: number): number {
  for (let pos = from; pos < f.size && pos - from < MAX_SCAN; pos += BLOCK) {
    const b = f.read(pos, pos + BLOCK);
    const i = b.indexOf(0x0a);
    if (i >= 0) return pos + i;
    if (b.length === 0) break;
  }
  return f.size;
}

/**
 * The conversation format of the file at `path`, or null when it is not one (a
 * project file) or cannot be read. See the module comment.
 */
export function sniffFormat(path: string): ConvoFormat | null {
  try {
    return withFile(path, (f) => {
      if (!CANDIDATE_EXT.has(extname(path).toLowerCase())) {
        const peek = f
          .read(0, 512)
          .toString('utf8')
          .replace(/^\uFEFF/, '')
          .trimStart();
        if (!peek.startsWith('{') && !peek.startsWith('[')) return null;
      }
      const head = f.read(0, DETECT_HEAD_CHARS);
      if (head.indexOf(0x0a) >= 0 || f.size <= head.length) return detectFormat(path, head.toString('utf8'));
      const end = lineEnd(f, head.length);
      const tail = f.read(Math.max(head.length, end - DETECT_HEAD_CHARS), end);
      const rest = end < f.size ? f.read(end + 1, end + 1 + DETECT_HEAD_CHARS) : Buffer.alloc(0);
      return detectFormatPastHugeLine(path, head.toString('utf8'), tail.toString('utf8'), rest.toString('utf8'));
    });
  } catch {
    return null;
  }
}
