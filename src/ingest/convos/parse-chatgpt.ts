/**
 * @module ingest/convos/parse-chatgpt
 * ChatGPT data export `conversations.json`: a JSON array of **all** conversations (a single
 * conversation object is accepted too).
 *
 * Each conversation is a tree in `mapping` (node id → `{ message, parent, children }`). The active
 * branch is the path from `current_node` up through `parent` (falling back to the latest leaf by
 * `create_time` when `current_node` is missing) — not "the first child", which would keep the
 * oldest edit. Message nodes off that path (edited prompts, regenerated answers) are archived as
 * `${id}~branch-N` conversations, one per abandoned leaf, each walking up until it meets the active
 * path or an earlier branch (turn off with `includeBranches: false`).
 *
 * Messages: roles user / assistant / system / tool (tool speaker = the tool's name, e.g. `python`,
 * `browser`); `content.parts` strings are kept verbatim, other parts become placeholders (`[image]`,
 * `[audio]`, `[file]`); `code` / `execution_output` content and assistant messages addressed to a
 * tool (`recipient` ≠ `all`) become tool lines; hidden system messages
 * (`is_visually_hidden_from_conversation`), empty messages, model reasoning (`thoughts`,
 * `reasoning_recap`) and custom-instruction context (`user_editable_context`) are skipped.
 * `create_time` (seconds) → ISO. id = `conversation_id` ?? `id`; `meta.model` = `default_model_slug`.
 */
import { abandonedBranches, activePath, type ThreadNode } from './claude-thread.js';
import type { Conversation, ConvoMessage } from './types.js';
import {
  exportList,
  isObj,
  isoFromSeconds,
  oneLine,
  shortHash,
  str,
  truncate,
  type Json,
  type Resolved,
  type Warnings,
} from './util.js';

function partText(p: unknown): string {
  if (typeof p === 'string') return p;
  if (!isObj(p)) return '';
  const ct = str(p.content_type) ?? '';
  if (ct.includes('image')) return '[image]';
  if (ct.includes('audio')) return '[audio]';
  if (typeof p.text === 'string') return p.text;
  return '[file]';
}

/** The messages of one mapping node (possibly none). */
function nodeMessages(msg: Json, o: Resolved): ConvoMessage[] {
  const author = isObj(msg.author) ? msg.author : {};
  const role = str(author.role) ?? 'user';
  const meta = isObj(msg.metadata) ? msg.metadata : {};
  if (meta.is_visually_hidden_from_conversation === true) return [];
  const content = isObj(msg.content) ? msg.content : {};
  const ct = str(content.content_type) ?? 'text';
  if (
    ct === 'thoughts' ||
    ct === 'reasoning_recap' ||
    ct === 'user_editable_context' ||
    ct === 'model_editable_context'
  )
    return [];
  let text = '';
  if (Array.isArray(content.parts))
    text = content.parts
      .map(partText)
      .filter((t) => t !== '')
      .join('\n');
  else if (typeof content.text === 'string') text = content.text;
  else if (typeof content.result === 'string') text = content.result;
  text = text.trim();
  if (!text) return [];
  const timestamp = isoFromSeconds(typeof msg.create_time === 'number' ? msg.create_time : undefined);
  const uuid = str(msg.id);
  const base = { timestamp, ...(uuid ? { uuid } : {}) };
  const recipient = str(msg.recipient) ?? 'all';
  if (role === 'tool') {
    const name = str(author.name) ?? 'tool';
    const r = o.toolResultChars > 0 ? `→ ${truncate(oneLine(text), o.toolResultChars)}` : '';
    return r ? [{ ...base, role: 'tool', speaker: name, kind: 'tool', text: r }] : [];
  }
  if (role === 'assistant' && (recipient !== 'all' || ct === 'code')) {
    return [
      {
        ...base,
        role: 'assistant',
        speaker: 'assistant',
        kind: 'tool',
        text: `[${recipient}] ${truncate(oneLine(text), o.toolInputChars)}`,
      },
    ];
  }
  if (role === 'system') return [{ ...base, role: 'system', speaker: 'system', kind: 'message', text }];
  if (role === 'assistant') return [{ ...base, role: 'assistant', speaker: 'assistant', kind: 'message', text }];
  return [{ ...base, role: 'user', speaker: 'user', kind: 'message', text }];
}

