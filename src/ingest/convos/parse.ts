/**
 * @module ingest/convos/parse
 * `parseConversations`: one entry point for every format. Never throws on bad input: malformed
 * lines, unknown record types and even a parser bug become warnings.
 */
import { DETECT_HEAD_CHARS, detectFormat } from './detect.js';
import { parseChatText } from './parse-chat-text.js';
import { parseChatGpt } from './parse-chatgpt.js';
import { parseClaudeAi } from './parse-claude-ai.js';
import { parseClaudeCode } from './parse-claude-code.js';
import { parseClaudeHistory } from './parse-claude-history.js';
import { parseCodex } from './parse-codex.js';
import { parseGemini } from './parse-gemini.js';
import { parseSlackDay } from './parse-slack.js';
import type { Conversation, ConvoFormat, ParseOptions, ParseResult } from './types.js';
import { resolveOptions, Warnings, type Resolved } from './util.js';

const PARSERS: Record<ConvoFormat, (path: string, content: string, o: Resolved, w: Warnings) => Conversation[]> = {
  'claude-code': parseClaudeCode,
  'claude-history': parseClaudeHistory,
  chatgpt: parseChatGpt,
  'claude-ai': parseClaudeAi,
  slack: parseSlackDay,
  codex: parseCodex,
  gemini: parseGemini,
  'chat-text': parseChatText,
};

/**
 * Parses a conversation file. `path` names the file (it goes into `source` and ids derived from
 * it); `content` is its text. The format is `opts.format` or detected from the path and the first
 * 64 KiB; an unrecognised file gives no conversations and one warning. Conversations without any
 * message are dropped.
 */
export function parseConversations(path: string, content: string, opts?: ParseOptions): ParseResult {
  const o = resolveOptions(opts);
  const w = new Warnings(o.maxWarnings);
  const text = content.charCodeAt(0) === 0xfeff ? content.slice(1) : content;
  const format = opts?.format ?? detectFormat(path, text.slice(0, DETECT_HEAD_CHARS));
  if (!format) return { conversations: [], warnings: [`${path}: not a recognised conversation format`] };
  let conversations: Conversation[] = [];
  try {
    conversations = PARSERS[format](path, text, o, w).filter((c) => c.messages.length > 0);
  } catch (e) {
    w.add(`${format} parser failed on ${path}: ${(e as Error)?.message ?? String(e)} — please report it`);
  }
  return { conversations, warnings: w.finish() };
}
