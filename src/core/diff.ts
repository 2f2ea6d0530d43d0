/**
 * @module core/diff
 * A line diff in unified format, for dry runs that show what a write would change (memory
 * extraction, consolidation). Longest common subsequence over lines; meant for files of a few
 * hundred lines (quadratic beyond that, so a changed middle — after the common head and tail — of
 * over {@link DIFF_MAX_LINES} lines is shown as a whole replacement).
 */

/** Above this many lines on either side, the diff is a whole replacement. */
const DIFF_MAX_LINES = 2000;

type Op = [' ' | '-' | '+', string];

/** The common head and tail stay unchanged lines; only the middle goes through {@link lcsOps}. */
function ops(a: string[], b: string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  return [
    ...a.slice(0, head).map((l): Op => [' ', l]),
    ...lcsOps(a.slice(head, a.length - tail), b.slice(head, b.length - tail)),
    ...a.slice(a.length - tail).map((l): Op => [' ', l]),
  ];
}

function lcsOps(a: string[], b: string[]): Op[] {
  if (a.length > DIFF_MAX_LINES || b.length > DIFF_MAX_LINES) {
    return [...a.map((l): Op => ['-', l]), ...b.map((l): Op => ['+', l])];
  }
  const n = a.length;
  const m = b.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const out: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push([' ', a[i]!]);
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) out.push(['-', a[i++]!]);
    else out.push(['+', b[j++]!]);
  }
  while (i < n) out.push(['-', a[i++]!]);
  while (j < m) out.push(['+', b[j++]!]);
  return out;
}

function lines(text: string | undefined): string[] {
  if (text === undefined || text === '') return [];
  return text.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
}

/**
 * The unified diff (`--- a`, `+++ b`, `@@` hunks with `context` lines around changes) turning
 * `before` into `after`. `before` undefined: a new file (`--- /dev/null`); `after` undefined: a
 * deleted one. '' when nothing changes.
 */
export function unifiedDiff(name: string, before: string | undefined, after: string | undefined, context = 3): string {
  const a = lines(before);
  const b = lines(after);
  const all = ops(a, b);
  if (all.every(([k]) => k === ' ')) return '';
  const out = [
    `--- ${before === undefined ? '/dev/null' : `a/${name}`}`,
    `+++ ${after === undefined ? '/dev/null' : `b/${name}`}`,
  ];
  let k = 0;
  let ai = 0;
  let bi = 0;
  while (k < all.length) {
    if (all[k]![0] === ' ') {
      k++;
      ai++;
      bi++;
      continue;
    }
    // A hunk: back up `context` lines, then run until `2 * context` unchanged lines in a row.
    const back = Math.min(context, k, ai);
    const start = k - back;
    const hunkA = ai - back;
    const hunkB = bi - back;
    let end = k;
    let same = 0;
    while (end < all.length && (all[end]![0] !== ' ' || same < 2 * context)) {
      same = all[end]![0] === ' ' ? same + 1 : 0;
      end++;
    }
    end -= Math.max(0, same - context);
    const body = all.slice(start, end);
    const countA = body.filter(([op]) => op !== '+').length;
    const countB = body.filter(([op]) => op !== '-').length;
    out.push(`@@ -${countA ? hunkA + 1 : hunkA},${countA} +${countB ? hunkB + 1 : hunkB},${countB} @@`);
    for (const [op, l] of body) out.push(`${op}${l}`);
    for (const [op] of all.slice(k, end)) {
      if (op !== '+') ai++;
      if (op !== '-') bi++;
    }
    k = end;
  }
  return `${out.join('\n')}\n`;
}
