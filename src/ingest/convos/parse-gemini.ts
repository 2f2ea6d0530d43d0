/**
 * @module ingest/convos/parse-gemini
 * Gemini CLI logs (`~/.gemini/tmp/<projectHash>/…`). Accepted shapes:
 * 1. a chat file `{ sessionId, projectHash, startTime, messages: [{ id, timestamp, type:
 *    user|gemini|model|info|error|warning, content (string or parts), toolCalls: [{ name, args,
 *    result, resultDisplay, status }], thoughts }] }`;
 * 2. JSONL: a `session_metadata` record (sessionId, projectHash, startTime) then one record per
 *    message with the same fields as in 1;
 * 3. an array of API contents `[{ role: user|model, parts: [{ text } | { functionCall } |
 *    { functionResponse }] }]` (checkpoints, saved chats);
 * 4. `logs.json`: an array of `{ sessionId, messageId, type: "user", message, timestamp }` — user
 *    prompts, one conversation per session, each prompt its own exchange (`messages` mode).
 *
 * `gemini`/`model` → assistant; `error` records that report an API error are kept as the reply the
 * user saw; other `error`, `info`/`warning` records and `thoughts` are skipped (status output, not
 * said). Tool calls → tool lines with their result. id = `sessionId`, else a hash of
 * the path; `meta.projectHash` is kept (Gemini stores no cwd).
 */
import { parseJsonLines, splitLines } from './jsonl.js';
import { renderToolResult, renderToolUse } from './tool-lines.js';
import type { Conversation, ConvoMessage } from './types.js';
import { isObj, normIso, shortHash, str, textOf, type Json, type Resolved, type Warnings } from './util.js';

function partsText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (!Array.isArray(v)) return textOf(v);
  return v
    .map((p) =>
      typeof p === 'string' ? p : isObj(p) && typeof p.text === 'string' && p.thought !== true ? p.text : '',
    )
    .filter(Boolean)
    .join('\n');
}

function resultText(call: Json): { text: string; isError: boolean } {
  const isError = call.status === 'error' || call.status === 'cancelled';
  if (typeof call.resultDisplay === 'string') return { text: call.resultDisplay, isError };
  const res = Array.isArray(call.result) ? call.result : call.result !== undefined ? [call.result] : [];
  const out: string[] = [];
  for (const r of res) {
    const fr = isObj(r) && isObj(r.functionResponse) ? r.functionResponse : r;
    const resp = isObj(fr) && isObj(fr.response) ? fr.response : fr;
    if (typeof resp === 'string') out.push(resp);
    else if (isObj(resp)) out.push(str(resp.output) ?? str(resp.error) ?? JSON.stringify(resp));
  }
  return { text: out.join('\n'), isError };
}

function messageRecord(m: Json, line: number | undefined, o: Resolved, w: Warnings): ConvoMessage[] {
  const type = str(m.type) ?? str(m.role) ?? '';
  const timestamp = normIso(m.timestamp);
  const uuid = str(m.id) ?? str(m.messageId);
  const base = { timestamp, ...(uuid ? { uuid } : {}), ...(line ? { line } : {}) };
  if (type === 'error') {
    // An API error is what the user saw as the reply (kept, as Claude Code's); other errors and
    // info/warning notices are CLI chatter (update checks, "Request cancelled.").
    const t = partsText(m.content ?? m.message ?? m.parts).trim();
    return /\bAPI Error\b/i.test(t)
      ? [{ ...base, role: 'assistant', speaker: 'assistant', kind: 'message', text: t }]
      : [];
  }
  if (type === 'info' || type === 'warning') return [];
  const role =
    type === 'user' ? 'user' : type === 'gemini' || type === 'model' || type === 'assistant' ? 'assistant' : null;
  if (!role) {
    w.count(`unknown Gemini message type ${JSON.stringify(type)} skipped`);
    return [];
  }
  const out: ConvoMessage[] = [];
  const text = partsText(m.content ?? m.message ?? m.parts).trim();
  if (text) out.push({ ...base, role, speaker: role, kind: 'message', text });
  // API-content parts: function calls and responses
  if (Array.isArray(m.parts)) {
    for (const p of m.parts) {
      if (!isObj(p)) continue;
      if (isObj(p.functionCall)) {
        out.push({
          ...base,
          role: 'assistant',
          speaker: 'assistant',
          kind: 'tool',
          text: renderToolUse(str(p.functionCall.name) ?? 'tool', p.functionCall.args, o),
        });
      } else if (isObj(p.functionResponse)) {
        const { text: t, isError } = resultText({ result: [p] });
        const r = renderToolResult(t, isError, o);
        if (r) out.push({ ...base, role: 'tool', speaker: 'tool', kind: 'tool', text: r });
      }
    }
  }
  for (const c of Array.isArray(m.toolCalls) ? m.toolCalls : []) {
    if (!isObj(c)) continue;
    out.push({
      ...base,
      role: 'assistant',
      speaker: 'assistant',
      kind: 'tool',
      text: renderToolUse(str(c.name) ?? 'tool', c.args, o),
    });
    const { text: t, isError } = resultText(c);
    const r = renderToolResult(t, isError, o);
    if (r) out.push({ ...base, role: 'tool', speaker: 'tool', kind: 'tool', text: r });
  }
  return out;
}

