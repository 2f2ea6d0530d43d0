/**
 * @module ingest/convos/claude-incremental
 * Incremental reading of a growing Claude Code transcript: given the cursor of the previous read
 * and the complete lines appended since (see `readCompleteLines`), returns only the **new**
 * messages of the active thread, in O(new lines).
 *
 * The cursor ({@link ClaudeCodeThreadState}, plain JSON, ~10 KB) keeps the session facts, the title
 * and summary state (as hashes: no message text is kept) and the **tail** of the active thread: its
 * last 64 path nodes (uuid, parent, line, tool ids, API message id), their parallel-tool siblings
 * and the newest 256 structural records (progress, system) hanging below them, each re-pointed at
 * its nearest non-structural ancestor so that a long chain of progress records needs no more than
 * its newest links. New records are
 * resolved against tail + new lines with the same rules as the full parser (claude-thread), so
 * appending never changes what was already archived, and the messages returned over successive
 * reads are exactly those a full read of the final file gives its thread (tested with random byte
 * cuts). A read ending between parallel tool results is fine: siblings rejoin through rule 3.
 *
 * Rewinds and forks in the appended part: when the new leaf's path leaves the tail anywhere but at
 * its anchor (a rewind further back than the tail, or a missing parent), when an archived message
 * of the tail drops off the thread (a rewind into the tail), when an appended message is not on the
 * thread (a branch inside the appended lines), or when another thread group appears in the file,
 * the answer is `reparse`: the caller re-reads the whole file with a null state (`full`) and
 * replaces the file's drawers, which moves the abandoned messages into `~branch-N` conversations
 * exactly as a first read would. Rewinds are user actions and rare, so the O(file) cost is too.
 */
import { activePath, withToolSiblings, type ThreadNode } from './claude-thread.js';
import { mergeByLine, scanRecords, titleOf, type ClaudeFacts, type ScanState } from './claude-scan.js';
import { parseJsonLines } from './jsonl.js';
import { claudeHeader, fileAgentId, parseClaudeCodeLines, type ResolvedThread } from './parse-claude-code.js';
import type { Conversation, ConvoMessage, ParseOptions } from './types.js';
import { resolveOptions, Warnings } from './util.js';

/** Path nodes kept in the cursor's tail. */
const TAIL_PATH = 64;
/** Structural nodes kept below the tail. */
const TAIL_STRUCTURAL = 256;
/** Summary texts remembered to avoid re-emitting a repeated summary record. */
const SUMMARIES_KEPT = 500;

/**
 * The serialisable cursor of one Claude Code transcript file (store it in `SourceState.state`).
 * Version 1; any other `v` answers `reparse`.
 */
export interface ClaudeCodeThreadState {
  v: 1;
  /** Thread group followed: `main`, or `agent-<id>` for a subagent file. */
  group: string;
  /** Session facts (session id, cwd, branch, version, titles…). */
  facts: ClaudeFacts;
  /** Hash of the last emitted title message (hashes only: the cursor is persisted and holds no text). */
  lastTitleHash: string | null;
  /** Hashes of the summary-record texts already emitted (the last 500). */
  summariesSeen: string[];
  /** Tail of the active thread (see the module comment), in line order. */
  tail: ThreadNode[];
  /** Parent uuid of the first tail path node (null when the tail reaches the root). */
  anchor: string | null;
  /** Line number of the next line to read (1-based). */
  nextLine: number;
  /** Messages of the active thread archived so far (titles and summaries included). */
  messages: number;
}

/** What {@link advanceClaudeCodeThread} answers. */
export type ClaudeAdvance =
  | {
      /** First read (null state): every conversation of the file, and the cursor at its end. */
      status: 'full';
      conversations: Conversation[];
      state: ClaudeCodeThreadState;
      warnings: string[];
    }
  | {
      /** The new messages of the primary thread (possibly none), with the refreshed header. */
      status: 'append';
      conversation: Conversation;
      state: ClaudeCodeThreadState;
      warnings: string[];
    }
  | {
      /** The file cannot be read incrementally; read it whole with a null state and replace. */
      status: 'reparse';
      reason: string;
      warnings: string[];
    };

