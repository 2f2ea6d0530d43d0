/**
 * @module ingest/convos-miner/drawers
 * Conversation chunks → drawers, and the redaction of everything that is stored.
 *
 * Drawer layout (one drawer per exchange part):
 * - id: `stableId('d', 'cv', source, conversation id, exchange index, part, content hash)` —
 *   deterministic, so two processes writing the same chunk produce one row, and content-addressed
 *   as every drawer id is (a re-read that changes an exchange's text — a rewind, other settings —
 *   gives a new id, never a stale text under an old id);
 * - wing: the forced wing, else the conversation cursor's wing (its project, see identity); room: the forced room, else
 *   the cursor's room (`roomForConversation`, computed once
 *   per conversation and kept, see `settleCursor`); hall: `classifyHall` of the stored text;
 * - chunkIndex: `slot × SLOT_STRIDE + n` with a running n per conversation (`neighbours()` /
 *   `search --context` then return the neighbouring exchanges of the same conversation);
 * - contentDate: the exchange's first timestamp; lineStart/lineEnd: its source lines;
 * - metadata: `sessionId`, `conversationId`, `exchangeId`, `part`, `parts`, `speakers`, `format`,
 *   and when known `title`, `cwd`, `gitBranch`, `branchOf`, `forkedFrom`, `agentId`, `kind`
 *   (`summary` / `title` exchanges);
 * - indexExtra: the conversation title (searchable, never shown).
 * Title and other header facts are those known when the drawer is stored (a growing transcript's
 * title may arrive later; earlier drawers keep what was known).
 *
 * The open last exchange of a growing transcript is stored at once (its chunk indices follow the
 * closed ones); the cursor keeps its drawer ids (`openIds`), and when the exchange grows the new
 * drawers are written and the old ones that no longer match are removed in the same transaction.
 *
 * Redaction (unless turned off) runs on every message **before** chunking — so a secret is never
 * split by a part boundary and the open exchange kept in the cursor holds no secret — and on
 * titles and the session facts kept in the cursor.
 */
import { sha256 } from '../../core/hash.js';
import type { DrawerInput } from '../../store/ports.js';
import { searchColumn } from '../../text/index.js';
import {
  advanceExchanges,
  classifyHall,
  roomForConversation,
  type ClaudeCodeThreadState,
  type Conversation,
  type ConvoMessage,
  type ExchangeChunk,
} from '../convos/index.js';
import { redactSecrets } from '../../redact/index.js';
import { conversationWing } from './identity.js';
import { SLOT_STRIDE, type ConvCursor, type ConvHead, type ConvoContext } from './types.js';

/** Counts redactions of one job. */
export interface Redactor {
  count: number;
  text(s: string): string;
}

/** A redactor honouring `ctx.redact`. */
export function redactor(ctx: ConvoContext): Redactor {
  const r: Redactor = {
    count: 0,
    text(s) {
      if (!ctx.redact || s === '') return s;
      const out = redactSecrets(s);
      r.count += out.count;
      return out.text;
    },
  };
  return r;
}

/** The messages with redacted text (new objects only where something changed). */
function redactMessages(msgs: readonly ConvoMessage[], red: Redactor): ConvoMessage[] {
  return msgs.map((m) => {
    const text = red.text(m.text);
    return text === m.text ? m : { ...m, text };
  });
}

/** Redacts a conversation's messages and title in place of a copy. */
export function redactConversation(conv: Conversation, red: Redactor): Conversation {
  return {
    ...conv,
    title: conv.title === null ? null : red.text(conv.title),
    messages: redactMessages(conv.messages, red),
  };
}

/** The Claude Code cursor with its text facts (titles, cwd…) redacted, for storage. */
export function redactThreadState(st: ClaudeCodeThreadState, ctx: ConvoContext): ClaudeCodeThreadState {
  if (!ctx.redact) return st;
  const facts = { ...st.facts };
  for (const k of Object.keys(facts) as (keyof typeof facts)[]) {
    const v = facts[k];
    if (typeof v === 'string') facts[k] = redactSecrets(v).text;
  }
  return { ...st, facts };
}

