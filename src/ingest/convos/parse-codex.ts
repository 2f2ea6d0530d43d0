/**
 * @module ingest/convos/parse-codex
 * OpenAI Codex CLI session logs (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`).
 *
 * Current shape: one `{ timestamp, type, payload }` per line with `type` = `session_meta` (payload
 * `id`, `cwd`, `cli_version`, `git.branch`, …), `response_item` (payload `message` with
 * `input_text`/`output_text` parts, `function_call` {name, arguments}, `function_call_output`,
 * `custom_tool_call` {name, input}, `custom_tool_call_output`, `local_shell_call` {action.command},
 * `reasoning`), `event_msg` (payload `user_message` {message}, `agent_message` {message},
 * `agent_reasoning`, `token_count`, …), `turn_context`, `compacted` {message}.
 * Older shape: a first line `{ id, timestamp, instructions }` then bare response items, plus
 * `{ record_type: "state" }` lines.
 *
 * Said text comes from `event_msg` user/agent messages (what the user saw) whenever the content holds
 * any `event_msg` record (Codex writes them every turn, so a slice of appended lines decides the
 * same way as the whole file); otherwise (older logs) from `response_item` messages, minus injected
 * context (`<environment_context>`, `<user_instructions>` — see noise). Tool calls and their outputs always come from
 * response items.
 * A command output's header (`Chunk ID`, `Wall time`, exit code, token count, `Output:`) is dropped
 * from its result line, the exit code marking an error, so the line shows the output itself.
 * Reasoning is skipped; `compacted` summaries become kind `summary`. Unknown types are counted.
 * id = `session_meta.id`, else the uuid in the file name, else a hash of the path.
 */
import { basename } from 'node:path';
import { parseJsonLines, splitLines } from './jsonl.js';
import { stripNoise } from './noise.js';
import { renderToolResult, renderToolUse } from './tool-lines.js';
import type { Conversation, ConvoMessage } from './types.js';
import { isObj, normIso, shortHash, str, textOf, tryJson, type Json, type Resolved, type Warnings } from './util.js';

const UUID_IN_NAME = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/i;
const KNOWN = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);

// The header Codex writes before a command's output (`Chunk ID: …`, `Wall time: …`, `Process exited
// with code N` or `Exit code: N`, `Original token count: …`, `Total output lines: …`, then `Output:`).
const EXEC_HEADER = new RegExp(
  String.raw`^(?:(?:Chunk ID|Wall time|Original token count|Total output lines): [^\n]*\n|` +
    String.raw`(?:Process exited with code|Exit code:) -?\d+\n)+Output:\n?`,
);
const EXIT_CODE = /^(?:Process exited with code|Exit code:) (-?\d+)$/m;

function outputText(v: unknown): { text: string; isError: boolean } {
  if (typeof v === 'string') {
    const h = EXEC_HEADER.exec(v);
    if (h) {
      const code = EXIT_CODE.exec(h[0])?.[1];
      return { text: v.slice(h[0].length), isError: code !== undefined && code !== '0' };
    }
    const j = tryJson(v);
    if (isObj(j) && typeof j.output === 'string') {
      const meta = isObj(j.metadata) ? j.metadata : {};
      return { text: j.output, isError: typeof meta.exit_code === 'number' && meta.exit_code !== 0 };
    }
    return { text: v, isError: false };
  }
  if (isObj(v) && typeof v.content === 'string') return { text: v.content, isError: v.success === false };
  return { text: textOf(v), isError: false };
}

