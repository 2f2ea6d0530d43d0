/**
 * @module ingest/convos/jsonl
 * Line-oriented reading of JSONL transcripts: complete lines from a byte offset (for incremental
 * mining of growing files) and tolerant per-line JSON parsing (malformed lines become warnings).
 */
import { isUtf8 } from 'node:buffer';
import { createError } from '../../core/errors.js';
import { isObj, type Json, type Warnings } from './util.js';

/** Result of {@link readCompleteLines}. */
interface CompleteLines {
  /** Complete lines (without `\n`, and without a trailing `\r`), in order. May include empty strings. */
  lines: string[];
  /** Byte offset just after the last complete line (= `fromOffset` when there is none). */
  nextOffset: number;
  /** Lines that were not valid UTF-8 (decoded with U+FFFD replacement characters). */
  invalidUtf8Lines: number;
}

const NL = 0x0a;
const CR = 0x0d;

/**
 * Returns the complete lines (each ending in `\n`) of `buf` from byte `fromOffset`. An incomplete
 * last line (a file still being written) is left out: `nextOffset` stops before it, so the next
 * read starts there. Invalid UTF-8 is decoded with U+FFFD and counted per line.
 *
 * `fromOffset` must be an integer in 0…`buf.length` (else INVALID_ARGUMENT): a stored offset beyond
 * the end of the file means the file was truncated or rewritten, which the caller must detect first
 * (via the stored prefix hash) and answer with a full re-read.
 */
export function readCompleteLines(buf: Uint8Array, fromOffset: number): CompleteLines {
  if (!Number.isInteger(fromOffset) || fromOffset < 0 || fromOffset > buf.length) {
    throw createError('INVALID_ARGUMENT', {
      name: 'fromOffset',
      value: fromOffset,
      expected: `an integer byte offset between 0 and ${buf.length}`,
    });
  }
  const last = buf.lastIndexOf(NL);
  if (last < fromOffset) return { lines: [], nextOffset: fromOffset, invalidUtf8Lines: 0 };
  const end = last + 1;
  // Decoded line by line, not as one text split afterwards: a line of ASCII stays a one-byte string (a whole
  // transcript with a single `é` would be a two-byte string, every line sliced from it), which JSON.parse reads
  // in about half the time. A line holds no byte 0x0A but its end (UTF-8 never uses it inside a character),
  // so the lines and their U+FFFD replacements are those of decoding the whole chunk.
  const valid = isUtf8(buf.subarray(fromOffset, end));
  const b = Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.length);
  const lines: string[] = [];
  let invalid = 0;
  let s = fromOffset;
  while (s < end) {
    const nl = b.indexOf(NL, s);
    const e = nl < 0 || nl >= end ? end : nl;
    if (!valid && !isUtf8(b.subarray(s, e))) invalid++;
    lines.push(b.toString('utf8', s, e > s && b[e - 1] === CR ? e - 1 : e));
    s = e + 1;
  }
  return { lines, nextOffset: end, invalidUtf8Lines: invalid };
}

/** One parsed JSONL record with its 1-based line number. */
export interface JsonlRecord {
  line: number;
  rec: Json;
}

/**
 * Splits text into lines (`\n`, tolerating `\r\n`). A last line without a newline is included:
 * callers that read growing files pass only complete lines.
 */
export function splitLines(content: string): string[] {
  const lines = content.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.endsWith('\r')) lines[i] = l.slice(0, -1);
  }
  return lines;
}

/**
 * Parses each non-blank line as a JSON object. Comment lines (`// …`, `# …`, as fixtures and
 * hand-annotated logs carry) are skipped silently: they are not malformed records. Other lines that
 * are not JSON objects are skipped with a warning naming the line (a truncated last line reads as
 * "incomplete").
 */
export function parseJsonLines(lines: readonly string[], firstLine: number, warnings: Warnings): JsonlRecord[] {
  const out: JsonlRecord[] = [];
  forEachJsonLine(lines, firstLine, warnings, (line, rec) => out.push({ line, rec }));
  return out;
}

/** True for a `// …` or `# …` comment line (no JSON text starts so). */
function isCommentLine(raw: string): boolean {
  const t = raw.charCodeAt(0) <= 32 ? raw.trimStart() : raw;
  return t.charCodeAt(0) === 35 || (t.charCodeAt(0) === 47 && t.charCodeAt(1) === 47);
}

/** Like {@link parseJsonLines} but hands each record to `fn` instead of keeping them all (less memory). */
export function forEachJsonLine(
  lines: readonly string[],
  firstLine: number,
  warnings: Warnings,
  fn: (line: number, rec: Json) => void,
): void {
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const line = firstLine + i;
    if (raw.trim() === '' || isCommentLine(raw)) continue;
    let rec: unknown;
    try {
      rec = JSON.parse(raw);
    } catch {
      const last = i === lines.length - 1;
      warnings.add(
        last
          ? `line ${line}: incomplete or malformed JSON (${raw.length} chars), skipped — a file still being ` +
              'written ends like this'
          : `line ${line}: malformed JSON (${raw.length} chars), skipped`,
      );
      continue;
    }
    if (!isObj(rec)) {
      warnings.add(`line ${line}: not a JSON object, skipped`);
      continue;
    }
    fn(line, rec);
  }
}
