/**
 * @module hooks/transcript
 * Counting the **real human prompts** of a Claude Code transcript incrementally, for the `stop`
 * hook's every-N trigger, in O(bytes appended since the last count).
 *
 * A record counts when it is a `user` record that a person typed: `message.content` is a
 * non-empty string or an array holding at least one non-empty `text` block — and it is not a
 * tool result (content of `tool_result` blocks only), not injected (`isMeta`,
 * `isCompactSummary`, `isVisibleInTranscriptOnly`), not from a subagent (`isSidechain`), not
 * slash-command or shell-escape markup (`<command-name>`, `<local-command-stdout>`,
 * `<bash-input>` …) and not an interruption notice (`[Request interrupted by user…]`).
 * (MemPalace counts every role-user record, so its "every 15 messages" fires on tool results.)
 *
 * Only complete lines (ending in `\n`) are read: the offset stops before a line Claude Code is
 * still writing. Lines that are not JSON are skipped. Node built-ins only (fast path).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** Text that marks a user record as Claude Code markup rather than a typed prompt. */
const MARKUP = new RegExp(
  String.raw`^\s*<(?:command-(?:name|message|args)|local-command-(?:stdout|stderr|caveat)|bash-(?:input|stdout|` +
    String.raw`stderr)|system-reminder|user-memory-input)>`,
);
const INTERRUPTED = /^\s*\[Request interrupted by user/;

function typedText(t: unknown): boolean {
  return typeof t === 'string' && t.trim() !== '' && !MARKUP.test(t) && !INTERRUPTED.test(t);
}

/** True when a parsed transcript record is a prompt a person typed (see the module comment). */
export function isHumanPrompt(record: unknown): boolean {
  if (!record || typeof record !== 'object') return false;
  const r = record as Record<string, unknown>;
  if (
    r['type'] !== 'user' ||
    r['isMeta'] === true ||
    r['isCompactSummary'] === true ||
    r['isVisibleInTranscriptOnly'] === true ||
    r['isSidechain'] === true
  )
    return false;
  const msg = r['message'];
  if (!msg || typeof msg !== 'object') return false;
  const m = msg as Record<string, unknown>;
  if (m['role'] !== undefined && m['role'] !== 'user') return false;
  const content = m['content'];
  if (typeof content === 'string') return typedText(content);
  if (!Array.isArray(content)) return false;
  let text = false;
  for (const b of content) {
    if (!b || typeof b !== 'object') continue;
    const block = b as Record<string, unknown>;
    if (block['type'] === 'tool_result') return false;
    if (block['type'] === 'text' && typedText(block['text'])) text = true;
  }
  return text;
}

/** Where a count stopped. */
export interface PromptCount {
  /** Byte offset after the last complete line read. */
  offset: number;
  /** Human prompts seen from the start of the file to `offset`. */
  humans: number;
  /** Size of the file when it was read. */
  size: number;
  /** True when the file was shorter than the previous offset (rewritten) and was counted from 0. */
  reset: boolean;
}

const CHUNK = 1024 * 1024;
/** Cheap pre-filters: a user record has one of these byte sequences (compact or spaced JSON). */
const USER_KEYS = [Buffer.from('"type":"user"'), Buffer.from('"type": "user"')];

/**
 * Counts the human prompts in `path` from byte `from` (whose count was `humansBefore`) to the end
 * of its last complete line. A file shorter than `from` is counted again from the start.
 * Throws the file-system error when the file cannot be opened.
 */
export function countHumanPrompts(path: string, from = 0, humansBefore = 0): PromptCount {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    let reset = false;
    let offset = from;
    let humans = humansBefore;
    if (size < from) {
      reset = true;
      offset = 0;
      humans = 0;
    }
    let carry: Buffer = Buffer.alloc(0);
    let pos = offset;
    const buf = Buffer.allocUnsafe(CHUNK);
    while (pos < size) {
      const n = readSync(fd, buf, 0, Math.min(CHUNK, size - pos), pos);
      if (n <= 0) break;
      pos += n;
      const data: Buffer = carry.length ? Buffer.concat([carry, buf.subarray(0, n)]) : buf.subarray(0, n);
      let start = 0;
      for (;;) {
        const nl = data.indexOf(0x0a, start);
        if (nl < 0) break;
        const line = data.subarray(start, nl);
        if (USER_KEYS.some((k) => line.indexOf(k) >= 0)) {
          try {
            if (isHumanPrompt(JSON.parse(line.toString('utf8')))) humans++;
          } catch {
            // not JSON: skipped, like every reader of these files does
          }
        }
        offset += nl + 1 - start;
        start = nl + 1;
      }
      carry = Buffer.from(data.subarray(start));
    }
    return { offset, humans, size, reset };
  } finally {
    closeSync(fd);
  }
}

/** Records of a compaction in a Claude Code transcript (compact or spaced JSON). */
const COMPACTION_KEYS = ['"compact_boundary"', '"isCompactSummary":true', '"isCompactSummary": true'].map((k) =>
  Buffer.from(k),
);

/**
 * The 1-based line of the last compaction record of a transcript (a `compact_boundary` system
 * record, or the summary marked `isCompactSummary`); 0 when it has none or cannot be read. What
 * comes from that line on is still in the agent's context. One pass over the file's bytes.
 */
export function lastCompactionLine(path: string): number {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return 0;
  }
  try {
    const size = fstatSync(fd).size;
    const buf = Buffer.allocUnsafe(CHUNK);
    let carry: Buffer = Buffer.alloc(0);
    let line = 0;
    let found = 0;
    for (let pos = 0; pos < size;) {
      const n = readSync(fd, buf, 0, Math.min(CHUNK, size - pos), pos);
      if (n <= 0) break;
      pos += n;
      const data: Buffer = carry.length ? Buffer.concat([carry, buf.subarray(0, n)]) : buf.subarray(0, n);
      let start = 0;
      for (let nl = data.indexOf(0x0a); nl >= 0; nl = data.indexOf(0x0a, start)) {
        line++;
        const text = data.subarray(start, nl);
        if (COMPACTION_KEYS.some((k) => text.indexOf(k) >= 0)) found = line;
        start = nl + 1;
      }
      carry = Buffer.from(data.subarray(start));
    }
    if (carry.length && COMPACTION_KEYS.some((k) => carry.indexOf(k) >= 0)) found = line + 1;
    return found;
  } catch {
    return 0;
  } finally {
    closeSync(fd);
  }
}
