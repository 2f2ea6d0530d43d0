/**
 * @module ingest/convos/parse-claude-code
 * Full parse of a Claude Code transcript file (session file, subagent file `agent-<id>.jsonl`).
 *
 * Output, per thread group of the file (`main`, or `agent-<id>` for sidechain records):
 * - the active thread (see claude-thread) as one conversation: id = `sessionId` for the main thread,
 *   `${sessionId}/agent-${agentId}` for a subagent; the file's first group is the primary
 *   conversation (`source` = the path) and also receives the titles and summary records;
 * - each abandoned branch holding something not already said on the thread (same role and text)
 *   as a conversation `${id}~branch-N` (N from 1, by the branch's last line) with
 *   `meta.branchOf` and `meta.forkedFrom`; the thread's `meta.abandonedBranches` counts them.
 *   Abandoned branches are archived rather than dropped because the archive keeps everything said,
 *   including options that were rejected. `includeBranches: false` turns them off.
 */
import { basename } from 'node:path';
import { abandonedBranches, activePath, withToolSiblings, type ThreadNode } from './claude-thread.js';
import {
  mergeByLine,
  newScanState,
  scanRecord,
  titleOf,
  type ClaudeFacts,
  type LooseItem,
  type ScanState,
  type ScannedNode,
} from './claude-scan.js';
import { forEachJsonLine, splitLines } from './jsonl.js';
import type { Conversation, ConvoMessage } from './types.js';
import { stem, type Resolved, type Warnings } from './util.js';

/** The agent id in an `agent-<id>.jsonl` file name, or null. */
export function fileAgentId(path: string): string | null {
  const m = /^agent-([^.]+)\.jsonl$/.exec(basename(path));
  return m ? m[1]! : null;
}

/** The conversation id of a thread group: the session id, or `${sessionId}/${group}` for subagents. */
function claudeConversationId(facts: ClaudeFacts, group: string, path: string): string {
  const session = facts.sessionId ?? stem(path);
  return group === 'main' ? session : `${session}/${group}`;
}

/** The conversation header (everything but messages) shared by the full and incremental readers. */
export function claudeHeader(facts: ClaudeFacts, group: string, path: string, primary: boolean): Conversation {
  const id = claudeConversationId(facts, group, path);
  const meta: Record<string, unknown> = { sessionId: facts.sessionId ?? stem(path) };
  if (facts.version) meta.version = facts.version;
  if (facts.model) meta.model = facts.model;
  if (facts.slug) meta.slug = facts.slug;
  if (group !== 'main') {
    meta.isSidechain = true;
    meta.agentId = group.slice('agent-'.length);
    if (facts.agentName) meta.agentName = facts.agentName;
  }
  return {
    format: 'claude-code',
    id,
    title: primary ? titleOf(facts) : null,
    source: primary ? path : `${path}#${id}`,
    file: path,
    cwd: facts.cwd,
    gitBranch: facts.gitBranch,
    startedAt: facts.firstTimestamp,
    messages: [],
    exchangeMode: 'user-turns',
    meta,
  };
}

function key(m: ConvoMessage): string {
  return `${m.role}\0${m.text}`;
}

/** The resolved thread of one group (used to build the incremental cursor). */
export interface ResolvedThread {
  nodes: ThreadNode[];
  byId: Map<string, ThreadNode>;
  path: Set<string>;
  included: Set<string>;
  leaf: ThreadNode;
}