/** The `full` answer (first read). */
type ClaudeFull = Extract<ClaudeAdvance, { status: 'full' }>;
/** The `append` answer. */
type ClaudeAppend = Extract<ClaudeAdvance, { status: 'append' }>;
/** The `reparse` answer. */
type ClaudeReparse = Extract<ClaudeAdvance, { status: 'reparse' }>;

function buildTail(t: ResolvedThread): { tail: ThreadNode[]; anchor: string | null } {
  const pathNodes = t.nodes.filter((n) => t.path.has(n.u));
  // path nodes are never dropped; a former frontier record now on the path loses its mark
  const keep = pathNodes.slice(-TAIL_PATH).map(({ f: _f, ...n }) => n);
  const first = keep[0]!;
  const reach = new Set(keep.map((n) => n.u));
  const extra: ThreadNode[] = [];
  // Siblings and structural records are kept only below a kept node, so that every kept sibling
  // still finds the tool call or API message that makes it part of the thread.
  for (const n of t.nodes) {
    if (n.l <= first.l || reach.has(n.u) || n.p === null || !reach.has(n.p)) continue;
    if (t.included.has(n.u) || n.m === 0) {
      reach.add(n.u);
      extra.push(n);
    }
  }
  return { tail: compress(keep, extra), anchor: first.p };
}

/**
 * Structural records (progress, system) carry no text: each kept one is re-pointed at its nearest
 * non-structural ancestor, so a long chain of progress records (a long-running command) needs only
 * its newest links, and at most {@link TAIL_STRUCTURAL} of them are kept.
 */
function compress(keep: readonly ThreadNode[], extra: readonly ThreadNode[]): ThreadNode[] {
  const byId = new Map<string, ThreadNode>();
  for (const n of keep) byId.set(n.u, n);
  const out: ThreadNode[] = [];
  for (const n of [...extra].sort((a, b) => a.l - b.l)) {
    let node = n;
    if (n.m === 0) {
      // a frontier record (off the thread path): re-point past a structural parent, mark droppable
      const parent = n.p === null ? undefined : byId.get(n.p);
      node = { ...n, f: 1, ...(parent && parent.m === 0 && parent.f === 1 ? { p: parent.p } : {}) };
    }
    byId.set(node.u, node);
    out.push(node);
  }
  const structural = out.filter((n) => n.f === 1);
  const drop = new Set(structural.slice(0, Math.max(0, structural.length - TAIL_STRUCTURAL)).map((n) => n.u));
  return [...keep, ...out.filter((n) => !drop.has(n.u))].sort((a, b) => a.l - b.l);
}

function snapshot(
  scan: ScanState,
  group: string,
  thread: ResolvedThread | undefined,
  prev: ClaudeCodeThreadState | null,
  nextLine: number,
  added: number,
): ClaudeCodeThreadState {
  const { tail, anchor } = thread ? buildTail(thread) : { tail: prev?.tail ?? [], anchor: prev?.anchor ?? null };
  return {
    v: 1,
    group,
    facts: { ...scan.facts },
    lastTitleHash: scan.lastTitleHash,
    summariesSeen: [...scan.summariesSeen].slice(-SUMMARIES_KEPT),
    tail,
    anchor,
    nextLine,
    messages: (prev?.messages ?? 0) + added,
  };
}

/**
 * Reads the complete `lines` appended to a Claude Code transcript since `state` (null = read the
 * whole file from line 1). See the module comment for the rules and for rewinds.
 *
 * `opts` are the parse options (tool line lengths, sidecar hook); keep them equal across calls of
 * one file, or re-read it (they change the rendered text).
 */
