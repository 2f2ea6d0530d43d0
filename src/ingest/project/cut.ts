/**
 * @module ingest/project/cut
 * Last-resort cutting of one block larger than maxChars: at the best line boundary the segmenter
 * rates (blank line > sentence/statement end > any line end; "forbidden" places such as the inside
 * of a code fence only when nothing else fits), with overlap; and, for a single line longer than
 * maxChars, inside the line at sentence ends, then spaces, then anywhere (never inside a surrogate pair).
 */
import type { ChunkOptions, Piece } from './chunk-types.js';
import { isWs, type LineTable } from './lines.js';

/** Quality of cutting just before line i: 0 = only if nothing else fits, 1 weak … 3 best. */
type LineQuality = (i: number) => number;

/**
 * Cuts lines s..e (inclusive, s and e non-blank) into solo pieces of at most maxChars, aiming at
 * targetChars, appending them to `out`. Consecutive pieces overlap by up to overlapChars (whole lines).
 */
export function cutLines(
  lt: LineTable,
  s: number,
  e: number,
  quality: LineQuality,
  o: Required<ChunkOptions>,
  head: string | undefined,
  out: Piece[],
): void {
  const { start, end, blank } = lt;
  const T = o.targetChars;
  const M = o.maxChars;
  let p = s;
  let minCut = s + 1; // the next cut must fall after this line, so every piece advances
  let noOverlap = s; // where the next piece starts when the overlap has to be dropped
  for (;;) {
    while (p <= e && blank[p]) p++;
    if (p > e) return;
    if (end[e]! - start[p]! <= M) {
      out.push({ s: p, e, q: 2, head, solo: true });
      return;
    }
    if (end[p]! - start[p]! > M) {
      splitLongLine(lt, p, o, head, out);
      p = p + 1;
      minCut = p + 1;
      noOverlap = p;
      continue;
    }
    let cut = pickCut(p, minCut);
    if (cut.c < 0 || !cut.ok) {
      if (p < noOverlap) {
        // the overlap leaves no good cut: start right after the previous piece instead
        p = noOverlap;
        continue;
      }
      if (cut.c < 0) cut = { c: p + 1, ok: true };
    }
    let last = cut.c - 1;
    while (blank[last]) last--;
    out.push({ s: p, e: last, q: 2, head, solo: true });
    let next = cut.c;
    while (next <= e && blank[next]) next++;
    noOverlap = next;
    minCut = next + 1;
    // overlap: the smallest j in (p, last] with lines j..last within overlapChars, never starting
    // where a cut is forbidden (inside a fence, a comment, a string)
    let j = last + 1;
    if (o.overlapChars > 0 && next <= e && end[next]! - start[next]! <= M) {
      for (let k = last; k > p; k--) {
        if (end[last]! - start[k]! > o.overlapChars) break;
        if (!blank[k] && quality(k) > 0) j = k;
      }
    }
    p = j <= last ? j : next;
  }

  function pickCut(p: number, minC: number): { c: number; ok: boolean } {
    let best = -1;
    let bOk = -1;
    let bWin = -1;
    let bQ = -1;
    let bDist = Infinity;
    let lastNB = p;
    for (let c = p + 1; c <= e; c++) {
      if (!blank[c - 1]) lastNB = c - 1;
      const sz = end[lastNB]! - start[p]!;
      if (sz > M) break;
      if (blank[c] || c < minC) continue;
      const q = quality(c);
      const ok = q > 0 ? 1 : 0;
      const win = sz * 2 >= T ? 1 : 0;
      const dist = Math.abs(sz - T);
      if (ok > bOk || (ok === bOk && (win > bWin || (win === bWin && (q > bQ || (q === bQ && dist < bDist)))))) {
        best = c;
        bOk = ok;
        bWin = win;
        bQ = q;
        bDist = dist;
      }
    }
    return { c: best, ok: bOk === 1 };
  }
}

/**
 * Quality of cutting inside a line just before offset x: 3 after a sentence end, 2 after a space, 1 anywhere, 0 never.
 */
function inlineQuality(src: string, x: number): number {
  const c = src.charCodeAt(x);
  const b = src.charCodeAt(x - 1);
  if (c >= 0xdc00 && c <= 0xdfff && b >= 0xd800 && b <= 0xdbff) return 0; // inside a surrogate pair
  if (b === 0x3002 || b === 0xff01 || b === 0xff1f) return 3; // 。！？
  if (isWs(b) && !isWs(c)) {
    let k = x - 1;
    while (k > 0 && isWs(src.charCodeAt(k))) k--;
    const d = src.charCodeAt(k);
    return d === 46 || d === 33 || d === 63 ? 3 : 2;
  }
  return 1;
}

/**
 * Splits one line longer than maxChars into solo pieces (parts of the line, `c0`/`c1` set),
 * aiming at targetChars, with up to overlapChars of overlap starting at a word boundary.
 */
function splitLongLine(
  lt: LineTable,
  i: number,
  o: Required<ChunkOptions>,
  head: string | undefined,
  out: Piece[],
): void {
  const src = lt.src;
  const T = o.targetChars;
  const M = o.maxChars;
  const b = lt.end[i]!;
  let pos = lt.first[i]!;
  const first = out.length;
  while (b - pos > M) {
    const target = pos + T;
    let best = -1;
    let bQ = -1;
    let bDist = Infinity;
    for (let x = pos + Math.max(1, T >> 1); x <= pos + M; x++) {
      const q = inlineQuality(src, x);
      if (q === 0) continue;
      const dist = Math.abs(x - target);
      if (q > bQ || (q === bQ && dist < bDist)) {
        best = x;
        bQ = q;
        bDist = dist;
      }
    }
    if (best < 0) best = pos + M - 1; // only surrogate pairs in range: cannot happen with M >= 2
    let c1 = best;
    while (c1 > pos + 1 && isWs(src.charCodeAt(c1 - 1))) c1--;
    out.push({ s: i, e: i, q: 2, head, solo: true, c0: pos, c1 });
    let next = best;
    if (o.overlapChars > 0) {
      for (let x = Math.max(pos + 1, best - o.overlapChars); x < best; x++) {
        if (isWs(src.charCodeAt(x - 1)) && !isWs(src.charCodeAt(x))) {
          next = x;
          break;
        }
      }
    }
    while (next < b && isWs(src.charCodeAt(next))) next++;
    pos = next;
  }
  if (pos >= b) return;
  const prev = out[out.length - 1];
  if (b - pos < o.minChars && out.length > first && prev !== undefined && b - prev.c0! <= M + o.minChars) prev.c1 = b;
  else out.push({ s: i, e: i, q: 2, head, solo: true, c0: pos, c1: b });
}
