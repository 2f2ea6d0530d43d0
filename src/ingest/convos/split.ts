/**
 * @module ingest/convos/split
 * Splits a long text into parts of at most `maxChars` characters at the best boundary inside each
 * window: a paragraph break (blank line), else a line break, else a sentence end (`.`, `!`, `?`, `…`
 * plus closing quotes/brackets, followed by a space), else any whitespace; only a single "word"
 * longer than the window is cut hard (never inside a surrogate pair). Boundaries are searched in
 * the second half of the window so parts do not get tiny. The split is greedy from the start, so
 * appending text changes only the last part or two. A last part shorter than `minChars` is merged
 * into the previous one. Parts are trimmed of the whitespace at the cut.
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

/**
 * Splits `text` into parts of at most `maxChars` characters (see the module comment).
 * `maxChars` is clamped to ≥ 2; a text that fits is returned as one (trimmed) part.
 */
export function splitText(text: string, maxChars: number, minChars = 0): string[] {
  const max = Math.max(2, Math.floor(maxChars));
  const t = text.trim();
  if (t.length <= max) return t ? [t] : [];
  // [start, end) ranges into `t`, so a merged tail keeps its original separator.
  const ranges: [number, number][] = [];
  let pos = 0;
  while (pos < t.length) {
    if (t.length - pos <= max) {
      ranges.push([pos, t.length]);
      break;
    }
    const cut = cutPoint(t.slice(pos, pos + max));
    ranges.push([pos, pos + cut]);
    pos += cut;
    while (pos < t.length && /\s/.test(t[pos]!)) pos++;
  }
  if (ranges.length > 1 && t.slice(...ranges[ranges.length - 1]!).trim().length < minChars) {
    const [, end] = ranges.pop()!;
    ranges[ranges.length - 1]![1] = end;
  }
  const parts = ranges.map(([a, b]) => t.slice(a, b).trim());
  return parts.filter((p) => p.length > 0);
}
