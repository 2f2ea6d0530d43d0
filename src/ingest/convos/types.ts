/**
 * @module ingest/convos/types
 * The normalised conversation model every format parser produces, and the options shared by the
 * parsers. Pure data: no I/O happens in `ingest/convos`; callers read files and hand in text.
 */

/** Every conversation format Loci can read. */
export type ConvoFormat =
  'claude-code' | 'claude-history' | 'chatgpt' | 'claude-ai' | 'slack' | 'codex' | 'gemini' | 'chat-text';

/** All formats, in detection-priority order. */
export const CONVO_FORMATS: readonly ConvoFormat[] = [
  'claude-code',
  'claude-history',
  'codex',
  'gemini',
  'chatgpt',
  'claude-ai',
  'slack',
  'chat-text',
];

/** One message of a conversation, verbatim. */
export interface ConvoMessage {
  /** Who spoke, as a role. Tool results are `tool`; tool calls are `assistant` with kind `tool`. */
  role: 'user' | 'assistant' | 'system' | 'tool';
  /**
   * `user` / `assistant` / `tool` for agent logs; the person's name for human chats (Slack,
   * `Name: text` logs); `summary` / `title` for those kinds; `note` for preamble text of a chat log.
   */
  speaker: string;
  /** Verbatim text. Tool calls and results are rendered as short one-line strings (see tool-lines). */
  text: string;
  /** ISO-8601 (UTC, `Z`) when known, else null. Wall-clock times without a zone are taken as UTC. */
  timestamp: string | null;
  /** Record id when the format has one (Claude Code uuid, ChatGPT node id, Slack ts…). */
  uuid?: string;
  /** `message` (said), `tool` (tool call or result line), `summary` (compact summary), `title`. */
  kind: 'message' | 'tool' | 'summary' | 'title';
  /** 1-based line of the record in the parsed content (line-based formats only). */
  line?: number;
}

/**
 * How messages group into exchanges (see `chunkExchanges`):
 * - `user-turns`: agent logs — an exchange is one user turn plus everything until the next user turn;
 * - `turn-pairs`: human chats — an exchange is one speaker's turn plus the next speaker's turn;
 * - `messages`: prompt logs (Claude Code `history.jsonl`, Gemini `logs.json`) — each message is an
 *   exchange of its own (consecutive prompts are separate requests, not one turn).
 */
export type ExchangeMode = 'user-turns' | 'turn-pairs' | 'messages';

/** One conversation (a session, a thread, an abandoned branch, a chat log). */
export interface Conversation {
  format: ConvoFormat;
  /** Session / conversation id, stable across runs (derived from the content, or the path). */
  id: string;
  title: string | null;
  /** The file path; for a file holding several conversations `${path}#${conversationId}`. */
  source: string;
  /** The file the conversation was read from (always the plain path). */
  file: string;
  cwd: string | null;
  gitBranch: string | null;
  /** ISO-8601 of the first message (or the format's own start time). */
  startedAt: string | null;
  messages: ConvoMessage[];
  /** How to group messages into exchanges; chosen by the parser from the format and the speakers. */
  exchangeMode: ExchangeMode;
  /**
   * Format-specific facts: `sessionId`, `version`, `isSidechain`, `agentId`, `model`,
   * `abandonedBranches` (count), `branchOf` / `forkedFrom` (for `~branch-N` conversations),
   * `slackChannel`, `threadTs`, …
   */
  meta: Record<string, unknown>;
}

/** Options shared by every parser. */
export interface ParseOptions {
  /** Characters of a tool result kept after `→ ` (head). Default 300; 0 drops results; range 0–100000. */
  toolResultChars?: number;
  /** Characters of a tool call's rendered input. Default 200; range 20–100000. */
  toolInputChars?: number;
  /** Skip detection and parse as this format. Default: `detectFormat(path, head)`. */
  format?: ConvoFormat;
  /**
   * Claude Code tool-result sidecars: called with the file name under `<session>/tool-results/`
   * when a tool result says its output was saved there; return the file's text, or undefined when
   * it cannot be read (the inline preview is used then). Default: none.
   */
  resolveSidecar?: (name: string) => string | undefined;
  /** Slack: user id → display name (e.g. from `users.json`, see `slackUsersFromJson`). Default: none. */
  resolveSlackUser?: (id: string) => string | undefined;
  /**
   * Claude Code / ChatGPT: also return abandoned branches (rewinds, edits, regenerations) as
   * conversations `${id}~branch-N`. Default true.
   */
  includeBranches?: boolean;
  /** Line number of the first line of `content` (for content read from an offset). Default 1. */
  firstLine?: number;
  /** At most this many warnings are listed individually; the rest are counted. Default 50. */
  maxWarnings?: number;
}

/** What `parseConversations` returns. Parsers never throw on bad input; problems become warnings. */
export interface ParseResult {
  conversations: Conversation[];
  warnings: string[];
}

/** One chunk of an exchange, ready to become a drawer. */
export interface ExchangeChunk {
  /** Stable: `${conversation.id}:${exchangeIndex}`. Shared by every part of one exchange. */
  exchangeId: string;
  /** 0-based index of the exchange in its conversation. */
  exchangeIndex: number;
  /** 0-based part number when a long exchange is split. */
  part: number;
  /** Number of parts of this exchange (≥ 1). */
  parts: number;
  /** Verbatim rendering (see `renderMessages`): `Speaker: text` turns, tool lines unlabelled. */
  text: string;
  /** Distinct speakers of the exchange's said messages, in order of appearance. */
  speakers: string[];
  /**
   * Timestamp of this part's first timestamped message (part 0: the exchange's first message, or its first known one).
   */
  timestamp: string | null;
  firstUuid?: string;
  lastUuid?: string;
  /** Messages in the whole exchange (not per part). */
  messageCount: number;
  /** First / last source line of the messages this part shows, when known (line-based formats). */
  lineStart?: number;
  lineEnd?: number;
  /** `summary` / `title` for those single-message exchanges, else `exchange`. */
  kind: 'exchange' | 'summary' | 'title';
}

/** Options of `chunkExchanges` / `advanceExchanges`. */
export interface ChunkOptions {
  /** Longest part in characters before an exchange is split. Default 1600; range 200–1000000. */
  maxChars?: number;
  /**
   * Shortest tail part: a final part shorter than this is merged into the previous part. Exchanges
   * themselves are never dropped for being short (the archive is verbatim). Default 20; range 0–maxChars/2.
   */
  minChars?: number;
}
