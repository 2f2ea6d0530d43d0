/**
 * @module ingest/convos/detect
 * Format detection from a path and the first ~64 KiB of a file.
 *
 * JSONL (`.jsonl`, or text whose first two lines are JSON objects): the first complete records
 * decide — `display` + numeric `timestamp` + `project`/`pastedContents` → claude-history; a
 * Claude Code record type (`user`, `assistant`, `summary`, `system`, `progress`,
 * `file-history-snapshot`, `custom-title`, …) with `uuid`/`sessionId`/`leafUuid`/`messageId` →
 * claude-code; `session_meta`/`response_item`/`event_msg`/`turn_context` records (or a first
 * `{id, timestamp, instructions}` line) → codex; `session_metadata` or `user`/`gemini`/`model`
 * records → gemini. JSONL is recognised by content too (two of the first lines are JSON objects),
 * whatever the name. When the head holds no complete line (a huge first line), the records after
 * that line decide, else key names anywhere in the line's head and tail
 * (`detectFormatPastHugeLine`; the miner reads them without holding the line).
 * JSON (`.json`, or text starting with `[`/`{`): `"mapping"` with `current_node`/`create_time` →
 * chatgpt; `"chat_messages"` or `sender: human` or `messages` with `role` → claude-ai; Gemini keys
 * (`"type": "gemini"`, `projectHash`, `[{"role": "model", "parts"`, `logs.json` with `messageId`)
 * → gemini; an array of `type: message` objects with a `ts` (any file name) → slack.
 * Text (`.txt`, `.md`, `.markdown`, `.log`, `.text`, `.chat`, or no extension): the chat rule of
 * chat-lines → chat-text. Anything else → null (a project file).
 */
import { basename, extname } from 'node:path';
import { looksLikeChat } from './chat-lines.js';
import { CLAUDE_METADATA_TYPES } from './claude-scan.js';
import type { ConvoFormat } from './types.js';
import { isObj, str, tryJson, type Json } from './util.js';
import { isConvoCompanion } from './companions.js';

// Asked of every walked file: in a leaf module, so that discovering unchanged files does not load the detectors.
export { isConvoCompanion, isSlackExportRoot } from './companions.js';

/** Bytes of the head given to `detectFormat`. */
export const DETECT_HEAD_CHARS = 65536;

const CC_TYPES = new Set(['user', 'assistant', 'summary', 'custom-title', 'ai-title', ...CLAUDE_METADATA_TYPES]);
const CODEX_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);
const TEXT_EXT = new Set(['.txt', '.md', '.markdown', '.log', '.text', '.chat', '']);

function jsonlFormat(rec: Json, index: number): ConvoFormat | null {
  const type = str(rec.type);
  if (
    typeof rec.display === 'string' &&
    typeof rec.timestamp === 'number' &&
    ('project' in rec || 'pastedContents' in rec)
  ) {
    return 'claude-history';
  }
  if (type && CODEX_TYPES.has(type) && ('payload' in rec || type === 'session_meta')) return 'codex';
  if (index === 0 && !type && str(rec.id) && 'instructions' in rec) return 'codex';
  if (type === 'session_metadata' || isObj(rec.session_metadata)) return 'gemini';
  if (
    type &&
    CC_TYPES.has(type) &&
    (str(rec.uuid) || str(rec.sessionId) || str(rec.leafUuid) || 'messageId' in rec || 'parentUuid' in rec)
  ) {
    return 'claude-code';
  }
  if (
    (type === 'gemini' || type === 'model' || type === 'user') &&
    ('content' in rec || 'parts' in rec) &&
    !('uuid' in rec)
  )
    return 'gemini';
  if (!type && str(rec.record_type)) return 'codex';
  return null;
}

/**
 * Format from key names alone, for a head holding no complete record (a huge first line): each key
 * is looked for anywhere in `text` (the line's head and tail), so key order does not matter.
 */
function jsonlByKeys(text: string): ConvoFormat | null {
  const has = (k: string) => text.includes(`"${k}"`);
  if (has('parentUuid') && (has('sessionId') || has('uuid'))) return 'claude-code';
  if (
    has('uuid') &&
    has('sessionId') &&
    /"type"\s*:\s*"(?:user|assistant|summary|system|progress|attachment)"/.test(text)
  )
    return 'claude-code';
  if (/"type"\s*:\s*"(?:session_meta|response_item|event_msg|turn_context)"/.test(text) && has('payload'))
    return 'codex';
  if (has('session_metadata')) return 'gemini';
  if (has('display') && has('pastedContents')) return 'claude-history';
  return null;
}

