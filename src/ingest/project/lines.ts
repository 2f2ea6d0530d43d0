/**
 * @module ingest/project/lines
 * The line table every chunker works on: offsets into the source (so chunk text is always an exact
 * substring), blank flags and indentation, built in one pass with `indexOf('\n')`.
 */

/** Lines of a text. Line i covers `src.slice(start[i], end[i])`; `\n` and a `\r` before it are not part of it. */
export interface LineTable {
  readonly src: string;
  /** Number of lines (a trailing newline gives a last, empty line). */
  readonly n: number;
  /** Offset of the first character of each line. */
  readonly start: Int32Array;
  /** Offset just after the last content character of each line (before `\r\n` or `\n`). */
  readonly end: Int32Array;
  /** Offset of the first non-whitespace character (= `end` for blank lines). */
  readonly first: Int32Array;
  /** Indentation width (tab = 4). */
  readonly indent: Int32Array;
  /** 1 when the line holds only whitespace (the characters `String#trim` removes). */
  readonly blank: Uint8Array;
}

/** True for the characters `String.prototype.trim` removes. */
export function isWs(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** Builds the {@link LineTable} of `src`. */
export function buildLines(src: string): LineTable {
  const len = src.length;
  let cap = (len >> 5) + 16;
  let start = new Int32Array(cap);
  let end = new Int32Array(cap);
  let first = new Int32Array(cap);
  let indent = new Int32Array(cap);
  let blank = new Uint8Array(cap);
  let n = 0;
  let pos = 0;
  for (;;) {
    if (n === cap) {
      cap *= 2;
      const grow = <T extends Int32Array | Uint8Array>(a: T, b: T): T => (b.set(a), b);
      start = grow(start, new Int32Array(cap));
      end = grow(end, new Int32Array(cap));
      first = grow(first, new Int32Array(cap));
      indent = grow(indent, new Int32Array(cap));
      blank = grow(blank, new Uint8Array(cap));
    }
    const nl = src.indexOf('\n', pos);
    const e = nl < 0 ? len : nl;
    const ce = e > pos && src.charCodeAt(e - 1) === 13 ? e - 1 : e;
    let j = pos;
    let w = 0;
    for (; j < ce; j++) {
      const c = src.charCodeAt(j);
      if (c === 32) w++;
      else if (c === 9) w += 4;
      else break;
    }
    if (j < ce && isWs(src.charCodeAt(j))) {
      // rare: other whitespace (CR, NBSP, ideographic space…) before the content
      let k = j;
      while (k < ce && isWs(src.charCodeAt(k))) k++;
      j = k;
    }
    start[n] = pos;
    end[n] = ce;
    first[n] = j;
    indent[n] = w;
    blank[n] = j >= ce ? 1 : 0;
    n++;
    if (nl < 0) break;
    pos = nl + 1;
  }
  return { src, n, start, end, first, indent, blank };
}

/**
 * True when line i (its last non-space character) ends a sentence: `.`, `!`, `?`, `…`, `。`, `！`, `？` (quotes/brackets
 * after it allowed).
 */
export function endsSentence(lt: LineTable, i: number): boolean {
  const src = lt.src;
  let k = lt.end[i]! - 1;
  const lo = lt.first[i]!;
  while (k >= lo && isWs(src.charCodeAt(k))) k--;
  while (k >= lo) {
    const c = src.charCodeAt(k);
    if (c === 34 || c === 39 || c === 41 || c === 93 || c === 0x201d || c === 0x2019 || c === 42 || c === 95) k--;
    else break;
  }
  if (k < lo) return false;
  const c = src.charCodeAt(k);
  return c === 46 || c === 33 || c === 63 || c === 0x2026 || c === 0x3002 || c === 0xff01 || c === 0xff1f;
}
