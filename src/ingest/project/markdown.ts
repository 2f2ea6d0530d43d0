/**
 * @module ingest/project/markdown
 * Markdown (and reStructuredText, and plain text) segmentation into blocks: a heading glued to the
 * block below it, paragraphs, fenced code blocks kept whole, YAML front matter. Each block carries
 * the heading path in effect ("Install › Offline").
 */
import type { Piece } from './chunk-types.js';
import { endsSentence, type LineTable } from './lines.js';

/** Result of {@link segmentMarkdown}. */
interface MarkdownSegments {
  /** Blocks in order; lines between them are blank. */
  units: Piece[];
  /** How many headings were found (0 → the file is reported as plain text). */
  headings: number;
  /** 1 for lines inside a fence or the front matter (after its opening line): never cut before them. */
  fenced: Uint8Array;
}

/** Separator of heading levels in {@link Piece.head} / `Chunk.heading`. */
const HEADING_SEPARATOR = ' › ';

const isPunct = (c: number): boolean =>
  (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126);

/** Length of a run of `c` at `i`, and whether only whitespace follows it on the line. */
function run(src: string, i: number, end: number, c: number): { len: number; rest: boolean } {
  let k = i;
  while (k < end && src.charCodeAt(k) === c) k++;
  let r = k;
  while (r < end && (src.charCodeAt(r) === 32 || src.charCodeAt(r) === 9)) r++;
  return { len: k - i, rest: r === end };
}

/** True when the line starts a list item, block quote or table row (cannot be a setext title). */
function isBlockPrefixed(src: string, f: number, end: number): boolean {
  const c = src.charCodeAt(f);
  if (c === 62 || c === 124) return true; // > |
  if ((c === 45 || c === 42 || c === 43) && (f + 1 === end || src.charCodeAt(f + 1) === 32)) return true;
  let k = f;
  while (k < end && src.charCodeAt(k) >= 48 && src.charCodeAt(k) <= 57) k++;
  return k > f && k < end && (src.charCodeAt(k) === 46 || src.charCodeAt(k) === 41);
}