function jsonFormat(name: string, head: string): ConvoFormat | null {
  if (/"mapping"\s*:/.test(head) && /"(?:current_node|create_time)"\s*:/.test(head)) return 'chatgpt';
  if (/"type"\s*:\s*"gemini"/.test(head) || (/"projectHash"\s*:/.test(head) && /"messages"\s*:/.test(head)))
    return 'gemini';
  if (/^\s*\[\s*\{\s*"role"\s*:\s*"(?:user|model)"/.test(head) && /"parts"\s*:/.test(head)) return 'gemini';
  if (name === 'logs.json' && /"sessionId"\s*:/.test(head) && /"messageId"\s*:/.test(head)) return 'gemini';
  if (/"chat_messages"\s*:/.test(head) || /"sender"\s*:\s*"human"/.test(head)) return 'claude-ai';
  if (/^\s*\{\s*"messages"\s*:\s*\[/.test(head) && /"(?:role|sender)"\s*:\s*"(?:user|human|assistant)"/.test(head))
    return 'claude-ai';
  // Slack day files by content (any name): an array of message objects with a `ts` and `type: message`.
  if (/^\s*\[\s*\{/.test(head) && /"ts"\s*:\s*"\d+\.\d+"/.test(head) && /"type"\s*:\s*"message"/.test(head))
    return 'slack';
  if (/^\d{4}-\d{2}-\d{2}\.json$/.test(name) && /^\s*\[/.test(head) && /"ts"\s*:\s*"\d+\.\d+"/.test(head))
    return 'slack';
  return null;
}

/** True when at least two of the first lines of `t` are complete JSON objects (JSONL, whatever the file name). */
function looksJsonl(t: string): boolean {
  let objects = 0;
  let seen = 0;
  for (const l of t.split('\n', 24)) {
    const x = l.trim();
    if (!x) continue;
    if (++seen > 20) break;
    if (x.startsWith('{') && x.endsWith('}') && isObj(tryJson(x))) objects++;
    if (objects >= 2) return true;
  }
  return false;
}

/**
 * The conversation format of a file, from its path and the first ~64 KiB of its text, or null when
 * it is not a conversation (a project file). See the module comment for the rules.
 */
export function detectFormat(path: string, head: string): ConvoFormat | null {
  if (isConvoCompanion(path)) return null;
  const name = basename(path).toLowerCase();
  const ext = extname(name);
  const h = head.charCodeAt(0) === 0xfeff ? head.slice(1) : head;
  const t = h.trimStart();
  const firstNl = t.indexOf('\n');
  const jsonlLike =
    ext === '.jsonl' ||
    ext === '.ndjson' ||
    (t.startsWith('{') &&
      firstNl > 0 &&
      t
        .slice(firstNl + 1)
        .trimStart()
        .startsWith('{')) ||
    looksJsonl(t);
  if (jsonlLike) {
    const lines = t.split('\n');
    if (!h.endsWith('\n')) lines.pop(); // the last line may be cut by the 64 KiB window
    let seen = 0;
    for (const l of lines) {
      if (!l.trim()) continue;
      const rec = tryJson(l);
      if (!isObj(rec)) continue;
      const f = jsonlFormat(rec, seen++);
      if (f) return f;
      if (seen >= 50) break;
    }
    const byKeys = jsonlByKeys(t.slice(0, 65536));
    if (byKeys) return byKeys;
    if (ext === '.jsonl') return null;
  }
  if (ext === '.json' || t.startsWith('[') || t.startsWith('{')) {
    const f = jsonFormat(name, t);
    if (f || ext === '.json') return f;
  }
  if (TEXT_EXT.has(ext)) {
    const lines = t.split('\n');
    if (!h.endsWith('\n') && lines.length > 1) lines.pop();
    return looksLikeChat(lines).chat ? 'chat-text' : null;
  }
  return null;
}

/**
 * The format of a file whose first line is longer than the sniffed head (say a 50 MB record): the
 * complete records after that line decide (`rest`, the text following it), else the key names of
 * the first line's head and tail (`lineHead`, `lineTail`), in any order. Null when neither does.
 */
export function detectFormatPastHugeLine(
  path: string,
  lineHead: string,
  lineTail: string,
  rest: string,
): ConvoFormat | null {
  if (isConvoCompanion(path)) return null;
  const t = rest.trimStart();
  if (t.startsWith('{')) {
    const lines = t.split('\n');
    if (!rest.endsWith('\n')) lines.pop();
    let seen = 0;
    for (const l of lines) {
      const rec = l.trim() ? tryJson(l) : undefined;
      if (!isObj(rec)) continue;
      const f = jsonlFormat(rec, 1 + seen++);
      if (f) return f;
      if (seen >= 50) break;
    }
  }
  const h = lineHead.charCodeAt(0) === 0xfeff ? lineHead.slice(1) : lineHead;
  if (!h.trimStart().startsWith('{')) return null;
  return jsonlByKeys(`${h}\n${lineTail}`);
}
