/**
 * @module core/error-display
 * How error messages show values: long strings shortened to a prefix plus their length, lists and
 * objects bounded, and a finished message folded onto one safe line. Used by `core/errors.ts`
 * (messages and `toJSON()`) and by front ends that echo user input.
 */

/** Longest string value echoed in full in a message or `toJSON()`; longer ones are cut. Default 200. */
export const ECHO_MAX_CHARS = 200;
/** Characters of a cut value that are kept (its prefix). */
const ECHO_PREFIX_CHARS = 120;
/**
 * Detail fields written by Loci itself (advice, expectations, reasons) rather than echoed input:
 * they are kept up to {@link PROSE_MAX_CHARS} characters, since cutting them would cut the fix.
 */
const PROSE_FIELDS = new Set(['hint', 'expected', 'reason', 'what', 'problem', 'feature']);
/** Longest prose detail kept in full: 1000. */
const PROSE_MAX_CHARS = 1000;
/** Longest message, in characters (a last guard; shortened values keep messages far below it). */
export const MESSAGE_MAX_CHARS = 2000;
const LIST_MAX = 20;
const DEPTH_MAX = 4;

/** Cuts `s` to `n` UTF-16 units without splitting a surrogate pair. */
function cut(s: string, n: number): string {
  const c = s.charCodeAt(n - 1);
  return s.slice(0, c >= 0xd800 && c <= 0xdbff ? n - 1 : n);
}

/**
 * A string as a message may echo it: at most {@link ECHO_MAX_CHARS} characters, else its first
 * 120 followed by `…(N chars)`.
 */
export function shortValue(s: string, max: number = ECHO_MAX_CHARS): string {
  return s.length <= max ? s : `${cut(s, Math.min(ECHO_PREFIX_CHARS, max))}…(${s.length} chars)`;
}

/**
 * A bounded copy of any value for display: long strings shortened ({@link shortValue}), arrays
 * and objects cut to 20 entries and 4 levels. Used for messages, `toJSON()` and MCP errors.
 */
export function displayDetails<T>(value: T): T {
  const walk = (v: unknown, depth: number, max = ECHO_MAX_CHARS): unknown => {
    if (typeof v === 'string') return shortValue(v, max);
    if (v === null || typeof v !== 'object') return v;
    if (depth >= DEPTH_MAX) return Array.isArray(v) ? `[${v.length} items]` : '{…}';
    if (Array.isArray(v)) {
      const head = v.slice(0, LIST_MAX).map((x) => walk(x, depth + 1));
      return v.length > LIST_MAX ? [...head, `…(${v.length - LIST_MAX} more)`] : head;
    }
    if (v instanceof Error) return shortValue(v.message);
    if (typeof (v as { toJSON?: unknown }).toJSON === 'function')
      return walk((v as { toJSON: () => unknown }).toJSON(), depth + 1);
    const entries = Object.entries(v as Record<string, unknown>);
    const out: Record<string, unknown> = {};
    for (const [k, x] of entries.slice(0, LIST_MAX))
      out[shortValue(k)] = walk(x, depth + 1, depth === 0 && PROSE_FIELDS.has(k) ? PROSE_MAX_CHARS : ECHO_MAX_CHARS);
    if (entries.length > LIST_MAX) out['…'] = `${entries.length - LIST_MAX} more`;
    return out;
  };
  return walk(value, 0) as T;
}

// C0/C1 controls, DEL, line/paragraph separators, bidi marks/overrides/isolates, lone surrogates.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udfff]/gu;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * `s` on one line: line breaks become `\n`, other control characters, bidi controls and lone
 * surrogates become `\uXXXX` escapes, and the result is cut to `max` characters.
 */
export function oneLine(s: string, max = MESSAGE_MAX_CHARS): string {
  const flat = s.replace(UNSAFE, (c) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return flat.length <= max ? flat : `${cut(flat, max - 1)}…`;
}