function conversation(
  path: string,
  id: string,
  messages: ConvoMessage[],
  meta: Record<string, unknown>,
  startedAt: string | null,
  multi: boolean,
  promptLog = false,
): Conversation {
  return {
    format: 'gemini',
    id,
    title: null,
    source: multi ? `${path}#${id}` : path,
    file: path,
    cwd: null,
    gitBranch: null,
    startedAt: startedAt ?? messages.find((m) => m.timestamp)?.timestamp ?? null,
    messages,
    exchangeMode: promptLog ? 'messages' : 'user-turns',
    meta,
  };
}

/** Parses a Gemini CLI chat/log file (see the module comment for the shapes). */
export function parseGemini(path: string, content: string, o: Resolved, w: Warnings): Conversation[] {
  const trimmed = content.trimStart();
  let data: unknown;
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    try {
      data = JSON.parse(content);
    } catch {
      data = undefined; // JSONL (or a truncated file): read line by line below
    }
  }
  if (Array.isArray(data)) {
    // logs.json: user prompts of several sessions
    if (data.some((r) => isObj(r) && str(r.sessionId) && typeof r.message === 'string')) {
      const bySession = new Map<string, ConvoMessage[]>();
      for (const r of data) {
        if (!isObj(r) || typeof r.message !== 'string') continue;
        const sid = str(r.sessionId) ?? 'unknown';
        const list = bySession.get(sid) ?? [];
        bySession.set(sid, list);
        list.push(...messageRecord({ ...r, type: str(r.type) ?? 'user' }, undefined, o, w));
      }
      return [...bySession].map(([sid, msgs]) => conversation(path, sid, msgs, { sessionId: sid }, null, true, true));
    }
    const msgs = data.filter(isObj).flatMap((r) => messageRecord(r, undefined, o, w));
    const id = `gemini-${shortHash(path)}`;
    return [conversation(path, id, msgs, {}, null, false)];
  }
  if (isObj(data) && Array.isArray(data.messages)) {
    const id = str(data.sessionId) ?? `gemini-${shortHash(path)}`;
    const meta: Record<string, unknown> = { sessionId: id };
    if (str(data.projectHash)) meta.projectHash = str(data.projectHash);
    const msgs = data.messages.filter(isObj).flatMap((r) => messageRecord(r, undefined, o, w));
    return [conversation(path, id, msgs, meta, normIso(data.startTime), false)];
  }
  // JSONL
  const records = parseJsonLines(splitLines(content), o.firstLine, w);
  let id: string | undefined;
  let startedAt: string | null = null;
  const meta: Record<string, unknown> = {};
  const msgs: ConvoMessage[] = [];
  for (const { line, rec } of records) {
    const type = str(rec.type);
    const sm = isObj(rec.session_metadata) ? rec.session_metadata : type === 'session_metadata' ? rec : undefined;
    if (sm) {
      id ??= str(sm.sessionId);
      startedAt ??= normIso(sm.startTime);
      if (str(sm.projectHash)) meta.projectHash = str(sm.projectHash);
      continue;
    }
    id ??= str(rec.sessionId);
    msgs.push(...messageRecord(rec, line, o, w));
  }
  const convId = id ?? `gemini-${shortHash(path)}`;
  meta.sessionId = convId;
  return [conversation(path, convId, msgs, meta, startedAt, false)];
}
