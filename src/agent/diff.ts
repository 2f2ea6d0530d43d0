/**
 * @module agent/diff
 * A unified diff of one edit: the common head and tail of the two texts are skipped, the changed
 * lines are shown with three lines of context (one hunk, since an edit changes one region).
 */

const CONTEXT = 3;

/** The diff text and its counts of added and removed lines. */
export interface EditDiff {
  text: string;
  added: number;
  removed: number;
}

/** The unified diff of `before` → `after` for the file `name` (`created` shows `/dev/null` as the old side). */
export function editDiff(name: string, before: string, after: string, created = false): EditDiff {
  const a = before === '' ? [] : before.split('\n');
  const b = after === '' ? [] : after.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const removed = a.slice(head, a.length - tail);
  const added = b.slice(head, b.length - tail);
  const from = Math.max(0, head - CONTEXT);
  const pre = a.slice(from, head);
  const post = a.slice(a.length - tail, Math.min(a.length, a.length - tail + CONTEXT));
  const oldLen = pre.length + removed.length + post.length;
  const newLen = pre.length + added.length + post.length;
  const lines = [
    `--- ${created ? '/dev/null' : `a/${name}`}`,
    `+++ b/${name}`,
    `@@ -${oldLen === 0 ? 0 : from + 1},${oldLen} +${newLen === 0 ? 0 : from + 1},${newLen} @@`,
    ...pre.map((l) => ` ${l}`),
    ...removed.map((l) => `-${l}`),
    ...added.map((l) => `+${l}`),
    ...post.map((l) => ` ${l}`),
  ];
  return { text: lines.join('\n'), added: added.length, removed: removed.length };
}
