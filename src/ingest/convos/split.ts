/**
 * @module ingest/convos/split
 * Splits a long text into parts of at most `maxChars` characters at the best boundary inside each
 * window: a paragraph break (blank line), else a line break, else a sentence end (`.`, `!`, `?`, `…`
 * plus closing quotes/brackets, followed by a space), else any whitespace; only a single "word"
 * longer than the window is cut hard (never inside a surrogate pair). Boundaries are searched in
 * the second half of the window so parts do not get tiny. The split is greedy from the start, so
 * appending text changes only the last part or two. A last part shorter than `minChars` is merged
 * into the previous one. Parts are trimmed of the whitespace at the cut, except the indentation of a
 * part's first line (verbatim: a nested list item or a line of code keeps it).
 *
 * Lines to avoid at the head of a part (`avoid`: offsets where tool-call and tool-result lines
 * start): a line break followed by prose is preferred to one followed by a tool line, down to a
 * quarter of the window, so a part starts with what was said whenever the text allows it.
 */

const SENTENCE_END = /[.!?…]["'”’)\]]*\s/g;

function lastMatch(re: RegExp, s: string, from: number): number {
  re.lastIndex = 0;
  let best = -1;
  let m: RegExpExecArray | null;
  while ((m = re.exec(s)) !== null) {
    const end = m.index + m[0].length;
    if (m.index >= from) best = end;
    if (m[0].length === 0) re.lastIndex++;
  }
  return best;
}

function cutPoint(window: string): number {
  const half = Math.floor(window.length / 2);
  const para = window.lastIndexOf('\n\n');
  if (para >= half) return para + 2;
  const nl = window.lastIndexOf('\n');
  if (nl >= half) return nl + 1;
  const sent = lastMatch(SENTENCE_END, window, half);
  if (sent > 0) return sent;
  for (let i = window.length - 1; i >= half; i--) {
    const c = window.charCodeAt(i);
    if (c === 32 || c === 9) return i + 1;
  }
  // Any whitespace at all, even early, beats cutting a word.
  const ws = Math.max(window.lastIndexOf(' '), window.lastIndexOf('\t'));
  if (ws > 0) return ws + 1;
  let end = window.length;
  const c = window.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return end;
}

/** The cut of `window` (starting at `pos` in the text) whose next line is not in `avoid`, or -1. */
function proseCut(window: string, pos: number, avoid: ReadonlySet<number>): number {
  const low = Math.floor(window.length / 4);
  const half = Math.floor(window.length / 2);
  const ok = (i: number) => !avoid.has(pos + i);
  const natural = cutPoint(window);
  // The natural cut already lands on prose (or inside a line): keep it.
  if (window[natural - 1] !== '\n' || ok(natural)) return natural;
  let best = -1;
  for (let i = window.lastIndexOf('\n'); i >= low; i = window.lastIndexOf('\n', i - 1)) {
    if (ok(i + 1) && window[i + 1] !== '\n') {
      // a paragraph break at or after half still wins over a later single line break
      if (best < 0) best = i + 1;
      if (i > 0 && window[i - 1] === '\n' && i + 1 >= half) return i + 1;
      if (best >= 0 && i + 1 < half) break;
    }
    if (i === 0) break;
  }
  return best > 0 ? best : natural;
}

/**
 * Where a part starting at `a` begins: past the whitespace at the cut, but at the start of its first
 * line, so that line keeps its indentation (a nested list item, a line of code); a cut inside a line
 * skips all the spaces.
 */
function headStart(text: string, a: number, b: number): number {
  let i = a;
  let line = a > 0 && text[a - 1] === '\n' ? a : -1;
  while (i < b && /\s/.test(text[i]!)) {
    if (text[i] === '\n') line = i + 1;
    i++;
  }
  return line >= 0 && i < b ? line : i;
}

/**
 * Splits `text` into `[start, end)` ranges of at most `maxChars` characters (see the module
 * comment), each trimmed of surrounding whitespace but the first line's indentation; offsets index
 * into `text`.
 */
export function splitRanges(
  text: string,
  maxChars: number,
  minChars = 0,
  avoid?: ReadonlySet<number>,
): [number, number][] {
  const max = Math.max(2, Math.floor(maxChars));
  let lead = 0;
  while (lead < text.length && /\s/.test(text[lead]!)) lead++;
  let tail = text.length;
  while (tail > lead && /\s/.test(text[tail - 1]!)) tail--;
  if (tail <= lead) return [];
  if (tail - lead <= max) return [[lead, tail]];
  const ranges: [number, number][] = [];
  let pos = lead;
  while (pos < tail) {
    if (tail - pos <= max) {
      ranges.push([pos, tail]);
      break;
    }
    const window = text.slice(pos, pos + max);
    const cut = avoid && avoid.size ? proseCut(window, pos, avoid) : cutPoint(window);
    ranges.push([pos, pos + cut]);
    pos = headStart(text, pos + cut, tail);
  }
  if (ranges.length > 1 && text.slice(...ranges[ranges.length - 1]!).trim().length < minChars) {
    const [, end] = ranges.pop()!;
    ranges[ranges.length - 1]![1] = end;
  }
  const out: [number, number][] = [];
  for (let [a, b] of ranges) {
    a = headStart(text, a, b);
    while (b > a && /\s/.test(text[b - 1]!)) b--;
    if (b > a) out.push([a, b]);
  }
  return out;
}

/**
 * Splits `text` into parts of at most `maxChars` characters (see the module comment).
 * `maxChars` is clamped to ≥ 2; a text that fits is returned as one (trimmed) part.
 */
export function splitText(text: string, maxChars: number, minChars = 0): string[] {
  return splitRanges(text, maxChars, minChars).map(([a, b]) => text.slice(a, b));
}
