/**
 * @module search/highlight
 * Marks the words of a text that match query tokens, and picks a short snippet around them.
 * Runs only on the hits that are returned, never on the candidate set.
 */
import { tokenize } from '../text/index.js';

const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/** A span of `text` that matched a query token. */
export interface MatchSpan {
  start: number;
  end: number;
}

/** The spans of words in `text` whose tokens intersect `tokens`. */
export function matchSpans(text: string, tokens: ReadonlySet<string>): MatchSpan[] {
  const spans: MatchSpan[] = [];
  if (tokens.size === 0) return spans;
  for (const m of text.matchAll(WORD)) {
    const toks = tokenize(m[0]);
    if (toks.some((t) => tokens.has(t))) spans.push({ start: m.index, end: m.index + m[0].length });
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
 * verbatim). Returns the text itself when it is short enough.
 */
export function snippetLines(text: string, spans: readonly MatchSpan[], maxLines = 8): { text: string; firstLine: number; truncated: boolean } {
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
  for (const s of spans) {
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
