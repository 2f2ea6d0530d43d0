/**
 * @module ingest/convos-miner/read-lines
 * Complete lines of an append-only transcript from a byte offset, read in 4 MiB blocks so that
 * memory stays bounded whatever the file holds.
 *
 * A line longer than {@link MAX_LINE_BYTES} (a 50 MB pasted log or image record) is never held
 * whole: its bytes are streamed through the content hash while only its first and last 64 KiB are
 * kept, and it is replaced by a **stub record** carrying the envelope keys found there (`type`,
 * `uuid`, `parentUuid`, `logicalParentUuid`, `sessionId`, `timestamp`, `cwd`, `isSidechain`,
 * `agentId`) and no text, so the conversation tree stays linked around it; the caller warns with
 * the file and line. A line of unknown type becomes an empty line. The content hash covers exactly
 * the complete lines, chained from `chain` for appends (`sha256(chain + '\0' + bytes)`).
 */
import { createHash } from 'node:crypto';
import { readCompleteLines } from '../convos/index.js';
import type { OpenFile } from './file-io.js';

/** Lines longer than this (bytes) are streamed past and replaced by a stub (see the module comment). */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;
const BLOCK = 4 * 1024 * 1024;
const KEEP = 64 * 1024;

/** What {@link readLines} answers. */
export interface ReadLinesResult {
  /** Complete lines (huge ones as stubs), in order. */
  lines: string[];
  /** Bytes of the complete lines, from the start offset. */
  consumed: number;
  /** Bytes read. */
  read: number;
  invalidUtf8Lines: number;
  /** SHA-256 (hex) of the consumed bytes, chained from `chain` when given. */
  hash: string;
  /** Huge lines replaced by stubs: index in `lines` and size in bytes. */
  huge: { index: number; bytes: number }[];
}

const RECORD_TYPES = new Set([
  'user',
  'assistant',
  'system',
  'summary',
  'progress',
  'attachment',
  'human',
  'session_meta',
  'response_item',
  'event_msg',
  'turn_context',
  'compacted',
  'gemini',
  'model',
]);

function keyValue(text: string, key: string): string | undefined {
  const m = new RegExp(`"${key}"\\s*:\\s*"((?:[^"\\\\]|\\\\.){1,400})"`).exec(text);
  return m ? (JSON.parse(`"${m[1]}"`) as string) : undefined;
}

/** The stub record of a huge line from its head and tail text (see the module comment). */
export function stubRecord(head: string, tail: string): string {
  const text = `${head}\n${tail}`;
  let type: string | undefined;
  for (const m of text.matchAll(/"type"\s*:\s*"([a-z_-]{1,40})"/g)) {
    if (RECORD_TYPES.has(m[1]!)) {
      type = m[1];
      break;
    }
  }
  if (!type) return '';
  const rec: Record<string, unknown> = { type };
  for (const k of ['uuid', 'parentUuid', 'logicalParentUuid', 'sessionId', 'timestamp', 'cwd', 'agentId']) {
    const v = keyValue(text, k);
    if (v !== undefined) rec[k] = v;
  }
  if (/"isSidechain"\s*:\s*true/.test(text)) rec.isSidechain = true;
  rec.message = { role: type === 'assistant' ? 'assistant' : 'user', content: [] };
  rec.payload = {};
  return JSON.stringify(rec);
}

/** SHA-256 of bytes [from, to) of `f`, chained from `chain` when given, read in blocks. */
function hashRange(f: OpenFile, from: number, to: number, chain?: string): string {
  const h = createHash('sha256');
  if (chain !== undefined) h.update(chain).update('\0');
  for (let p = from; p < to; p += BLOCK) h.update(f.read(p, Math.min(to, p + BLOCK)));
  return h.digest('hex');
}

/** Reads the complete lines of `f` from byte `start` (see the module comment). */
export function readLines(
  f: OpenFile,
  start: number,
  o: { chain?: string; maxLineBytes?: number } = {},
): ReadLinesResult {
  const max = Math.max(1, o.maxLineBytes ?? MAX_LINE_BYTES);
  const h = createHash('sha256');
  if (o.chain !== undefined) h.update(o.chain).update('\0');
  const out: ReadLinesResult = { lines: [], consumed: 0, read: 0, invalidUtf8Lines: 0, hash: '', huge: [] };
  let carry: Buffer | null = null;
  let huge: { head: Buffer; tail: Buffer; bytes: number } | null = null;
  for (let pos = start; pos < f.size;) {
    const block = f.read(pos, Math.min(f.size, pos + Math.min(BLOCK, max)));
    if (block.length === 0) break;
    pos += block.length;
    out.read += block.length;
    let rest = block;
    if (carry) {
      // the line begun in an earlier block: too long once this block is added?
      const nl = rest.indexOf(0x0a);
      if (carry.length + (nl < 0 ? rest.length : nl) > max) {
        h.update(carry);
        huge = {
          head: Buffer.from(carry.subarray(0, KEEP)),
          tail: Buffer.from(carry.subarray(Math.max(0, carry.length - KEEP))),
          bytes: carry.length,
        };
        carry = null;
      }
    }
    if (huge) {
      const nl = rest.indexOf(0x0a);
      const upto = nl < 0 ? rest.length : nl + 1;
      h.update(rest.subarray(0, upto));
      huge.bytes += upto;
      const t = Buffer.concat([huge.tail, rest.subarray(0, nl < 0 ? upto : nl)]);
      huge.tail = Buffer.from(t.subarray(Math.max(0, t.length - KEEP)));
      if (nl < 0) continue;
      out.huge.push({ index: out.lines.length, bytes: huge.bytes });
      out.lines.push(stubRecord(huge.head.toString('utf8'), huge.tail.toString('utf8')));
      out.consumed += huge.bytes;
      huge = null;
      rest = rest.subarray(upto);
    }
    // Lines after the first in this buffer lie inside one block (at most `max` bytes): never too long.
    const buf: Buffer = carry ? Buffer.concat([carry, rest]) : rest;
    const last = buf.lastIndexOf(0x0a);
    let left = buf;
    if (last >= 0) {
      const part = buf.subarray(0, last + 1);
      const r = readCompleteLines(part, 0);
      for (const l of r.lines) out.lines.push(l);
      out.invalidUtf8Lines += r.invalidUtf8Lines;
      h.update(part);
      out.consumed += part.length;
      left = buf.subarray(last + 1);
    }
    carry = null;
    if (left.length > max) {
      h.update(left);
      huge = {
        head: Buffer.from(left.subarray(0, KEEP)),
        tail: Buffer.from(left.subarray(left.length - KEEP)),
        bytes: left.length,
      };
    } else if (left.length) carry = Buffer.from(left);
  }
  // A huge line still being written was hashed but is not consumed: hash the consumed bytes again.
  out.hash = huge ? hashRange(f, start, start + out.consumed, o.chain) : h.digest('hex');
  return out;
}
