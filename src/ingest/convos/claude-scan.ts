/**
 * @module ingest/convos/claude-scan
 * Claude Code records → tree nodes, messages, titles and session facts. Shared by the full parser
 * and the incremental reader so that both produce identical messages.
 *
 * Kept: user text (typed prompts, `[image]` placeholders, prompts queued while the agent worked —
 * `attachment` records of type `queued_command`), assistant text, API error replies
 * (`isApiErrorMessage`: what the user saw as the answer), tool calls and results
 * (one line each, see tool-lines), compact summaries (`isCompactSummary`, or a user text starting
 * with "This session is being continued from a previous conversation") as kind `summary`,
 * `summary` records as kind `summary` (and as the title when no other title exists),
 * `custom-title` / `ai-title` records as kind `title` (a repeated identical title is emitted once).
 *
 * Dropped (documented noise): `isMeta` user records (injected by the harness), `thinking` and
 * `redacted_thinking` blocks (model scratch work, not said; often signed/encrypted), synthetic
 * assistant records other than API errors (`model: "<synthetic>"`), every `system` record
 * (`turn_duration`, `local_command`, `api_error`, `compact_boundary`, …) and the other metadata
 * records of {@link CLAUDE_METADATA_TYPES} (`progress`, `attachment`, `mode`, `permission-mode`,
 * `file-history-snapshot`, `queue-operation`, `last-prompt`, …), plus the tags and lines listed in
 * the noise module. Unknown record types are skipped with one counted warning per type (summed
 * per run by the miner); if they carry a uuid they still link the tree.
 */
import type { JsonlRecord } from './jsonl.js';
import { stripNoise, taskNotifications } from './noise.js';
import type { ThreadNode } from './claude-thread.js';
import { renderToolResult, renderToolUse, toolResultText, type ToolLineOptions } from './tool-lines.js';
import type { ConvoMessage } from './types.js';
import { isObj, normIso, shortHash, str, type Json, type Warnings } from './util.js';

/** Session facts gathered while scanning (first value wins, except `version` and `model`: last). */
export interface ClaudeFacts {
  sessionId: string | null;
  cwd: string | null;
  gitBranch: string | null;
  version: string | null;
  model: string | null;
  agentId: string | null;
  slug: string | null;
  agentName: string | null;
  customTitle: string | null;
  aiTitle: string | null;
  summaryTitle: string | null;
  firstTimestamp: string | null;
}

/** Mutable scan state carried across calls (serialised by the incremental cursor). */
export interface ScanState {
  facts: ClaudeFacts;
  /**
   * Hash (`shortHash`) of the last emitted title message. Hashes, not texts: the incremental
   * cursor is persisted, and persisted bookkeeping must hold no (unredacted) conversation text.
   */
  lastTitleHash: string | null;
  /** Hashes (`shortHash`) of the summary texts already emitted (see `lastTitleHash`). */
  summariesSeen: Set<string>;
}

/** A scanned tree node with its record's messages and its thread group. */
export interface ScannedNode {
  node: ThreadNode;
  msgs: ConvoMessage[];
  /** `main`, or `agent-<id>` for sidechain (subagent) records. */
  group: string;
}

/** A message that is not part of the tree (titles, summary records), placed by line. */
export interface LooseItem {
  line: number;
  msg: ConvoMessage;
}

/** Fresh scan state. */
export function newScanState(): ScanState {
  return {
    facts: {
      sessionId: null,
      cwd: null,
      gitBranch: null,
      version: null,
      model: null,
      agentId: null,
      slug: null,
      agentName: null,
      customTitle: null,
      aiTitle: null,
      summaryTitle: null,
      firstTimestamp: null,
    },
    lastTitleHash: null,
    summariesSeen: new Set(),
  };
}

/**
 * Record types of current and past Claude Code versions that carry no conversation text (or only
 * text stored elsewhere: `last-prompt` repeats a prompt, `queue-operation` the queued prompt that an
 * `attachment` of type `queued_command` carries). They still link the tree when they have a uuid.
 */
export const CLAUDE_METADATA_TYPES: ReadonlySet<string> = new Set([
  'file-history-snapshot',
  'queue-operation',
  'progress',
  'system',
  'last-prompt',
  'agent-name',
  'agent-color',
  'agent-setting',
  'attachment',
  'permission-mode',
  'mode',
  'tag',
  'pr-link',
  'worktree-state',
  'cost-state',
  'attribution-snapshot',
  'speculation-accept',
  'content-replacement',
  'marble-origami-commit',
  'marble-origami-snapshot',
]);
const SILENT = CLAUDE_METADATA_TYPES;
const CONTINUED = 'This session is being continued from a previous conversation';

/** The group key of a record (`main` or `agent-<id>`). `fileAgent` is the id from an `agent-<id>.jsonl` name. */
function groupOf(rec: Json, fileAgent: string | null): string {
  if (rec.isSidechain !== true) return 'main';
  return `agent-${str(rec.agentId) ?? fileAgent ?? 'sidechain'}`;
}

