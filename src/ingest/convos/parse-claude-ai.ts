/**
 * @module ingest/convos/parse-claude-ai
 * Claude.ai data export `conversations.json`: a list of conversations `{ uuid, name, created_at,
 * chat_messages: [{ uuid, sender: human|assistant, text, content: [blocks], created_at,
 * attachments, files }] }`. Also accepted: one such object, `{ conversations: [...] }`, and the
 * flat `{ messages: [{ role|sender, content|text }] }` shape (a single conversation).
 *
 * Text: `content` blocks when present (`text` kept, `tool_use` / `tool_result` as tool lines,
 * `thinking` skipped), else `text`. Attachments add a line `[attachment <file_name>] <first
 * toolResultChars characters of the extracted text>`; uploaded files without text add
 * `[file <file_name>]`. id = the conversation `uuid` (else a hash of the path and position).
 */
import { renderToolResult, renderToolUse, toolResultText } from './tool-lines.js';
import type { Conversation, ConvoMessage } from './types.js';
import {
  exportList,
  isObj,
  normIso,
  oneLine,
  shortHash,
  str,
  truncate,
  type Json,
  type Resolved,
  type Warnings,
} from './util.js';

function roleOf(v: unknown): 'user' | 'assistant' | 'system' {
  const r = typeof v === 'string' ? v.toLowerCase() : '';
  if (r === 'assistant' || r === 'claude' || r === 'ai' || r === 'model') return 'assistant';
  if (r === 'system') return 'system';
  return 'user';
}

function messageOf(m: Json, o: Resolved): ConvoMessage[] {
  const role = roleOf(m.sender ?? m.role);
  const timestamp = normIso(m.created_at ?? m.timestamp ?? m.create_time);
  const uuid = str(m.uuid) ?? str(m.id);
  const base = { timestamp, ...(uuid ? { uuid } : {}) };
  const out: ConvoMessage[] = [];
  const said: string[] = [];
  const flushSaid = () => {
    const t = said.join('\n').trim();
    said.length = 0;
    if (t) out.push({ ...base, role, speaker: role, kind: 'message', text: t });
  };
  const content = m.content;
  if (Array.isArray(content) && content.length > 0) {
    for (const b of content) {
      if (typeof b === 'string') said.push(b);
      else if (!isObj(b)) continue;
      else if (b.type === 'text' && typeof b.text === 'string') said.push(b.text);
      else if (b.type === 'tool_use') {
        flushSaid();
        out.push({
          ...base,
          role: 'assistant',
          speaker: 'assistant',
          kind: 'tool',
          text: renderToolUse(str(b.name) ?? 'tool', b.input, o),
        });
      } else if (b.type === 'tool_result') {
        flushSaid();
        const r = renderToolResult(toolResultText(b.content), b.is_error === true, o);
        if (r) out.push({ ...base, role: 'tool', speaker: 'tool', kind: 'tool', text: r });
      } else if (b.type === 'image') said.push('[image]');
    }
  } else if (typeof content === 'string') said.push(content);
  else if (typeof m.text === 'string') said.push(m.text);
  for (const a of Array.isArray(m.attachments) ? m.attachments : []) {
    if (!isObj(a)) continue;
    const name = str(a.file_name) ?? 'file';
    const body = str(a.extracted_content);
    said.push(
      body ? `[attachment ${name}] ${truncate(oneLine(body), o.toolResultChars)}`.trimEnd() : `[attachment ${name}]`,
    );
  }
  for (const f of Array.isArray(m.files) ? m.files : []) {
    if (isObj(f) && str(f.file_name)) said.push(`[file ${str(f.file_name)}]`);
  }
  flushSaid();
  return out;
}

function parseOne(c: Json, index: number, path: string, o: Resolved): Conversation | null {
  const list = Array.isArray(c.chat_messages) ? c.chat_messages : Array.isArray(c.messages) ? c.messages : null;
  if (!list) return null;
  const id = str(c.uuid) ?? str(c.id) ?? `claude-ai-${shortHash(`${path}#${index}`)}`;
  const messages = list.filter(isObj).flatMap((m) => messageOf(m, o));
  const meta: Record<string, unknown> = {};
  if (str(c.model)) meta.model = str(c.model);
  return {
    format: 'claude-ai',
    id,
    title: str(c.name)?.trim() || str(c.title)?.trim() || null,
    source: `${path}#${id}`,
    file: path,
    cwd: null,
    gitBranch: null,
    startedAt: normIso(c.created_at) ?? messages.find((m) => m.timestamp)?.timestamp ?? null,
    messages,
    exchangeMode: 'user-turns',
    meta,
  };
}

/** Parses a Claude.ai export (see the module comment for the accepted shapes). */
export function parseClaudeAi(path: string, content: string, o: Resolved, w: Warnings): Conversation[] {
  const out: Conversation[] = [];
  (exportList(content, w) ?? []).forEach((c, i) => {
    const conv = isObj(c) ? parseOne(c, i, path, o) : null;
    if (conv) out.push(conv);
    else w.add(`entry ${i} has no chat_messages/messages list, skipped`);
  });
  return out;
}