export function advanceClaudeCodeThread(
  state: null,
  lines: readonly string[],
  path: string,
  opts?: ParseOptions,
): ClaudeFull;
export function advanceClaudeCodeThread(
  state: ClaudeCodeThreadState,
  lines: readonly string[],
  path: string,
  opts?: ParseOptions,
): ClaudeAppend | ClaudeReparse;
export function advanceClaudeCodeThread(
  state: ClaudeCodeThreadState | null,
  lines: readonly string[],
  path: string,
  opts?: ParseOptions,
): ClaudeAdvance;
export function advanceClaudeCodeThread(
  state: ClaudeCodeThreadState | null,
  lines: readonly string[],
  path: string,
  opts?: ParseOptions,
): ClaudeAdvance {
  const o = resolveOptions(opts);
  const w = new Warnings(o.maxWarnings);
  if (state === null) {
    const full = parseClaudeCodeLines(path, lines, { ...o, firstLine: 1 }, w);
    const primary = full.conversations.find((c) => c.source === path);
    const st = snapshot(full.scan, full.primary, full.thread, null, full.nextLine, primary?.messages.length ?? 0);
    return { status: 'full', conversations: full.conversations, state: st, warnings: w.finish() };
  }
  if (state.v !== 1) return { status: 'reparse', reason: `unknown cursor version ${String(state.v)}`, warnings: [] };
  const records = parseJsonLines(lines, state.nextLine, w);
  const scan: ScanState = {
    facts: { ...state.facts },
    lastTitleHash: state.lastTitleHash,
    summariesSeen: new Set(state.summariesSeen),
  };
  const { nodes: scanned, items } = scanRecords(records, scan, o, fileAgentId(path), w);
  const reparse = (reason: string): ClaudeReparse => ({ status: 'reparse', reason, warnings: w.finish() });

  const byId = new Map<string, ThreadNode>(state.tail.map((n) => [n.u, n]));
  const fresh: ThreadNode[] = [];
  const msgs = new Map<string, ConvoMessage[]>();
  for (const s of scanned) {
    if (s.group !== state.group) {
      if (s.node.m === 1 && s.node.c === 1) return reparse(`another thread (${s.group}) appeared in the file`);
      continue;
    }
    if (byId.has(s.node.u)) {
      w.count('duplicate uuid (later record ignored)');
      continue;
    }
    byId.set(s.node.u, s.node);
    fresh.push(s.node);
    msgs.set(s.node.u, s.msgs);
  }
  const ordered = [...state.tail, ...fresh];
  let leaf: ThreadNode | undefined;
  for (let i = fresh.length - 1; i >= 0; i--) {
    if (fresh[i]!.m === 1) {
      leaf = fresh[i];
      break;
    }
  }
  const nextLine = state.nextLine + lines.length;
  const header = (): Conversation => {
    const h = claudeHeader(scan.facts, state.group, path, true);
    h.title = titleOf(scan.facts);
    return h;
  };
  if (!leaf) {
    // Only structural records or titles: extend the tail's structural frontier.
    const reach = new Set(state.tail.map((n) => n.u));
    const added: ThreadNode[] = [];
    for (const n of fresh) {
      if (n.p !== null && reach.has(n.p)) {
        reach.add(n.u);
        added.push(n);
      }
    }
    const tail = compress(
      state.tail.filter((n) => n.f !== 1),
      [...state.tail.filter((n) => n.f === 1), ...added],
    );
    const messages = items.map((i) => i.msg);
    const st = snapshot(scan, state.group, undefined, { ...state, tail }, nextLine, messages.length);
    return { status: 'append', conversation: { ...header(), messages }, state: st, warnings: w.finish() };
  }
  const { path: thread, exit, cycle } = activePath(byId, leaf.u);
  if (cycle) return reparse('parentUuid cycle in the appended lines');
  if (state.tail.length > 0 && exit !== state.anchor) {
    return reparse('the active thread now continues from a message before the cursor (rewind or fork)');
  }
  const included = withToolSiblings(ordered, thread);
  for (const n of state.tail) {
    if (n.m === 1 && n.c === 1 && !included.has(n.u))
      return reparse('archived messages left the active thread (rewind)');
  }
  for (const n of fresh) {
    if (n.m === 1 && n.c === 1 && !included.has(n.u)) return reparse('the appended lines hold an abandoned branch');
  }
  const newMsgs: ConvoMessage[] = [];
  for (const n of fresh) if (included.has(n.u)) newMsgs.push(...msgs.get(n.u)!);
  const messages = mergeByLine(newMsgs, items);
  const resolved: ResolvedThread = { nodes: ordered, byId, path: thread, included, leaf };
  const st = snapshot(scan, state.group, resolved, state, nextLine, messages.length);
  return { status: 'append', conversation: { ...header(), messages }, state: st, warnings: w.finish() };
}