function push(out: ConvoMessage[], m: ConvoMessage): void {
  const prev = out[out.length - 1];
  if (prev && prev.kind === m.kind && prev.role === m.role) prev.text += `\n${m.text}`;
  else out.push(m);
}

/** The messages of one user/assistant record (possibly none). */
function recordMessages(rec: Json, line: number, o: ToolLineOptions): ConvoMessage[] {
  const msg = isObj(rec.message) ? rec.message : undefined;
  const timestamp = normIso(rec.timestamp);
  const uuid = str(rec.uuid);
  const base = { timestamp, line, ...(uuid ? { uuid } : {}) };
  const out: ConvoMessage[] = [];
  const content: unknown = msg ? msg.content : rec.content;
  if (rec.type === 'assistant') {
    // Synthetic replies: an API error is what the user saw as the answer (kept); others
    // ("No response requested.") are harness filler.
    if (msg?.model === '<synthetic>' || rec.isApiErrorMessage === true) {
      if (rec.isApiErrorMessage !== true) return out;
    }
    const blocks =
      typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : [];
    for (const b of blocks) {
      if (!isObj(b)) continue;
      if (b.type === 'text' && typeof b.text === 'string') {
        const t = b.text.trim();
        if (t) push(out, { ...base, role: 'assistant', speaker: 'assistant', kind: 'message', text: t });
      } else if (b.type === 'tool_use' || b.type === 'server_tool_use') {
        const line1 = renderToolUse(str(b.name) ?? 'tool', b.input, o);
        push(out, { ...base, role: 'assistant', speaker: 'assistant', kind: 'tool', text: line1 });
      } else if (b.type === 'image') {
        push(out, { ...base, role: 'assistant', speaker: 'assistant', kind: 'message', text: '[image]' });
      } else if (typeof b.type === 'string' && b.type.endsWith('_tool_result')) {
        const r = renderToolResult(toolResultText(b.content), false, o);
        if (r) push(out, { ...base, role: 'tool', speaker: 'tool', kind: 'tool', text: r });
      }
      // thinking / redacted_thinking: skipped (see module comment)
    }
    return out;
  }
  // user
  if (rec.isMeta === true) return out;
  const summary = rec.isCompactSummary === true;
  const blocks =
    typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : [];
  for (const b of blocks) {
    if (!isObj(b)) continue;
    if (b.type === 'text' && typeof b.text === 'string') {
      if (summary || b.text.startsWith(CONTINUED)) {
        const t = b.text.trim();
        if (t) push(out, { ...base, role: 'system', speaker: 'summary', kind: 'summary', text: t });
        continue;
      }
      const t = stripNoise(b.text);
      if (t) push(out, { ...base, role: 'user', speaker: 'user', kind: 'message', text: t });
      for (const n of taskNotifications(b.text)) {
        const r = renderToolResult(n.text, n.failed, o);
        if (r) push(out, { ...base, role: 'tool', speaker: 'tool', kind: 'tool', text: r });
      }
    } else if (b.type === 'image') {
      push(out, { ...base, role: 'user', speaker: 'user', kind: 'message', text: '[image]' });
    } else if (b.type === 'document') {
      push(out, { ...base, role: 'user', speaker: 'user', kind: 'message', text: '[document]' });
    } else if (b.type === 'tool_result') {
      const r = renderToolResult(toolResultText(b.content), b.is_error === true, o);
      if (r) push(out, { ...base, role: 'tool', speaker: 'tool', kind: 'tool', text: r });
    }
  }
  return out;
}

function toolIds(rec: Json): { tu?: string[]; tr?: string[]; id?: string } {
  const msg = isObj(rec.message) ? rec.message : undefined;
  const content = msg?.content;
  const out: { tu?: string[]; tr?: string[]; id?: string } = {};
  if (rec.type === 'assistant' && str(msg?.id)) out.id = str(msg?.id)!;
  if (!Array.isArray(content)) return out;
  const tu: string[] = [];
  const tr: string[] = [];
  let other = false;
  for (const b of content) {
    if (!isObj(b)) continue;
    if (b.type === 'tool_use' && str(b.id)) tu.push(str(b.id)!);
    else if (b.type === 'tool_result' && str(b.tool_use_id)) tr.push(str(b.tool_use_id)!);
    else other = true;
  }
  if (tu.length) out.tu = tu;
  if (tr.length && !other) out.tr = tr;
  return out;
}

function title(text: string, line: number, rec: Json, st: ScanState, items: LooseItem[]): void {
  const t = text.trim();
  if (!t) return;
  const h = shortHash(t);
  if (h === st.lastTitleHash) return;
  st.lastTitleHash = h;
  items.push({
    line,
    msg: { role: 'system', speaker: 'title', kind: 'title', text: t, timestamp: normIso(rec.timestamp), line },
  });
}

/**
 * Scans records in line order: updates `st` (facts, titles), returns tree nodes with their
 * messages and the loose title/summary items.
 */