const HEAD_META = ['sessionId', 'branchOf', 'forkedFrom', 'agentId', 'slackChannel', 'threadTs'] as const;

/** The header facts drawers carry, from a (redacted) conversation. */
function headOf(conv: Conversation): ConvHead {
  const meta: Record<string, unknown> = {};
  for (const k of HEAD_META) if (conv.meta[k] !== undefined && conv.meta[k] !== null) meta[k] = conv.meta[k];
  return { format: conv.format, title: conv.title, cwd: conv.cwd, gitBranch: conv.gitBranch, meta };
}

/** A fresh cursor for a conversation; wing and room are settled when its first drawers are made. */
export function newCursor(conv: Conversation, slot: number): ConvCursor {
  return {
    id: conv.id,
    head: headOf(conv),
    slot,
    next: 0,
    room: null,
    wing: null,
    ex: { v: 1, conversationId: conv.id, mode: conv.exchangeMode, nextIndex: 0, open: [] },
  };
}

/** `roomForConversation` over the cursor's header and `messages` (the title only for whole reads). */
function roomOf(cur: ConvCursor, messages: readonly ConvoMessage[], whole: boolean): string {
  const { format, cwd, gitBranch, title } = cur.head;
  return roomForConversation({
    format,
    id: cur.id,
    title: whole ? title : null,
    source: '',
    file: '',
    cwd,
    gitBranch,
    startedAt: null,
    messages: [...messages],
    exchangeMode: cur.ex.mode,
    meta: {},
  });
}

/**
 * Refreshes the cursor's header from the newest read (a title may arrive late; facts missing from
 * an appended slice are kept) and settles its wing and, once a user message is known (or drawers
 * are due: `force`), its room. `conv.messages` must hold what is known so far (redacted).
 *
 * The room of a growing transcript (`whole` false) ignores the title, which often arrives after
 * the first exchanges: the room then depends only on the first user message and the cwd, so an
 * incremental read and a full read of the final file agree.
 */
function settleCursor(
  cur: ConvCursor,
  conv: Conversation,
  ctx: ConvoContext,
  o: { whole: boolean; force: boolean; source: string },
): void {
  const h = headOf(conv);
  cur.head = {
    format: h.format,
    title: h.title ?? cur.head.title,
    cwd: h.cwd ?? cur.head.cwd,
    gitBranch: h.gitBranch ?? cur.head.gitBranch,
    meta: { ...cur.head.meta, ...h.meta },
  };
  if (cur.wing === null)
    cur.wing =
      ctx.wing ??
      conversationWing({ cwd: cur.head.cwd, format: cur.head.format, file: o.source, rootProject: ctx.rootProject });
  if (cur.room !== null) return;
  if (ctx.room !== null) {
    cur.room = ctx.room;
    return;
  }
  const hasUser = conv.messages.some((m) => m.kind === 'message' && m.role === 'user');
  if (hasUser || (o.force && conv.messages.length > 0)) {
    cur.room = roomOf(cur, conv.messages, o.whole);
  }
}

/**
 * Drawers of chunks of the cursor's conversation (text already redacted). Closed chunks advance
 * `cur.next`; chunks of the open exchange (`open`) take the indices that follow without advancing
 * it, so they keep them when the exchange closes.
 */
