/**
 * @module context/compaction
 * The pure parts of compaction: where to cut a conversation (keep the recent turns verbatim,
 * never separate a `tool_use` from its `tool_result`), the archive port, and the summary message
 * that replaces the older part, with its references to persisted tool results.
 */
import type { AgentMessage } from '../providers/index.js';
import { blocksOf, preferredCuts, safeCuts } from './messages.js';

/** One message handed to the archive, with its sequence number in the session (0-based, never reused). */
export interface ArchivedMessage {
  seq: number;
  message: AgentMessage;
}

/** A batch handed to the archive port. */
export interface ArchiveBatch {
  /** The session the messages belong to. */
  sessionId: string;
  /**
   * Why they are archived: in the background after a turn (`turn`), before a compaction, before a
   * clear, or an explicit flush.
   */
  reason: 'turn' | 'compact' | 'clear' | 'flush';
  /** The messages, oldest first; each is archived once per session. */
  messages: ArchivedMessage[];
}

/**
 * The archive port: stores messages before they leave the context (for instance as palace drawers,
 * see `palaceArchiver`). It must resolve only once they are stored; a rejection aborts the
 * compaction or clear that asked for it, leaving the messages in place.
 */
export type Archiver = (batch: ArchiveBatch) => Promise<void>;

/** What one compaction did. */
export interface CompactionRecord {
  /** `manual` (`/compact`), or `auto` (the threshold was crossed). */
  mode: 'manual' | 'auto';
  /** The user's instructions, for a manual compaction that had some. */
  instructions?: string;
  /** Sequence numbers of the messages replaced this time (first and last, inclusive). */
  replaced: { from: number; to: number; count: number };
  /** Messages kept verbatim after the summary. */
  kept: number;
  /** Estimated context before and after, in (corrected) tokens. */
  tokensBefore: number;
  tokensAfter: number;
  /** Estimated size of the new summary, in tokens. */
  summaryTokens: number;
  /** Which summariser wrote it. */
  by: string;
  /** Persisted tool-result files the replaced messages referred to. */
  persistedPaths: string[];
  /** Wall time of the compaction, and of it the summariser's share, in ms. */
  durationMs: number;
  summariserMs: number;
}

/**
 * Where to cut `messages` so that about `keepTokens` (raw estimate, per message in `tokens`) stay
 * verbatim: the latest cut at a person's prompt that keeps at least `keepTokens`; when that would
 * keep more than twice as much, the latest safe cut that does; when no cut keeps enough, the last
 * safe cut (at least the final exchange stays). Returns 0 when nothing can be compacted.
 */
export function planCut(messages: readonly AgentMessage[], tokens: readonly number[], keepTokens: number): number {
  const safe = safeCuts(messages);
  if (safe.length === 0) return 0;
  const suffix: number[] = new Array<number>(messages.length + 1).fill(0);
  for (let i = messages.length - 1; i >= 0; i--) suffix[i] = suffix[i + 1]! + (tokens[i] ?? 0);
  const enough = (i: number) => suffix[i]! >= keepTokens;
  const latest = (cuts: number[]) => cuts.filter(enough).at(-1);
  const prompt = latest(preferredCuts(messages));
  const anySafe = latest(safe);
  if (prompt !== undefined && (anySafe === undefined || suffix[prompt]! <= 2 * Math.max(1, keepTokens))) return prompt;
  if (anySafe !== undefined) return anySafe;
  return safe.at(-1)!;
}

/** Tool-use ids answered by results in these messages. */
export function toolResultIds(messages: readonly AgentMessage[]): string[] {
  const out: string[] = [];
  for (const m of messages) for (const b of blocksOf(m)) if (b.type === 'tool_result') out.push(b.toolUseId);
  return out;
}

/** Most persisted paths listed in the summary message (newest kept). */
const MAX_LISTED_PATHS = 50;

/** The user message that stands for the compacted part of the conversation. */
export function summaryMessage(input: {
  summary: string;
  sessionId: string;
  upToSeq: number;
  compactions: number;
  persistedPaths: readonly string[];
  archived: boolean;
}): AgentMessage {
  const paths = input.persistedPaths.slice(-MAX_LISTED_PATHS);
  const omitted = input.persistedPaths.length - paths.length;
  const where = input.archived
    ? ` and archived verbatim in the palace (session ${input.sessionId})`
    : ' (no archive is configured)';
  const lines = [
    `<context-summary compactions="${input.compactions}">`,
    `This session continues an earlier conversation. Its first ${input.upToSeq + 1} messages were replaced by ` +
      `this summary${where}. The messages after it are verbatim.`,
    '',
    input.summary.trim(),
  ];
  if (paths.length) {
    lines.push('', 'Full tool outputs saved on disk (read them with the file tools when needed):');
    if (omitted) lines.push(`- … ${omitted} older files not listed`);
    for (const p of paths) lines.push(`- ${p}`);
  }
  lines.push('</context-summary>');
  return { role: 'user', content: lines.join('\n') };
}