export function scanRecords(
  records: readonly JsonlRecord[],
  st: ScanState,
  o: Omit<ToolLineOptions, 'cwd'>,
  fileAgent: string | null,
  w: Warnings,
): { nodes: ScannedNode[]; items: LooseItem[] } {
  const out = { nodes: [] as ScannedNode[], items: [] as LooseItem[] };
  for (const { line, rec } of records) scanRecord(line, rec, st, o, fileAgent, w, out);
  return out;
}

/** Scans one record into `out` (see {@link scanRecords}). */
export function scanRecord(
  line: number,
  rec: Json,
  st: ScanState,
  o: Omit<ToolLineOptions, 'cwd'>,
  fileAgent: string | null,
  w: Warnings,
  out: { nodes: ScannedNode[]; items: LooseItem[] },
): void {
  const f = st.facts;
  const { nodes, items } = out;
  const type = str(rec.type) ?? '';
  f.sessionId ??= str(rec.sessionId) ?? null;
  f.cwd ??= str(rec.cwd) ?? null;
  f.gitBranch ??= str(rec.gitBranch) ?? null;
  f.slug ??= str(rec.slug) ?? null;
  f.agentId ??= str(rec.agentId) ?? null;
  if (str(rec.version)) f.version = str(rec.version)!;
  if (type === 'custom-title' && str(rec.customTitle)) {
    f.customTitle = str(rec.customTitle)!.trim();
    title(f.customTitle, line, rec, st, items);
    return;
  }
  if (type === 'ai-title' && str(rec.aiTitle)) {
    f.aiTitle = str(rec.aiTitle)!.trim();
    title(f.aiTitle, line, rec, st, items);
    return;
  }
  if (type === 'agent-name') f.agentName = str(rec.agentName) ?? f.agentName;
  if (type === 'summary') {
    const s = str(rec.summary)?.trim();
    if (s) {
      f.summaryTitle = s;
      const h = shortHash(s);
      if (!st.summariesSeen.has(h)) {
        st.summariesSeen.add(h);
        items.push({
          line,
          msg: {
            role: 'system',
            speaker: 'summary',
            kind: 'summary',
            text: s,
            timestamp: normIso(rec.timestamp),
            line,
          },
        });
      }
    }
    return;
  }
  const uuid = str(rec.uuid);
  const queued = type === 'attachment' ? queuedPrompt(rec) : null;
  const isMsg = type === 'user' || type === 'assistant' || type === 'human' || queued !== null;
  if (!isMsg && !SILENT.has(type)) w.count(`unknown Claude Code record type ${JSON.stringify(type)} skipped`);
  if (!uuid) return;
  if (isMsg) f.firstTimestamp ??= normIso(rec.timestamp);
  const parent = str(rec.parentUuid) ?? str(rec.logicalParentUuid) ?? null;
  let msgs: ConvoMessage[] = [];
  if (isMsg) {
    const r =
      type === 'human'
        ? { ...rec, type: 'user' }
        : queued !== null
          ? { ...rec, type: 'user', message: { role: 'user', content: queued } }
          : rec;
    msgs = recordMessages(r, line, { ...o, cwd: f.cwd });
    if (type === 'assistant') {
      const model = isObj(rec.message) ? str(rec.message.model) : undefined;
      if (model && model !== '<synthetic>') f.model = model;
    }
  }
  const ids = isMsg ? toolIds(rec) : {};
  nodes.push({
    node: { u: uuid, p: parent, l: line, m: isMsg ? 1 : 0, c: msgs.length > 0 ? 1 : 0, ...ids },
    msgs,
    group: groupOf(rec, fileAgent),
  });
}

/**
 * The prompt of an `attachment` record of type `queued_command` that a person typed while the
 * agent was working (`commandMode` `prompt` or absent, origin not a task notification), else null.
 */
function queuedPrompt(rec: Json): string | null {
  const a = isObj(rec.attachment) ? rec.attachment : undefined;
  if (!a || a.type !== 'queued_command') return null;
  if (a.commandMode !== undefined && a.commandMode !== 'prompt') return null;
  if (isObj(a.origin) && a.origin.kind !== undefined && a.origin.kind !== 'human') return null;
  if (typeof a.prompt === 'string') return a.prompt.trim() ? a.prompt : null;
  if (Array.isArray(a.prompt)) {
    const t = a.prompt.map((b) => (isObj(b) && typeof b.text === 'string' ? b.text : '')).join('\n');
    return t.trim() ? t : null;
  }
  return null;
}

/** Merges thread messages (already in line order) with loose items by line. */
export function mergeByLine(thread: readonly ConvoMessage[], items: readonly LooseItem[]): ConvoMessage[] {
  if (items.length === 0) return [...thread];
  const out: ConvoMessage[] = [];
  let j = 0;
  for (const m of thread) {
    while (j < items.length && items[j]!.line < (m.line ?? 0)) out.push(items[j++]!.msg);
    out.push(m);
  }
  while (j < items.length) out.push(items[j++]!.msg);
  return out;
}

/** The conversation title: custom title, else AI title, else the last summary record. */
export function titleOf(f: ClaudeFacts): string | null {
  return f.customTitle ?? f.aiTitle ?? f.summaryTitle ?? null;
}