function chunkDrawers(
  source: string,
  chunks: readonly ExchangeChunk[],
  cur: ConvCursor,
  ctx: ConvoContext,
  open = false,
): DrawerInput[] {
  const out: DrawerInput[] = [];
  if (chunks.length === 0) return out;
  const wing = cur.wing ?? ctx.wing ?? ctx.fallbackWing;
  const room = cur.room ?? ctx.room ?? 'general';
  const { format, title, cwd, gitBranch, meta } = cur.head;
  const sessionId = typeof meta.sessionId === 'string' ? meta.sessionId : cur.id;
  let n = cur.next;
  for (const c of chunks) {
    const contentHash = sha256(c.text);
    const metadata: Record<string, unknown> = {
      sessionId,
      conversationId: cur.id,
      exchangeId: c.exchangeId,
      part: c.part,
      parts: c.parts,
      speakers: c.speakers,
      format,
    };
    if (c.kind !== 'exchange') metadata.kind = c.kind;
    if (title) metadata.title = title;
    if (cwd) metadata.cwd = cwd;
    if (gitBranch) metadata.gitBranch = gitBranch;
    for (const k of HEAD_META) if (k !== 'sessionId' && meta[k] !== undefined) metadata[k] = meta[k];
    const indexExtra = title ?? undefined;
    out.push({
      // = stableId('d', 'cv', source, cur.id, exchangeIndex, part, contentHash), hashed in one call
      id: `d${sha256(`cv\0${source}\0${cur.id}\0${c.exchangeIndex}\0${c.part}\0${contentHash}`).slice(0, 16)}`,
      wing,
      room,
      hall: classifyHall(c.text),
      source,
      chunkIndex: cur.slot * SLOT_STRIDE + n++,
      lineStart: c.lineStart ?? null,
      lineEnd: c.lineEnd ?? null,
      contentDate: c.timestamp,
      addedBy: ctx.addedBy,
      metadata,
      text: c.text,
      ...(indexExtra ? { indexExtra } : {}),
      prepared: { contentHash, search: searchColumn(indexExtra ? [c.text, indexExtra] : c.text) },
    });
  }
  if (!open) cur.next = n;
  return out;
}

/** What feeding a cursor asks the store to do: drawers to write, and drawer ids of the source to remove. */
interface CursorWrite {
  /** Drawers of closed exchanges and of the open exchange (rewritten in place when unchanged). */
  drawers: DrawerInput[];
  /** Drawers of the open exchange stored earlier that its new text replaces. */
  remove: string[];
}

/**
 * Feeds (redacted) messages to a cursor: settles it, advances its exchanges and returns the
 * drawers of the exchanges that closed **and of the open last exchange**, which is stored at once
 * so the latest words are searchable; when it grows later its earlier drawers are listed in
 * `remove` (ids are content-addressed, so an unchanged part keeps its id). `close`: the
 * conversation is complete (a whole read, a `history.jsonl` prompt, a branch): nothing stays open.
 * `whole`: the conversation is read whole (see {@link settleCursor}).
 */
export function advanceCursor(
  source: string,
  cur: ConvCursor,
  conv: Conversation,
  ctx: ConvoContext,
  o: { close: boolean; whole: boolean },
): CursorWrite {
  const known = cur.ex.open.length ? [...cur.ex.open, ...conv.messages] : conv.messages;
  settleCursor(cur, { ...conv, messages: known }, ctx, { whole: o.whole, force: false, source });
  const before = cur.openIds ?? [];
  if (conv.messages.length === 0 && !(o.close && cur.ex.open.length > 0)) return { drawers: [], remove: [] };
  const a = advanceExchanges(cur.ex, conv.messages, { maxChars: ctx.maxChars, flush: o.close });
  cur.ex = a.cursor;
  if ((a.closed.length || a.open.length) && cur.room === null)
    settleCursor(cur, { ...conv, messages: known }, ctx, { whole: o.whole, force: true, source });
  const closed = chunkDrawers(source, a.closed, cur, ctx);
  const open = chunkDrawers(source, a.open, cur, ctx, true);
  const ids = new Set([...closed, ...open].map((d) => d.id!));
  cur.openIds = open.map((d) => d.id!);
  return { drawers: [...closed, ...open], remove: before.filter((id) => !ids.has(id)) };
}
