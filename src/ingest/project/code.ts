/**
 * @module ingest/project/code
 * Structural segmentation of source code. Units start at declarations of the shallowest level
 * (bracket depth, then indentation); comments, decorators and attributes directly above a
 * declaration stay with it; closing lines (`}`, `end`, `else`, `)`) stay with the unit they close.
 * A unit over maxChars that contains deeper structure (a class, an impl block, a long function) is
 * opened and its members become units; only a leaf unit is cut by lines, with overlap.
 */
import type { ChunkOptions, Piece } from './chunk-types.js';
import { scanCode } from './code-scan.js';
import { cutLines } from './cut.js';
import type { CodeProfile } from './language.js';
import type { LineTable } from './lines.js';

const BRACE_CLOSERS = ['else', 'catch', 'finally'];

/** True when `w` is at `at` and, if it is a word, not followed by an identifier character. */
function startsWithWord(src: string, at: number, end: number, w: string, isWord: boolean): boolean {
  if (!src.startsWith(w, at)) return false;
  const k = at + w.length;
  if (!isWord || k >= end) return true;
  const c = src.charCodeAt(k);
  return !((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95);
}

/** Segments source code into units (packable pieces) and solo pieces (cuts of oversize leaves). */
export function segmentCode(lt: LineTable, p: CodeProfile, o: Required<ChunkOptions>): Piece[] {
  const { src, n, start, end, first, indent, blank } = lt;
  const { lvl, cont } = scanCode(lt, p);
  const brace = p.mode === 'brace';
  const attach = p.attach ?? [];
  const closerList = (brace ? BRACE_CLOSERS : (p.closers ?? [])).map((w) => ({
    w,
    word: /^[a-z]/i.test(w),
    c: w.charCodeAt(0),
  }));
  const closerFirst = new Set(closerList.map((x) => x.c));

  const key = (i: number): number => (brace ? lvl[i]! * 4096 + Math.min(indent[i]!, 4095) : indent[i]!);

  // candidate lines: code at their start, not a closer (`}`, `end`, `else`…) or a continuation (`.x`, `&&`…)
  const candArr = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (blank[i] || cont[i] !== 0) continue;
    const f = first[i]!;
    const c = src.charCodeAt(f);
    let ok = true;
    if (brace) {
      if (c === 125 || c === 41 || c === 93 || c === 46 || c === 63 || c === 58 || c === 44) ok = false;
      else if ((c === 38 || c === 124 || c === 61) && (src.charCodeAt(f + 1) === c || src.charCodeAt(f + 1) === 62))
        ok = false; // && || =>
    }
    if (ok && closerFirst.has(c)) {
      for (const x of closerList) if (x.c === c && startsWithWord(src, f, end[i]!, x.w, x.word)) ok = false;
    }
    candArr[i] = ok ? 1 : 0;
  }
  const cand = (i: number): boolean => candArr[i] === 1;

  /** A comment, decorator or attribute line: it belongs to the declaration below it. */
  const attacher = (i: number): boolean => {
    if (blank[i]) return false;
    if (cont[i] === 1) return true;
    const f = first[i]!;
    const c = src.charCodeAt(f);
    const c2 = src.charCodeAt(f + 1);
    if (c === 47 && (c2 === 47 || c2 === 42) && (p.slashSlash || p.slashStar)) return true;
    if (c === 35 && p.hash && c2 !== 91) return true;
    if (c === 45 && c2 === 45 && p.dashDash) return true;
    if (c === 59 && p.semi) return true;
    if (c === 60 && p.htmlComment && src.startsWith('<!--', f)) return true;
    for (const a of attach) if (src.startsWith(a, f)) return true;
    return false;
  };

  /** The level of an attacher line: that of the line where its block comment opened. */
  const attachKey = (j: number): number => {
    while (j > 0 && cont[j] === 1) j--;
    return key(j);
  };

  const out: Piece[] = [];

  const quality = (i: number): number => {
    if (cont[i] !== 0) return 0;
    if (blank[i - 1]) return 3;
    if (!cand(i)) return 1;
    let k = end[i - 1]! - 1;
    while (k > start[i - 1]! && (src.charCodeAt(k) === 32 || src.charCodeAt(k) === 9)) k--;
    const c = src.charCodeAt(k);
    return c === 59 || c === 125 || c === 123 || c === 44 || c === 58 || c === 41 ? 2 : 1;
  };

  /** Emits a unit, opening it into deeper units when it is too large. */
  const emit = (s: number, e: number, q: number, top: boolean): void => {
    if (end[e]! - start[s]! <= o.maxChars) out.push({ s, e, q });
    else segment(s, e, key(s), q, top);
  };

  /**
   * Splits lines s..e at candidate lines of the shallowest level deeper than `parentKey`.
   * `q` is the quality of the first unit; `top` marks the file's top level (blank-separated
   * declarations there get quality 3, members 2, glued lines 1).
   */
  const segment = (s: number, e: number, parentKey: number, q: number, top: boolean): void => {
    let level = Infinity;
    for (let i = s; i <= e; i++) {
      if (cand(i)) {
        const k = key(i);
        if (k > parentKey && k < level) level = k;
      }
    }
    if (level === Infinity) {
      cutLines(lt, s, e, quality, o, undefined, out);
      return;
    }
    const starts: number[] = [s];
    const qs: number[] = [q];
    for (let i = s + 1; i <= e; i++) {
      if (!cand(i) || key(i) !== level) continue;
      // glued to the comment/decorator above
      if (!blank[i - 1] && attacher(i - 1) && attachKey(i - 1) <= level) continue;
      starts.push(i);
      qs.push(blank[i - 1] ? (top ? 3 : 2) : 1);
    }
    if (starts.length === 1) {
      // one declaration at this level (a file that is one object, a function body…): look deeper
      if (end[e]! - start[s]! <= o.maxChars) out.push({ s, e, q });
      else segment(s, e, level, q, false);
      return;
    }
    for (let u = 0; u < starts.length; u++) {
      const us = starts[u]!;
      let ue = u + 1 < starts.length ? starts[u + 1]! - 1 : e;
      while (ue > us && blank[ue]) ue--;
      emit(us, ue, qs[u]!, false);
    }
  };

  let s = 0;
  while (s < n && blank[s]) s++;
  let e = n - 1;
  while (e > s && blank[e]) e--;
  if (s < n) segment(s, e, -1, 2, true);
  return out;
}
