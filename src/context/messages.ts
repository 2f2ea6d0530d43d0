/**
 * @module context/messages
 * Small helpers over agent messages: their blocks, their tool calls and results, where a
 * conversation may be cut without separating a `tool_use` from its `tool_result`, and a plain-text
 * rendering for summaries and the palace archive.
 */
import type { AgentMessage, ContentBlock } from '../providers/index.js';

/** The blocks of a message (a plain-text message is one text block). */
export function blocksOf(message: AgentMessage): ContentBlock[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

/** True for a user turn typed by a person (text only, no tool results). */
function isUserPrompt(message: AgentMessage): boolean {
  return message.role === 'user' && blocksOf(message).every((b) => b.type === 'text');
}

/**
 * The indices `i` (0 < i < messages.length) where `messages.slice(i)` can stand alone: every
 * `tool_result` at or after `i` answers a `tool_use` at or after `i`, and every `tool_use` before
 * `i` is answered before `i`. Ascending. Index 0 is always safe and not listed.
 */
export function safeCuts(messages: readonly AgentMessage[]): number[] {
  // open[i]: tool uses opened before i and not yet answered before i.
  const out: number[] = [];
  const open = new Set<string>();
  for (let i = 0; i < messages.length; i++) {
    if (i > 0 && open.size === 0) out.push(i);
    for (const b of blocksOf(messages[i]!)) {
      if (b.type === 'tool_use') open.add(b.id);
      else if (b.type === 'tool_result') open.delete(b.toolUseId);
    }
  }
  // A result that answers nothing before it (orphan) cannot be detected here; such input is the
  // caller's, and cutting before it keeps it whole anyway.
  return out;
}

/**
 * Preferred cut points: safe cuts that start at a person's prompt, so that the kept part begins
 * with a whole exchange. Falls back to every safe cut when there are none.
 */
export function preferredCuts(messages: readonly AgentMessage[]): number[] {
  const safe = safeCuts(messages);
  const prompts = safe.filter((i) => isUserPrompt(messages[i]!));
  return prompts.length ? prompts : safe;
}

/** Shortens `s` to at most `max` characters, marking the cut with the number of characters left out. */
export function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  return `${s.slice(0, Math.max(0, max))}… [${s.length - max} more chars]`;
}

/**
 * A plain-text rendering of messages, one paragraph per block, prefixed by role: `User:`,
 * `Assistant:`, `Tool call name {json}`, `Tool result (id):`. Blocks longer than `maxBlockChars`
 * are clipped (default: never).
 */
export function renderTranscript(messages: readonly AgentMessage[], maxBlockChars = Infinity): string {
  const out: string[] = [];
  for (const m of messages) {
    for (const b of blocksOf(m)) {
      if (b.type === 'text') out.push(`${m.role === 'user' ? 'User' : 'Assistant'}: ${clip(b.text, maxBlockChars)}`);
      else if (b.type === 'tool_use') out.push(`Tool call ${b.name} ${clip(JSON.stringify(b.input), maxBlockChars)}`);
      else out.push(`Tool result${b.isError ? ' (error)' : ''}: ${clip(b.content, maxBlockChars)}`);
    }
  }
  return out.join('\n\n');
}
