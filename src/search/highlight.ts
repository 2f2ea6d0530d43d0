/**
 * @module search/highlight
 * Marks the words of a text that match query tokens, and picks a short snippet around them.
 * Runs only on the hits that are returned, never on the candidate set.
 */
import { tokenize } from '../text/index.js';

/** Words: letters, digits and marks (built on first use: V8 parses a pattern literal when its module loads). */
let word: RegExp | undefined;
const WORD = () => (word ??= new RegExp(String.raw`[\p{L}\p{N}\p{M}]+`, 'gu'));
/** {@link WORD} on ASCII text, where its words are exactly the runs of ASCII letters and digits. */
const ASCII_WORD = /[A-Za-z0-9]+/g;
const NON_ASCII = /[^\x00-\x7f]/;

/** A span of `text` that matched a query token. */
interface MatchSpan {
  start: number;
  end: number;
}

/**
 * The spans of words in `text` whose tokens intersect `tokens`. Each distinct word is tokenised once,
 * and ASCII text is split without the Unicode pattern (compiling it costs a one-shot process ~0.5 ms).
 */
export function matchSpans(text: string, tokens: ReadonlySet<string>): MatchSpan[] {
  const spans: MatchSpan[] = [];
  if (tokens.size === 0) return spans;
  const seen = new Map<string, boolean>();
  for (const m of text.matchAll(NON_ASCII.test(text) ? WORD() : ASCII_WORD)) {
    const word = m[0];
    let hit = seen.get(word);
    if (hit === undefined) seen.set(word, (hit = tokenize(word).some((t) => tokens.has(t))));
    if (hit) spans.push({ start: m.index, end: m.index + word.length });
  }
  return spans;
}

/** Wraps matched words with `open`/`close` (e.g. ANSI codes). */
export function highlight(text: string, spans: readonly MatchSpan[], open: string, close: string): string {
  if (spans.length === 0) return text;
  let out = '';
  let pos = 0;
  for (const s of spans) {
    out += text.slice(pos, s.start) + open + text.slice(s.start, s.end) + close;
    pos = s.end;
  }
  return out + text.slice(pos);
}

/**
 * The window of at most `maxLines` lines of `text` holding the most matches (whole lines,
 * verbatim). Returns the text itself when it is short enough. `spans` may be given as a function,
 * called only when the text is longer than `maxLines` lines.
 */
export function snippetLines(
  text: string,
  spans: readonly MatchSpan[] | (() => readonly MatchSpan[]),
  maxLines = 8,
): { text: string; firstLine: number; truncated: boolean } {
  const lines = text.split('\n');
  if (lines.length <= maxLines) return { text, firstLine: 0, truncated: false };
  const starts: number[] = [];
  let off = 0;
  for (const l of lines) {
    starts.push(off);
    off += l.length + 1;
  }
  const perLine = new Array<number>(lines.length).fill(0);
  let li = 0;
  for (const s of typeof spans === 'function' ? spans() : spans) {
    while (li + 1 < lines.length && starts[li + 1]! <= s.start) li++;
    perLine[li]!++;
  }
  let best = 0;
  let bestScore = -1;
  let win = 0;
  for (let i = 0; i < lines.length; i++) {
    win += perLine[i]!;
    if (i >= maxLines) win -= perLine[i - maxLines]!;
    const start = Math.max(0, i - maxLines + 1);
    if (i >= maxLines - 1 && win > bestScore) {
      bestScore = win;
      best = start;
    }
  }
  return { text: lines.slice(best, best + maxLines).join('\n'), firstLine: best, truncated: true };
}

/** A verbatim excerpt of a text: where it starts and ends, and whether it is the whole text. */
interface Excerpt {
  text: string;
  /** Character offsets of the excerpt in the text (end exclusive). */
  start: number;
  end: number;
  /** The excerpt is not the whole text. */
  cut: boolean;
}

/**
 * The window of at most `maxChars` characters of `text` holding the most matches, verbatim, its
 * edges moved back to a line start or a space (within a tenth of the window) so that no word is
 * cut. The whole text when it fits; the start of the text when nothing matches.
 */
export function excerptChars(text: string, spans: readonly MatchSpan[], maxChars: number): Excerpt {
  if (text.length <= maxChars) return { text, start: 0, end: text.length, cut: false };
  const lead = Math.floor(maxChars / 5);
  let best = 0;
  let bestCount = -1;
  let j = 0;
  for (let i = 0; i < spans.length; i++) {
    const from = Math.max(0, spans[i]!.start - lead);
    while (j < spans.length && spans[j]!.end <= from + maxChars) j++;
    const count = j - i;
    if (count > bestCount) {
      bestCount = count;
      best = from;
    }
  }
  const slack = Math.floor(maxChars / 10);
  let start = Math.min(best, text.length - maxChars);
  if (start > 0) {
    const nl = text.lastIndexOf('\n', start);
    const sp = text.lastIndexOf(' ', start);
    const at = nl >= start - slack && nl >= 0 ? nl + 1 : sp >= start - slack && sp >= 0 ? sp + 1 : start;
    start = Math.max(0, at);
  }
  let end = Math.min(text.length, start + maxChars);
  if (end < text.length) {
    const nl = text.lastIndexOf('\n', end);
    const sp = text.lastIndexOf(' ', end);
    const at = nl > end - slack && nl > start ? nl : sp > end - slack && sp > start ? sp : end;
    end = at;
  }
  return { text: text.slice(start, end), start, end, cut: true };
}
