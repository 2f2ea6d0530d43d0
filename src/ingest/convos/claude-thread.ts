/**
 * @module ingest/convos/claude-thread
 * The `parentUuid` tree of a Claude Code transcript: the active thread and the abandoned branches.
 *
 * Rules:
 * 1. Every record with a `uuid` is a node; its parent is `parentUuid`, or `logicalParentUuid` when
 *    `parentUuid` is null (the first record after a compaction), so the thread crosses compactions.
 * 2. The active thread is the path from the **last message record** of the file (user/assistant,
 *    by line) up to the root.
 * 3. Parallel tool calls make the tree bushy without any rewind: the assistant writes one record per
 *    `tool_use` block (sharing one API `message.id`) and each `tool_result` record hangs under its
 *    own `tool_use` record, so all but one are siblings of the path. They are added back: a node
 *    joins the thread when its `message.id` equals that of a thread node, or when it holds only tool
 *    results for tool calls already on the thread, **and** it hangs off the thread (its nearest
 *    message ancestor is on it) — a resumed session replays its history under new uuids with the
 *    same API message ids, and the original copy must not join the replay (one forward pass in
 *    line order).
 * 4. Message nodes left over are abandoned (rewinds, edits, interrupted retries). They are grouped
 *    into branches from their leaves (earliest leaf first), each branch walking up until it meets
 *    the thread or an earlier branch; `forkedFrom` is where it left.
 * Messages of the thread are emitted in line order (children are always written after parents).
 */

/** One node of the tree, serialisable (kept in the incremental cursor). */
export interface ThreadNode {
  /** uuid */
  u: string;
  /** parent uuid (parentUuid ?? logicalParentUuid), null at a root */
  p: string | null;
  /** 1-based line */
  l: number;
  /** 1 for a user/assistant record, 0 for structural records (system, progress, …) */
  m: 0 | 1;
  /** 1 when the record yields at least one archived message */
  c: 0 | 1;
  /** API message id of an assistant record */
  id?: string;
  /** tool_use ids in the record */
  tu?: string[];
  /** tool_use ids answered, when the record holds only tool results */
  tr?: string[];
  /** 1 for a structural record kept in the incremental cursor's frontier (off the thread path) */
  f?: 1;
}

/**
 * The path from `leaf` to the root: node ids on it and the uuid where it left `nodes` (null at a
 * root). With `bridge`, a parent that is missing from the file (its line was unreadable) is
 * replaced by what `bridge` returns for the orphan — the record just before it — so one broken
 * line does not cut the thread; `bridged` counts those jumps.
 */
export function activePath(
  nodes: ReadonlyMap<string, ThreadNode>,
  leaf: string,
  bridge?: (orphan: ThreadNode) => string | null,
): { path: Set<string>; exit: string | null; cycle: boolean; bridged: number } {
  const path = new Set<string>();
  let cur: string | null = leaf;
  let bridged = 0;
  while (cur !== null) {
    const n = nodes.get(cur);
    if (!n) break;
    if (path.has(cur)) return { path, exit: null, cycle: true, bridged };
    path.add(cur);
    cur = n.p;
    if (bridge && cur !== null && !nodes.has(cur)) {
      const prev = bridge(n);
      if (prev !== null && !path.has(prev)) {
        cur = prev;
        bridged++;
      }
    }
  }
  return { path, exit: cur, cycle: false, bridged };
}

/** Rule 3: the thread plus the parallel-tool siblings of its nodes. `ordered` is in line order. */
export function withToolSiblings(ordered: readonly ThreadNode[], path: ReadonlySet<string>): Set<string> {
  const included = new Set(path);
  const msgIds = new Set<string>();
  const toolIds = new Set<string>();
  for (const n of ordered) {
    if (!included.has(n.u)) continue;
    if (n.id) msgIds.add(n.id);
    if (n.tu) for (const t of n.tu) toolIds.add(t);
  }
  const byId = new Map<string, ThreadNode>();
  for (const n of ordered) byId.set(n.u, n);
  // The nearest message ancestor (through structural records) is on the thread, or unknown.
  const anchored = (n: ThreadNode): boolean => {
    let p = n.p;
    for (let hops = 0; p !== null && hops < 10_000; hops++) {
      const x = byId.get(p);
      if (!x) return true; // outside what is known (a cursor's tail): cannot tell
      if (x.m === 1) return included.has(x.u);
      p = x.p;
    }
    return true;
  };
  for (const n of ordered) {
    if (included.has(n.u) || n.m === 0) continue;
    const sameMessage = n.id !== undefined && msgIds.has(n.id);
    const answers = n.tr !== undefined && n.tr.length > 0 && n.tr.every((t) => toolIds.has(t));
    if ((sameMessage || answers) && anchored(n)) {
      included.add(n.u);
      if (n.tu) for (const t of n.tu) toolIds.add(t);
    }
  }
  return included;
}

/** One abandoned branch: its message nodes in line order and the uuid it forked from. */
interface Branch {
  nodes: ThreadNode[];
  forkedFrom: string | null;
}

/** Rule 4: abandoned branches among the message nodes not in `included`. `ordered` is in line order. */
export function abandonedBranches(
  ordered: readonly ThreadNode[],
  byId: ReadonlyMap<string, ThreadNode>,
  included: ReadonlySet<string>,
): Branch[] {
  const msgParentMemo = new Map<string, string | null>();
  const msgParent = (n: ThreadNode): string | null => {
    const hit = msgParentMemo.get(n.u);
    if (hit !== undefined) return hit;
    let cur = n.p;
    const seen = new Set<string>();
    while (cur !== null) {
      const x = byId.get(cur);
      if (!x || x.m === 1 || seen.has(cur)) break;
      seen.add(cur);
      cur = x.p;
    }
    msgParentMemo.set(n.u, cur);
    return cur;
  };
  const loose = ordered.filter((n) => n.m === 1 && !included.has(n.u));
  if (loose.length === 0) return [];
  const hasChild = new Set<string>();
  for (const n of loose) {
    const p = msgParent(n);
    if (p !== null) hasChild.add(p);
  }
  const claimed = new Set<string>();
  const out: Branch[] = [];
  for (const leaf of loose) {
    if (hasChild.has(leaf.u)) continue;
    const nodes: ThreadNode[] = [];
    let cur: ThreadNode | undefined = leaf;
    let forkedFrom: string | null = null;
    while (cur) {
      if (included.has(cur.u) || claimed.has(cur.u)) {
        forkedFrom = cur.u;
        break;
      }
      claimed.add(cur.u);
      nodes.push(cur);
      const p = msgParent(cur);
      forkedFrom = p;
      cur = p === null ? undefined : byId.get(p);
      if (cur && cur.m === 0) break;
    }
    nodes.sort((a, b) => a.l - b.l);
    out.push({ nodes, forkedFrom });
  }
  return out;
}