/** Parses a Codex CLI rollout file into one conversation. */
export function parseCodex(path: string, content: string, o: Resolved, w: Warnings): Conversation[] {
  const records = parseJsonLines(splitLines(content), o.firstLine, w);
  let id: string | undefined;
  let cwd: string | null = null;
  let branch: string | null = null;
  let startedAt: string | null = null;
  const meta: Record<string, unknown> = {};
  // `itemText` marks response-item messages, used only when the file has no event messages.
  const items: { msg: ConvoMessage; itemText?: true }[] = [];
  let hasEventText = false;
  for (const { line, rec } of records) {
    let type = str(rec.type);
    let p: Json = isObj(rec.payload) ? rec.payload : rec;
    const timestamp = normIso(rec.timestamp ?? p.timestamp);
    if (!type && str(rec.id) && rec.instructions !== undefined) type = 'session_meta';
    else if (!isObj(rec.payload) && type && !KNOWN.has(type)) {
      // older shape: a bare response item
      p = rec;
      type = 'response_item';
    }
    if (rec.record_type !== undefined && !type) continue;
    const base = { timestamp, line };
    if (type === 'session_meta') {
      id ??= str(p.id);
      cwd ??= str(p.cwd) ?? null;
      startedAt ??= normIso(p.timestamp) ?? timestamp;
      const git = isObj(p.git) ? p.git : {};
      branch ??= str(git.branch) ?? null;
      if (str(p.cli_version)) meta.version = str(p.cli_version);
      if (str(p.originator)) meta.originator = str(p.originator);
      if (str(git.repository_url)) meta.repositoryUrl = str(git.repository_url);
      continue;
    }
    if (type === 'turn_context') {
      if (str(p.model)) meta.model = str(p.model);
      cwd ??= str(p.cwd) ?? null;
      continue;
    }
    if (type === 'compacted') {
      const t = (str(p.message) ?? '').trim();
      if (t) items.push({ msg: { ...base, role: 'system', speaker: 'summary', kind: 'summary', text: t } });
      continue;
    }
    if (type === 'event_msg') {
      hasEventText = true;
      const et = str(p.type);
      if (et === 'user_message' || et === 'agent_message') {
        const t = et === 'user_message' ? stripNoise(str(p.message) ?? '') : (str(p.message) ?? '').trim();
        if (t) {
          const role = et === 'user_message' ? 'user' : 'assistant';
          items.push({ msg: { ...base, role, speaker: role, kind: 'message', text: t } });
        }
      }
      continue;
    }
    if (type !== 'response_item') {
      w.count(`unknown Codex record type ${JSON.stringify(type ?? null)} skipped`);
      continue;
    }
    const it = str(p.type);
    if (it === 'message') {
      const role = str(p.role);
      if (role !== 'user' && role !== 'assistant') continue; // developer/system prompts
      const raw = textOf(p.content);
      const t = role === 'user' ? stripNoise(raw) : raw.trim();
      if (t) items.push({ msg: { ...base, role, speaker: role, kind: 'message', text: t }, itemText: true });
    } else if (it === 'function_call' || it === 'custom_tool_call') {
      const name = str(p.name) ?? 'tool';
      items.push({
        msg: {
          ...base,
          role: 'assistant',
          speaker: 'assistant',
          kind: 'tool',
          text: renderToolUse(name, p.arguments ?? p.input, o),
        },
      });
    } else if (it === 'local_shell_call') {
      const action = isObj(p.action) ? p.action : {};
      items.push({
        msg: {
          ...base,
          role: 'assistant',
          speaker: 'assistant',
          kind: 'tool',
          text: renderToolUse('local_shell', action, o),
        },
      });
    } else if (it === 'function_call_output' || it === 'custom_tool_call_output') {
      const { text, isError } = outputText(p.output);
      const r = renderToolResult(text, isError, o);
      if (r) items.push({ msg: { ...base, role: 'tool', speaker: 'tool', kind: 'tool', text: r } });
    }
    // reasoning and other items: skipped
  }
  // Said text: event messages when present, else response-item messages.
  const messages = items.filter((x) => !(hasEventText && x.itemText)).map((x) => x.msg);
  const fileUuid = UUID_IN_NAME.exec(basename(path))?.[1];
  const convId = id ?? fileUuid ?? `codex-${shortHash(path)}`;
  meta.sessionId = convId;
  return [
    {
      format: 'codex',
      id: convId,
      title: null,
      source: path,
      file: path,
      cwd,
      gitBranch: branch,
      startedAt: startedAt ?? messages.find((m) => m.timestamp)?.timestamp ?? null,
      messages,
      exchangeMode: 'user-turns',
      meta,
    },
  ];
}
