/**
 * @module ingest/convos/exchanges
 * Chunking by exchange: the unit of a conversation drawer.
 *
 * Grouping (`Conversation.exchangeMode`):
 * - `user-turns` (agent logs): an exchange starts at a user message that follows anything but user
 *   messages; it holds that user turn (consecutive user messages) and everything after it — assistant
 *   text, tool calls and results — until the next user turn. Messages before the first user turn form
 *   exchange 0.
 * - `turn-pairs` (human chats): a turn is a run of messages by one speaker; an exchange is one turn
 *   plus the next speaker's turn.
 * - `messages` (prompt logs): every said message starts an exchange (tool lines stay with it).
 * In every mode, each `summary` or `title` message is an exchange of its own, placed before the
 * exchange during which it was written; that exchange goes on (metadata never splits a prompt from
 * its reply).
 *
 * Rendering (one documented form, newlines kept): each turn starts with `Speaker: ` on its first
 * line (`User`, `Assistant` for the role speakers, else the person's name) and a label is written
 * again only when the speaker changes; tool lines stand on their own lines — a call (`[Bash] …`)
 * carries its caller's label only when the caller is not already speaking, a result (`→ …`) is
 * never labelled and does not change the current speaker; summaries render as `Summary: …`,
 * titles as `Title: …`. The rendering is itself a valid `Name: text` chat log, e.g.
 * `User: run the tests\nAssistant: [Bash] npm test\n→ 3 passing\nAll green.`
 *
 * Long exchanges are split (see split) with every part keeping the exchange id; each part has its
 * own time (its first timestamped message) and line range (the messages it shows), and is cut so
 * that it starts with prose rather than a tool line whenever the text allows.
 */
import { splitRanges } from './split.js';
import type { ChunkOptions, Conversation, ConvoMessage, ExchangeChunk, ExchangeMode } from './types.js';

const LABELS: Record<string, string> = {
  user: 'User',
  assistant: 'Assistant',
  tool: 'Tool',
  summary: 'Summary',
  title: 'Title',
  note: 'Note',
};

/** The label a speaker is rendered with. */
function speakerLabel(speaker: string): string {
  return LABELS[speaker] ?? speaker;
}

/** A rendered exchange: its text, where each message's line(s) sit in it, and where tool lines start. */
interface Rendered {
  text: string;
  /** `[start, end)` of each rendered message in `text`, with the message's index. */
  spans: { start: number; end: number; i: number }[];
  /** Offsets in `text` where a tool-call or tool-result line starts. */
  toolStarts: Set<number>;
}

function render(messages: readonly ConvoMessage[]): Rendered {
  const out: string[] = [];
  const spans: Rendered['spans'] = [];
  const toolStarts = new Set<number>();
  let len = 0;
  let current: string | null = null;
  const emit = (s: string, i: number, tool: boolean) => {
    const start = out.length === 0 ? 0 : len + 1;
    if (tool) toolStarts.add(start);
    out.push(s);
    len = start + s.length;
    spans.push({ start, end: len, i });
  };
  messages.forEach((m, i) => {
    if (m.text.trim() === '') return;
    if (m.kind === 'tool' && m.role === 'tool') {
      emit(m.text, i, true);
      return;
    }
    if (m.kind === 'tool') {
      // a tool call: labelled only when its caller is not the current speaker
      const label = speakerLabel(m.speaker);
      emit(label === current ? m.text : `${label}: ${m.text}`, i, true);
      current = label;
      return;
    }
    const label = speakerLabel(m.speaker);
    if (label !== current || m.kind !== 'message') {
      emit(`${label}: ${m.text}`, i, false);
      current = m.kind === 'message' ? label : null;
    } else {
      emit(m.text, i, false);
    }
  });
  return { text: out.join('\n'), spans, toolStarts };
}

/** Renders messages as described in the module comment. */
export function renderMessages(messages: readonly ConvoMessage[]): string {
  return render(messages).text;
}

function isSolo(m: ConvoMessage): boolean {
  return m.kind === 'summary' || m.kind === 'title';
}

/** Groups messages into exchanges (see the module comment). Pure and left-to-right. */
export function groupExchanges(messages: readonly ConvoMessage[], mode: ExchangeMode): ConvoMessage[][] {
  const groups: ConvoMessage[][] = [];
  let cur: ConvoMessage[] | null = null;
  // user-turns: whether `cur` already holds a non-user message
  let replied = false;
  // turn-pairs: speakers of the turns in `cur`
  let turns = 0;
  let lastSpeaker: string | null = null;
  for (const m of messages) {
    if (isSolo(m)) {
      // A title or summary is an exchange of its own placed before the exchange it was written
      // during, which goes on: metadata never splits a prompt from its reply.
      groups.push([m]);
      continue;
    }
    if (mode === 'messages') {
      if (!cur || m.kind !== 'tool') {
        if (cur) groups.push(cur);
        cur = [];
      }
      cur.push(m);
    } else if (mode === 'user-turns') {
      const isUserTurn = m.role === 'user' && m.kind === 'message';
      if (!cur || (isUserTurn && replied)) {
        if (cur) groups.push(cur);
        cur = [];
        replied = false;
      }
      cur.push(m);
      if (!isUserTurn) replied = true;
    } else {
      const newTurn = m.kind !== 'tool' && m.speaker !== lastSpeaker;
      if (!cur || (newTurn && turns >= 2)) {
        if (cur) groups.push(cur);
        cur = [];
        turns = 0;
        lastSpeaker = null;
      }
      if (m.kind !== 'tool' && m.speaker !== lastSpeaker) {
        turns++;
        lastSpeaker = m.speaker;
      }
      cur.push(m);
    }
  }
  if (cur) groups.push(cur);
  return groups;
}

