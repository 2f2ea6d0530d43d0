/**
 * @module dream/duplicates
 * The deterministic merge of consolidation (no model needed): exact and near duplicates.
 *
 * - Two memories of the same type are **exact duplicates** when their bodies are equal once case,
 *   whitespace and Markdown emphasis are ignored; **near duplicates** when the Jaccard similarity of
 *   their word sets (description + body, the `**Why:**`/`**How to apply:**` labels aside) is at least
 *   {@link NEAR_DUPLICATE} and both hold at least {@link MIN_WORDS} words.
 * - The survivor of a group is a team memory if any (never delete shared text in favour of a private
 *   copy), else a pinned one, else the newest. Lines of the others that the survivor lacks are
 *   added to it (before its `**Why:**` line), so a merge never loses a fact; the others are deleted.
 * - Team memories are changed conservatively: one is folded into another team memory only when
 *   they are exact duplicates; a private memory is never merged into a team one unless it is an
 *   exact duplicate of it (then the private copy is just deleted: nothing is promoted).
 */
import { tokenize } from '../text/index.js';
import type { Memory } from '../memdir/index.js';

/** Jaccard similarity at or above which two memories are near duplicates. */
const NEAR_DUPLICATE = 0.8;
/** Fewer words than this: only exact duplicates are merged (short texts look alike by chance). */
const MIN_WORDS = 6;

/** A merge decided by the rules: `keep` absorbs `drop`. */
export interface DuplicateMerge {
  keep: string;
  drop: string[];
  /** The survivor's new body when lines of the others were added (undefined: unchanged). */
  body?: string;
  exact: boolean;
  reason: string;
}

const LABEL = /^\*\*(Why|How to apply):\*\*/;

function normalise(body: string): string {
  return body.toLowerCase().replace(/[*_`]/g, '').replace(/\s+/g, ' ').trim();
}

function words(m: Memory): Set<string> {
  const text = `${m.description}\n${m.body.replace(/\*\*(Why|How to apply):\*\*/g, ' ')}`;
  return new Set(tokenize(text));
}

function jaccard(a: Set<string>, b: Set<string>): number {
  let inter = 0;
  for (const w of a) if (b.has(w)) inter++;
  const union = a.size + b.size - inter;
  return union === 0 ? 0 : inter / union;
}

/** The survivor's body with the lines of `others` it lacks, inserted before its Why line. */
export function mergeBodies(keep: string, others: readonly string[]): string | undefined {
  const have = new Set(
    keep
      .split('\n')
      .map((l) => normalise(l))
      .filter(Boolean),
  );
  const extra: string[] = [];
  for (const o of others) {
    for (const line of o.split('\n')) {
      const n = normalise(line);
      if (!n || LABEL.test(line.trim()) || have.has(n)) continue;
      have.add(n);
      extra.push(line.trimEnd());
    }
  }
  if (!extra.length) return undefined;
  const lines = keep.replace(/\s+$/, '').split('\n');
  const at = lines.findIndex((l) => LABEL.test(l.trim()));
  if (at < 0) return [...lines, ...extra].join('\n') + '\n';
  const head = lines.slice(0, at);
  while (head.length && head[head.length - 1]!.trim() === '') head.pop();
  return [...head, ...extra, '', ...lines.slice(at)].join('\n') + '\n';
}

function survivor(group: Memory[], isTeam: (m: Memory) => boolean): Memory {
  return [...group].sort(
    (a, b) =>
      Number(isTeam(b)) - Number(isTeam(a)) ||
      Number(b.pinned) - Number(a.pinned) ||
      b.modified.localeCompare(a.modified) ||
      a.file.localeCompare(b.file),
  )[0]!;
}

/**
 * Finds the duplicate groups among `memories` and decides each merge (see the module comment).
 * `isTeam` says which memories are shared. Deterministic: the same input gives the same merges.
 */
export function findDuplicates(memories: readonly Memory[], isTeam: (m: Memory) => boolean): DuplicateMerge[] {
  const sorted = [...memories].sort((a, b) => a.file.localeCompare(b.file));
  const norm = sorted.map((m) => normalise(m.body));
  const sets = sorted.map(words);
  const used = new Set<number>();
  const out: DuplicateMerge[] = [];
  for (let i = 0; i < sorted.length; i++) {
    if (used.has(i)) continue;
    const a = sorted[i]!;
    let group: { m: Memory; exact: boolean }[] = [{ m: a, exact: true }];
    for (let j = i + 1; j < sorted.length; j++) {
      if (used.has(j)) continue;
      const b = sorted[j]!;
      if (a.type !== b.type) continue;
      const exact = norm[i] !== '' && norm[i] === norm[j];
      const near =
        !exact &&
        sets[i]!.size >= MIN_WORDS &&
        sets[j]!.size >= MIN_WORDS &&
        jaccard(sets[i]!, sets[j]!) >= NEAR_DUPLICATE;
      if (!exact && !near) continue;
      // Team memories move only for exact copies; a private near copy of a team memory stays.
      if (!exact && (isTeam(a) || isTeam(b))) continue;
      group.push({ m: b, exact });
      used.add(j);
    }
    // A team survivor takes exact copies only: lines of a private near copy would be promoted.
    if (group.some((g) => isTeam(g.m))) {
      for (const g of group) if (!g.exact) used.delete(sorted.indexOf(g.m));
      group = group.filter((g) => g.exact);
    }
    if (group.length < 2) continue;
    used.add(i);
    const keep = survivor(
      group.map((g) => g.m),
      isTeam,
    );
    const drop = group.filter((g) => g.m !== keep).map((g) => g.m);
    const exact = group.every((g) => g.exact);
    const body = exact
      ? undefined
      : mergeBodies(
          keep.body,
          drop.map((d) => d.body),
        );
    out.push({
      keep: keep.file,
      drop: drop.map((d) => d.file),
      ...(body !== undefined ? { body } : {}),
      exact,
      reason: exact
        ? `same text as ${drop.map((d) => d.file).join(', ')} (exact duplicate; kept the ${
            isTeam(keep) ? 'team' : keep.pinned ? 'pinned' : 'newest'
          } copy)`
        : `near duplicate of ${drop.map((d) => d.file).join(', ')} (same type, ≥ ${Math.round(
            NEAR_DUPLICATE * 100,
          )}% of words shared); lines only they had were added`,
    });
  }
  return out;
}
