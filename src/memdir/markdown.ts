/**
 * @module memdir/markdown
 * Small markdown helpers shared by topic files and the CLAUDE.md loader: masking code (fenced
 * blocks and inline code spans) so that `[[links]]` and `@imports` inside them are ignored, and
 * stripping block-level HTML comments.
 */

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Returns `text` with every code region (fenced blocks, indented code is not treated specially,
 * inline code spans) replaced by spaces of the same length, so offsets and line numbers stay valid.
 */
export function maskCode(text: string): string {
  const lines = text.split('\n');
  let fence: string | undefined;
  const out: string[] = [];
  for (const line of lines) {
    if (fence !== undefined) {
      const m = FENCE_OPEN.exec(line);
      if (m && m[1]![0] === fence[0] && m[1]!.length >= fence.length && line.trim() === m[1]) fence = undefined;
      out.push(blank(line));
      continue;
    }
    const m = FENCE_OPEN.exec(line);
    if (m) {
      fence = m[1]!;
      out.push(blank(line));
      continue;
    }
    out.push(maskSpans(line));
  }
  return out.join('\n');
}

function blank(s: string): string {
  return s.replace(/[^\r]/g, ' ');
}

/** Masks inline code spans (`` `x` ``, ``` ``x`` ```) on one line. */
function maskSpans(line: string): string {
  let out = '';
  let i = 0;
  while (i < line.length) {
    if (line[i] !== '`') {
      out += line[i];
      i++;
      continue;
    }
    let n = 0;
    while (line[i + n] === '`') n++;
    const ticks = '`'.repeat(n);
    let close = line.indexOf(ticks, i + n);
    while (close >= 0 && line[close + n] === '`') close = line.indexOf(ticks, close + n + 1);
    if (close < 0) {
      out += ticks;
      i += n;
      continue;
    }
    out += blank(line.slice(i, close + n));
    i = close + n;
  }
  return out;
}

/**
 * Removes block-level HTML comments: comments that start a line (after up to three spaces) outside
 * fenced code, through the line holding `-->`. Text after `-->` on that line is kept. Inline
 * comments inside a paragraph and comments inside code blocks are left alone.
 */
export function stripBlockComments(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  let fence: string | undefined;
  let inComment = false;
  for (const line of lines) {
    if (inComment) {
      const end = line.indexOf('-->');
      if (end >= 0) {
        inComment = false;
        const rest = line.slice(end + 3);
        if (rest.trim() !== '') out.push(rest);
      }
      continue;
    }
    const fm = FENCE_OPEN.exec(line);
    if (fence !== undefined) {
      if (fm && fm[1]![0] === fence[0] && fm[1]!.length >= fence.length && line.trim() === fm[1]) fence = undefined;
      out.push(line);
      continue;
    }
    if (fm) {
      fence = fm[1]!;
      out.push(line);
      continue;
    }
    const m = /^ {0,3}<!--/.exec(line);
    if (!m) {
      out.push(line);
      continue;
    }
    const end = line.indexOf('-->', m[0].length);
    if (end < 0) {
      inComment = true;
      continue;
    }
    const rest = line.slice(end + 3);
    if (rest.trim() !== '') out.push(rest);
  }
  return out.join('\n');
}

/** `[[target]]` and `[[target|alias]]` links outside code, targets deduplicated in order. */
export function extractLinks(body: string): string[] {
  const masked = maskCode(body);
  const seen = new Set<string>();
  for (const m of masked.matchAll(/\[\[([^[\]\n|]+)(?:\|[^[\]\n]*)?\]\]/g)) {
    const t = m[1]!.trim();
    if (t) seen.add(t);
  }
  return [...seen];
}