function groupConversations(
  scanned: readonly ScannedNode[],
  items: readonly LooseItem[],
  facts: ClaudeFacts,
  group: string,
  primary: boolean,
  path: string,
  o: Resolved,
  w: Warnings,
): { convs: Conversation[]; thread?: ResolvedThread } {
  const header = claudeHeader(facts, group, path, primary);
  const ordered: ThreadNode[] = scanned.map((s) => s.node);
  const byId = new Map<string, ThreadNode>();
  const msgs = new Map<string, ConvoMessage[]>();
  for (const s of scanned) {
    if (byId.has(s.node.u)) {
      w.count('duplicate uuid (later record ignored)');
      continue;
    }
    byId.set(s.node.u, s.node);
    msgs.set(s.node.u, s.msgs);
  }
  const nodes = ordered.filter((n) => byId.get(n.u) === n);
  let leaf: ThreadNode | undefined;
  for (let i = nodes.length - 1; i >= 0; i--) {
    if (nodes[i]!.m === 1) {
      leaf = nodes[i];
      break;
    }
  }
  const looseItems = primary ? items : [];
  if (!leaf) {
    if (looseItems.length === 0) return { convs: [] };
    return { convs: [{ ...header, messages: looseItems.map((i) => i.msg) }] };
  }
  // A parent missing from the whole file was on an unreadable line: continue from the record before.
  // In a sidechain (a subagent's or a compaction's records) the first parents live in the main
  // session, so a missing parent there is expected and not worth a warning.
  const position = new Map(nodes.map((n, i) => [n.u, i]));
  const before = (orphan: ThreadNode): string | null => {
    const i = position.get(orphan.u) ?? 0;
    return i > 0 ? nodes[i - 1]!.u : null;
  };
  const { path: thread, cycle, bridged } = activePath(byId, leaf.u, before);
  if (cycle) w.add(`${header.id}: parentUuid cycle, the thread stops there`);
  if (bridged > 0 && group === 'main')
    w.count('parent record missing (an unreadable line?): the thread continues from the record before it');
  const included = withToolSiblings(nodes, thread);
  const threadMsgs: ConvoMessage[] = [];
  for (const n of nodes) if (included.has(n.u)) threadMsgs.push(...msgs.get(n.u)!);
  const main: Conversation = { ...header, messages: mergeByLine(threadMsgs, looseItems) };
  const out: Conversation[] = [main];
  const resolved: ResolvedThread = { nodes, byId, path: thread, included, leaf };
  if (!o.includeBranches) {
    const n = abandonedBranches(nodes, byId, included).filter((b) => b.nodes.some((x) => x.c === 1)).length;
    if (n > 0) main.meta.abandonedBranches = n;
    return { convs: out, thread: resolved };
  }
  let said: Set<string> | undefined; // built only when there is a branch (most files have none)
  let n = 0;
  for (const b of abandonedBranches(nodes, byId, included)) {
    said ??= new Set(threadMsgs.map(key));
    const bm = b.nodes.flatMap((x) => msgs.get(x.u)!).filter((m) => !said!.has(key(m)));
    if (bm.length === 0) continue;
    n++;
    const id = `${header.id}~branch-${n}`;
    out.push({
      ...header,
      id,
      title: null,
      source: `${path}#${id}`,
      startedAt: bm.find((m) => m.timestamp)?.timestamp ?? null,
      messages: bm,
      meta: { ...header.meta, branchOf: header.id, forkedFrom: b.forkedFrom },
    });
  }
  if (n > 0) main.meta.abandonedBranches = n;
  return { convs: out, thread: resolved };
}

/** Full parse with the details the incremental cursor needs. */
interface ClaudeFullParse {
  conversations: Conversation[];
  scan: ScanState;
  primary: string;
  /** The primary group's resolved thread (absent when it has no message yet). */
  thread?: ResolvedThread;
  /** Line number after the last parsed line. */
  nextLine: number;
}

/** Parses complete lines of a Claude Code transcript (see {@link parseClaudeCode}) with details. */
export function parseClaudeCodeLines(
  path: string,
  lines: readonly string[],
  o: Resolved,
  w: Warnings,
): ClaudeFullParse {
  const st = newScanState();
  const scanned = { nodes: [] as ScannedNode[], items: [] as LooseItem[] };
  const agent = fileAgentId(path);
  forEachJsonLine(lines, o.firstLine, w, (line, rec) => scanRecord(line, rec, st, o, agent, w, scanned));
  const { nodes, items } = scanned;
  const groups = new Map<string, ScannedNode[]>();
  for (const s of nodes) {
    let g = groups.get(s.group);
    if (!g) groups.set(s.group, (g = []));
    g.push(s);
  }
  const firstMsg = nodes.find((s) => s.node.m === 1);
  const primary = groups.has('main') ? 'main' : (firstMsg?.group ?? nodes[0]?.group ?? 'main');
  if (!groups.has(primary)) groups.set(primary, []);
  const out: Conversation[] = [];
  let thread: ResolvedThread | undefined;
  for (const [g, list] of groups) {
    const r = groupConversations(list, items, st.facts, g, g === primary, path, o, w);
    out.push(...r.convs);
    if (g === primary) thread = r.thread;
  }
  out.sort((a, b) => (a.source === path ? -1 : b.source === path ? 1 : 0));
  return { conversations: out, scan: st, primary, ...(thread ? { thread } : {}), nextLine: o.firstLine + lines.length };
}

/** Parses a Claude Code JSONL transcript into its thread conversations and abandoned branches. */
export function parseClaudeCode(path: string, content: string, o: Resolved, w: Warnings): Conversation[] {
  return parseClaudeCodeLines(path, splitLines(content), o, w).conversations;
}