function parseOne(conv: Json, index: number, path: string, o: Resolved, w: Warnings): Conversation[] {
  const mapping = isObj(conv.mapping) ? conv.mapping : undefined;
  const id = str(conv.conversation_id) ?? str(conv.id) ?? `chatgpt-${shortHash(`${path}#${index}`)}`;
  const title = str(conv.title)?.trim() ?? null;
  if (!mapping) {
    w.add(`conversation ${index} (${id}): no \`mapping\`, skipped`);
    return [];
  }
  const nodes: ThreadNode[] = [];
  const byId = new Map<string, ThreadNode>();
  const msgs = new Map<string, ConvoMessage[]>();
  const times = new Map<string, number>();
  let order = 0;
  for (const [key, raw] of Object.entries(mapping)) {
    if (!isObj(raw)) continue;
    const nid = str(raw.id) ?? key;
    const m = isObj(raw.message) ? raw.message : undefined;
    const list = m ? nodeMessages(m, o) : [];
    const n: ThreadNode = { u: nid, p: str(raw.parent) ?? null, l: ++order, m: 1, c: list.length ? 1 : 0 };
    nodes.push(n);
    byId.set(nid, n);
    msgs.set(nid, list);
    if (m && typeof m.create_time === 'number') times.set(nid, m.create_time);
  }
  // Line order for the tree helpers: by create_time, then mapping order (children after parents).
  const rank = (n: ThreadNode) => times.get(n.u) ?? 0;
  nodes.sort((a, b) => rank(a) - rank(b) || a.l - b.l);
  nodes.forEach((n, i) => (n.l = i + 1));
  let leaf = str(conv.current_node);
  if (!leaf || !byId.has(leaf)) {
    const parents = new Set(nodes.map((n) => n.p).filter((p): p is string => p !== null));
    leaf = [...nodes].reverse().find((n) => !parents.has(n.u))?.u;
    if (nodes.length) w.add(`conversation ${id}: no valid current_node, using the latest leaf`);
  }
  if (!leaf) return [];
  const { path: active } = activePath(byId, leaf);
  const pick = (list: readonly ThreadNode[]) => list.flatMap((n) => msgs.get(n.u) ?? []);
  const activeNodes = nodes.filter((n) => active.has(n.u));
  const messages = pick(activeNodes);
  const startedAt =
    isoFromSeconds(typeof conv.create_time === 'number' ? conv.create_time : undefined) ??
    messages.find((m) => m.timestamp)?.timestamp ??
    null;
  const meta: Record<string, unknown> = {};
  if (str(conv.default_model_slug)) meta.model = str(conv.default_model_slug);
  const main: Conversation = {
    format: 'chatgpt',
    id,
    title,
    source: `${path}#${id}`,
    file: path,
    cwd: null,
    gitBranch: null,
    startedAt,
    messages,
    exchangeMode: 'user-turns',
    meta,
  };
  const out = [main];
  const branches = abandonedBranches(nodes, byId, active).filter((b) => b.nodes.some((n) => n.c === 1));
  if (branches.length) main.meta.abandonedBranches = branches.length;
  if (!o.includeBranches) return out;
  branches.forEach((b, i) => {
    const bid = `${id}~branch-${i + 1}`;
    const bm = pick(b.nodes);
    out.push({
      ...main,
      id: bid,
      title: null,
      source: `${path}#${bid}`,
      messages: bm,
      startedAt: bm.find((m) => m.timestamp)?.timestamp ?? null,
      meta: { ...meta, branchOf: id, forkedFrom: b.forkedFrom },
    });
  });
  return out;
}

/** Parses a ChatGPT export (array of conversations, or one conversation object). */
export function parseChatGpt(path: string, content: string, o: Resolved, w: Warnings): Conversation[] {
  const out: Conversation[] = [];
  (exportList(content, w) ?? []).forEach((c, i) => {
    if (isObj(c)) out.push(...parseOne(c, i, path, o, w));
    else w.add(`entry ${i} is not a conversation object, skipped`);
  });
  return out;
}