/** Segments markdown-like text; `rst` enables reStructuredText underline/overline titles. */
export function segmentMarkdown(lt: LineTable, rst: boolean): MarkdownSegments {
  const { src, n, start, end, first, blank } = lt;
  const fenced = new Uint8Array(n);
  const units: Piece[] = [];
  const stack: { lvl: number; text: string }[] = [];
  const rstStyles: string[] = [];
  let path: string | undefined;
  let cur: Piece | undefined;
  let paraStart = -1;
  let glue = false; // the current unit is a heading still waiting for its first block
  let paraGlued = false; // the current paragraph is the first block under a heading
  let prevBlank = true;
  let headings = 0;
  let fenceCh = 0;
  let fenceLen = 0;

  const open = (i: number, q: number): Piece => {
    cur = { s: i, e: i, q, head: path };
    units.push(cur);
    return cur;
  };
  const heading = (hs: number, he: number, lvl: number, text: string, setext: boolean): void => {
    while (stack.length > 0 && stack[stack.length - 1]!.lvl >= lvl) stack.pop();
    stack.push({ lvl, text: text.length > 200 ? text.slice(0, 200) : text });
    path = stack.map((h) => h.text).join(HEADING_SEPARATOR);
    const q = lvl <= 2 ? 4 : 3;
    if (cur !== undefined && cur.s === hs) {
      // a paragraph that turned out to be a setext title
      cur.e = he;
      cur.head = path;
      cur.q = q;
    } else if (cur !== undefined && (glue || (setext && paraGlued))) {
      // a heading right under another heading (nothing between): one unit, so no chunk ends on a bare title
      cur.e = he;
      cur.q = Math.max(cur.q, q);
    } else {
      if (cur !== undefined && cur.s < hs) {
        let k = hs - 1;
        while (k > cur.s && blank[k]) k--;
        cur.e = k;
      }
      cur = open(hs, q);
      cur.e = he;
    }
    cur.sec = true;
    glue = true;
    paraGlued = false;
    paraStart = -1;
    prevBlank = false;
    headings++;
  };
  const addLine = (i: number): void => {
    if (paraStart < 0) paraGlued = glue;
    if (cur === undefined || (prevBlank && !glue)) open(i, 2);
    else cur.e = i;
    glue = false;
  };

  let i = 0;
  // YAML front matter: '---' on line 1 up to the closing '---' / '...'
  if (n > 1 && /^---[ \t]*$/.test(src.slice(start[0]!, end[0]!))) {
    for (let k = 1; k < n; k++) {
      const t = src.slice(start[k]!, end[k]!);
      if (t === '---' || t === '...' || /^(---|\.\.\.)[ \t]*$/.test(t)) {
        open(0, 2).e = k;
        for (let f = 1; f <= k; f++) fenced[f] = 1;
        i = k + 1;
        break;
      }
    }
  }

  for (; i < n; i++) {
    const ls = start[i]!;
    const le = end[i]!;
    const f = first[i]!;
    if (fenceCh !== 0) {
      fenced[i] = 1;
      if (cur !== undefined && !blank[i]) cur.e = i;
      if (src.charCodeAt(f) === fenceCh) {
        const r = run(src, f, le, fenceCh);
        if (r.len >= fenceLen && r.rest) fenceCh = 0;
      }
      continue;
    }
    if (blank[i]) {
      prevBlank = true;
      paraStart = -1;
      continue;
    }
    const c = src.charCodeAt(f);
    const shallow = f - ls <= 3;
    if (shallow && c === 35 && !rst) {
      const r = run(src, f, le, 35);
      const after = f + r.len;
      if (r.len <= 6 && (after === le || src.charCodeAt(after) === 32 || src.charCodeAt(after) === 9)) {
        const text = src
          .slice(after, le)
          .replace(/[ \t]+#+[ \t]*$/, '')
          .replace(/^#+[ \t]*$/, '')
          .trim();
        heading(i, i, r.len, text, false);
        continue;
      }
    }
    if (!rst && (c === 96 || (c === 126 && shallow))) {
      const r = run(src, f, le, c);
      if (r.len >= 3 && (c === 126 || src.indexOf('`', f + r.len) < 0 || src.indexOf('`', f + r.len) >= le)) {
        if (cur === undefined || (prevBlank && !glue)) open(i, 2);
        else cur.e = i;
        glue = false;
        paraGlued = false;
        fenceCh = c;
        fenceLen = r.len;
        prevBlank = false;
        paraStart = -1;
        continue;
      }
    }
    if (!prevBlank && paraStart >= 0 && shallow) {
      // setext underline ('=' or '-'), or an rst title underline of any punctuation
      if ((c === 61 || c === 45) && !rst) {
        const r = run(src, f, le, c);
        if (r.len >= 2 && r.rest && !isBlockPrefixed(src, first[paraStart]!, end[paraStart]!)) {
          const text = src
            .slice(start[paraStart]!, end[i - 1]!)
            .replace(/\s+/g, ' ')
            .trim();
          heading(paraStart, i, c === 61 ? 1 : 2, text, true);
          continue;
        }
      } else if (rst && isPunct(c)) {
        const r = run(src, f, le, c);
        const over =
          i - paraStart === 2 && src.slice(start[paraStart]!, end[paraStart]!).trim() === src.slice(f, le).trim();
        const titleLine = over ? paraStart + 1 : i - paraStart === 1 ? paraStart : -1;
        if (titleLine >= 0 && r.len >= 3 && r.rest) {
          const text = src.slice(first[titleLine]!, end[titleLine]!).trim();
          if (r.len * 2 >= text.length) {
            const style = String.fromCharCode(c) + (over ? '^' : '');
            let lvl = rstStyles.indexOf(style) + 1;
            if (lvl === 0) lvl = rstStyles.push(style);
            heading(paraStart, i, lvl, text, true);
            continue;
          }
        }
      }
    }
    addLine(i);
    if (paraStart < 0) paraStart = i;
    prevBlank = false;
  }
  for (const u of units) while (u.e > u.s && blank[u.e]) u.e--;
  return { units, headings, fenced };
}

/**
 * Cut quality before line i for markdown/text: 0 inside a fence, 3 after a blank line, 2 at a list item / table row /
 * after a sentence, else 1.
 */
export function markdownQuality(lt: LineTable, fenced: Uint8Array): (i: number) => number {
  return (i) => {
    if (fenced[i]) return 0;
    if (lt.blank[i - 1]) return 3;
    if (isBlockPrefixed(lt.src, lt.first[i]!, lt.end[i]!)) return 2;
    return endsSentence(lt, i - 1) ? 2 : 1;
  };
}
