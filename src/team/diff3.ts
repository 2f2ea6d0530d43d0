/**
 * @module team/diff3
 * A line-based three-way merge (diff3), written here rather than taken from a package: memory files
 * are small, the algorithm is ~100 lines, and the merge must keep both sides verbatim in a labelled
 * block on a conflict, which is easiest to guarantee in code we own.
 *
 * Method (Khanna, Kunal & Pierce, "A formal investigation of diff3"): match the ancestor's lines
 * with each side by a longest common subsequence; lines matched in both sides are stable; between
 * two stable lines, a chunk changed on one side only takes that side, a chunk changed identically
 * on both takes it once, and a chunk changed differently is a conflict. The LCS table is O(n·m):
 * above {@link MAX_CELLS} cells the whole file is treated as one chunk (a conflict unless one side
 * is unchanged), which keeps a hostile input from costing more than a few MB.
 */

/** The largest LCS table computed (lines of ancestor × lines of a side). */
const MAX_CELLS = 4_000_000;

/** Labels of a conflict block. */
interface MergeLabels {
  /** Who wrote `ours`, e.g. `alice`. */
  ours: string;
  /** Who wrote `theirs`, e.g. `bob (team v4)`. */
  theirs: string;
}

/** The result of {@link merge3}. */
interface MergeResult {
  text: string;
  /** Number of conflict blocks left in `text` (0: clean merge). */
  conflicts: number;
}

/** Splits text into lines, each with its line end (the last may have none). */
function lines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** For each line of `a`, the index of its match in `b` by a longest common subsequence, or -1. */
function lcsMatch(a: readonly string[], b: readonly string[]): number[] {
  const n = a.length;
  const m = b.length;
  const match = new Array<number>(n).fill(-1);
  // Common prefix and suffix first: the usual edit leaves most of a file alone.
  let lo = 0;
  while (lo < n && lo < m && a[lo] === b[lo]) match[lo] = lo++;
  let hiA = n;
  let hiB = m;
  while (hiA > lo && hiB > lo && a[hiA - 1] === b[hiB - 1]) match[--hiA] = --hiB;
  const rn = hiA - lo;
  const rm = hiB - lo;
  if (rn === 0 || rm === 0 || rn * rm > MAX_CELLS) return match;
  // dp[i][j] = LCS length of a[lo+i..hiA) and b[lo+j..hiB).
  const w = rm + 1;
  const dp = new Uint32Array((rn + 1) * w);
  for (let i = rn - 1; i >= 0; i--)
    for (let j = rm - 1; j >= 0; j--)
      dp[i * w + j] =
        a[lo + i] === b[lo + j] ? dp[(i + 1) * w + j + 1]! + 1 : Math.max(dp[(i + 1) * w + j]!, dp[i * w + j + 1]!);
  let i = 0;
  let j = 0;
  while (i < rn && j < rm) {
    if (a[lo + i] === b[lo + j]) {
      match[lo + i] = lo + j;
      i++;
      j++;
    } else if (dp[(i + 1) * w + j]! >= dp[i * w + j + 1]!) i++;
    else j++;
  }
  return match;
}

const same = (x: readonly string[], y: readonly string[]) => x.length === y.length && x.every((l, i) => l === y[i]);
const ended = (chunk: readonly string[]) =>
  chunk.length && !chunk[chunk.length - 1]!.endsWith('\n') ? [...chunk.slice(0, -1), chunk.at(-1)! + '\n'] : chunk;

/**
 * A conflict both sides can agree on without a person: the frontmatter `modified:` stamp, which
 * every edit rewrites, resolves to the later of the two.
 */
function autoResolve(ours: readonly string[], theirs: readonly string[]): string[] | undefined {
  const stamp = /^(\s*modified:\s*)['"]?([^'"\n]*)['"]?\s*$/;
  if (ours.length !== 1 || theirs.length !== 1) return undefined;
  const a = stamp.exec(ours[0]!);
  const b = stamp.exec(theirs[0]!);
  if (!a || !b) return undefined;
  return [a[2]! >= b[2]! ? ours[0]! : theirs[0]!];
}

/**
 * Merges `ours` and `theirs`, both edited from `base`. Where both changed the same lines
 * differently, both versions are kept in a git-style block:
 * `<<<<<<< ours-label` … `=======` … `>>>>>>> theirs-label`.
 */
export function merge3(base: string, ours: string, theirs: string, labels: MergeLabels): MergeResult {
  if (ours === theirs || theirs === base) return { text: ours, conflicts: 0 };
  if (ours === base) return { text: theirs, conflicts: 0 };
  const o = lines(base);
  const a = lines(ours);
  const b = lines(theirs);
  const ma = lcsMatch(o, a);
  const mb = lcsMatch(o, b);
  const out: string[] = [];
  let conflicts = 0;
  let i = 0;
  let ia = 0;
  let ib = 0;
  for (;;) {
    // The next ancestor line matched on both sides (at or after the cursors) is stable.
    let s = i;
    while (s < o.length && !(ma[s]! >= ia && mb[s]! >= ib)) s++;
    const ja = s < o.length ? ma[s]! : a.length;
    const jb = s < o.length ? mb[s]! : b.length;
    const oc = o.slice(i, s);
    const ac = a.slice(ia, ja);
    const bc = b.slice(ib, jb);
    if (same(ac, oc)) out.push(...bc);
    else if (same(bc, oc) || same(ac, bc)) out.push(...ac);
    else {
      const resolved = autoResolve(ac, bc);
      if (resolved) out.push(...resolved);
      else {
        conflicts++;
        if (out.length && !out[out.length - 1]!.endsWith('\n')) out[out.length - 1] += '\n';
        out.push(`<<<<<<< ${labels.ours}\n`, ...ended(ac), '=======\n', ...ended(bc), `>>>>>>> ${labels.theirs}\n`);
      }
    }
    if (s >= o.length) break;
    out.push(o[s]!);
    i = s + 1;
    ia = ja + 1;
    ib = jb + 1;
  }
  return { text: out.join(''), conflicts };
}