interface ResolvedChunk {
  maxChars: number;
  minChars: number;
}

function resolveChunk(o: ChunkOptions | undefined): ResolvedChunk {
  const maxChars = Math.min(1_000_000, Math.max(200, Math.floor(o?.maxChars ?? 1600)));
  const minChars = Math.min(Math.floor(maxChars / 2), Math.max(0, Math.floor(o?.minChars ?? 20)));
  return { maxChars, minChars };
}

/**
 * The chunks of one exchange (all parts), or [] for an exchange with no text. Each part carries
 * the time of its first message that has one and the source lines of the messages it shows; a
 * part is cut so that it starts with prose rather than a tool line when the text allows it.
 */
function renderExchange(
  conversationId: string,
  index: number,
  messages: readonly ConvoMessage[],
  opts?: ChunkOptions,
): ExchangeChunk[] {
  const o = resolveChunk(opts);
  const r = render(messages);
  const ranges = splitRanges(r.text, o.maxChars, o.minChars, r.toolStarts);
  if (ranges.length === 0) return [];
  const speakers: string[] = [];
  for (const m of messages) {
    if (m.kind === 'message' && !speakers.includes(m.speaker)) speakers.push(m.speaker);
  }
  const first = messages[0]!;
  const exchangeTime = first.timestamp ?? messages.find((m) => m.timestamp)?.timestamp ?? null;
  const firstUuid = messages.find((m) => m.uuid)?.uuid;
  const lastUuid = [...messages].reverse().find((m) => m.uuid)?.uuid;
  const kind: ExchangeChunk['kind'] =
    messages.length === 1 && isSolo(first) ? (first.kind as 'summary' | 'title') : 'exchange';
  return ranges.map(([a, b], part) => {
    const shown = r.spans.filter((s) => s.start < b && s.end > a).map((s) => messages[s.i]!);
    const lines = shown.map((m) => m.line).filter((l): l is number => l !== undefined);
    const timestamp = part === 0 ? exchangeTime : (shown.find((m) => m.timestamp)?.timestamp ?? exchangeTime);
    return {
      exchangeId: `${conversationId}:${index}`,
      exchangeIndex: index,
      part,
      parts: ranges.length,
      text: r.text.slice(a, b),
      speakers,
      timestamp,
      ...(firstUuid ? { firstUuid } : {}),
      ...(lastUuid ? { lastUuid } : {}),
      messageCount: messages.length,
      ...(lines.length ? { lineStart: Math.min(...lines), lineEnd: Math.max(...lines) } : {}),
      kind,
    };
  });
}

/** Every chunk of a conversation, in order (see the module comment). */
export function chunkExchanges(conv: Conversation, opts?: ChunkOptions): ExchangeChunk[] {
  const groups = groupExchanges(conv.messages, conv.exchangeMode);
  return groups.flatMap((g, i) => renderExchange(conv.id, i, g, opts));
}

/**
 * Cursor of incremental chunking of one conversation (plain JSON; store it with the source state).
 * The last exchange of what was read may still grow, so it stays **open**: its messages are kept
 * here and it is completed by later messages.
 */
export interface ExchangeCursor {
  v: 1;
  conversationId: string;
  mode: ExchangeMode;
  /** Index the open exchange has (= number of closed exchanges so far). */
  nextIndex: number;
  /** Messages of the open exchange. */
  open: ConvoMessage[];
}

/** A fresh cursor for a conversation. */
export function newExchangeCursor(conversationId: string, mode: ExchangeMode): ExchangeCursor {
  return { v: 1, conversationId, mode, nextIndex: 0, open: [] };
}

/** Result of {@link advanceExchanges}. */
interface ExchangeAdvance {
  /** Chunks of exchanges that can no longer change (a later exchange has started). */
  closed: ExchangeChunk[];
  /** Current chunks of the still-open last exchange (ids `${id}:${cursor.nextIndex}`); may grow. */
  open: ExchangeChunk[];
  cursor: ExchangeCursor;
}

/**
 * Feeds newly read messages to the chunker. Closed exchanges get the same ids and text as
 * `chunkExchanges` on the whole conversation would give them. With `flush`, the open exchange is
 * returned among `closed` and the cursor starts a fresh exchange (use at the true end of a
 * conversation only: a later message would then start a new exchange instead of extending it).
 */
export function advanceExchanges(
  cursor: ExchangeCursor,
  messages: readonly ConvoMessage[],
  opts?: ChunkOptions & { flush?: boolean },
): ExchangeAdvance {
  const all = [...cursor.open, ...messages];
  const groups = groupExchanges(all, cursor.mode);
  const closedGroups = opts?.flush ? groups : groups.slice(0, -1);
  let openGroup = opts?.flush ? [] : (groups[groups.length - 1] ?? []);
  // A trailing summary/title exchange cannot grow: close it now.
  if (openGroup.length === 1 && isSolo(openGroup[0]!)) {
    closedGroups.push(openGroup);
    openGroup = [];
  }
  const closed = closedGroups.flatMap((g, i) => renderExchange(cursor.conversationId, cursor.nextIndex + i, g, opts));
  const nextIndex = cursor.nextIndex + closedGroups.length;
  const open = openGroup.length ? renderExchange(cursor.conversationId, nextIndex, openGroup, opts) : [];
  return { closed, open, cursor: { ...cursor, nextIndex, open: openGroup } };
}
