/**
 * @module wakeup/wake-sessions
 * "Where are we?": the final state of a project's latest conversation sessions, read from the
 * conversation drawers of its wing.
 *
 * A session is the set of conversation drawers sharing `metadata.sessionId` (else their source).
 * For each of the latest sessions (by their newest content date):
 * - **title**: `metadata.title` (Claude Code's `ai-title`), else a legacy one-line `Summary: …` record;
 * - **compaction summary**, the newest of the session, read **whole** (every part of its exchange,
 *   `metadata.kind = 'summary'` from the miner, or hall `summary` from the post-compact hook),
 *   boilerplate removed, then {@link condenseSummary} when it is longer than its share of the budget
 *   (its "where we are" sections first: current work, pending tasks, next step, the request);
 * - **last exchange**: the user's request and the assistant's final words (prose only: tool calls,
 *   tool output and file dumps are dropped, see `wake-prose.ts`), and whether it ended on a question
 *   to the user (an open decision). A subagent's side conversation (`metadata.agentId`) is skipped;
 *   when the last exchange holds no prose (only tool output) or answers a harness notice (a
 *   background task finished), earlier exchanges are read back.
 * Parts of an exchange are read with `neighbours` (same source, nearby chunks, same `exchangeId`).
 */
import { localeOrder } from '../core/collate.js';
import { countWords, isSmallTalk } from '../core/words.js';
import type { Drawer } from '../store/ports.js';
import {
  finalProse,
  isBoilerplate,
  isHarnessNotice,
  joinProse,
  proseLines,
  withoutClosingOffers,
  type ProseLine,
} from './wake-prose.js';

/** The part of the drawer store this module needs. */
interface SessionStore {
  neighbours(id: string, n: number): Promise<Drawer[]>;
}

/** The final state of one session, ready to render. */
export interface SessionState {
  sessionId: string;
  /** Newest content date of the session (ISO), or null when none is dated. */
  date: string | null;
  title: string | null;
  /**
   * The newest compaction summary, condensed to its share, or null. `notes`: it is the session's
   * running notes (`metadata.kind = 'session-notes'`), not a compaction summary.
   */
  summary: { text: string; ids: string[]; whole: boolean; notes?: boolean; date?: string } | null;
  /** The user's last request (prose), or null. */
  request: { text: string; id: string } | null;
  /** The assistant's final words, or null. */
  final: { text: string; id: string; question: boolean; date?: string } | null;
}

const meta = (d: Drawer, k: string): unknown => d.metadata[k];
const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
/** Content date, '' when unknown (undated records — legacy summaries — sort oldest and show no age). */
const dateOf = (d: Drawer): string => d.contentDate ?? '';

/** True for a conversation drawer (written by the conversation miner or the compaction hook). */
export function isConversation(d: Drawer): boolean {
  return (
    str(meta(d, 'sessionId')) !== null ||
    (str(meta(d, 'format')) !== null && str(meta(d, 'exchangeId')) !== null) ||
    d.hall === 'summary'
  );
}

function isSummary(d: Drawer): boolean {
  return meta(d, 'kind') === 'summary' || d.hall === 'summary';
}

/** A legacy one-line summary record (`Summary: <title>`), which names a session rather than summarising it. */
function legacyTitle(d: Drawer): string | null {
  const t = d.text.trim();
  if (t.length > 160 || t.includes('\n')) return null;
  const m = /^Summary:\s*(.+)$/.exec(t);
  return m ? m[1]!.trim() : null;
}

const keyOf = (d: Drawer) => str(meta(d, 'sessionId')) ?? d.source ?? d.id;
const exchangeOf = (d: Drawer) => str(meta(d, 'exchangeId')) ?? `${d.source}#${d.chunkIndex}`;
const newer = (a: Drawer, b: Drawer) => localeOrder(dateOf(a), dateOf(b)) || a.chunkIndex - b.chunkIndex;

/** Every part of the exchange `d` belongs to, in order (those within 60 chunks). */
async function exchangeParts(store: SessionStore, d: Drawer): Promise<Drawer[]> {
  const parts = num(meta(d, 'parts')) ?? 1;
  if (parts <= 1) return [d];
  const ex = exchangeOf(d);
  const near = await store.neighbours(d.id, Math.min(parts, 60));
  const mine = near.filter((x) => exchangeOf(x) === ex);
  return mine.length ? mine.sort((a, b) => a.chunkIndex - b.chunkIndex) : [d];
}

/** Joins the parts of an exchange (parts split at line ends). */
function joined(parts: readonly Drawer[]): string {
  return parts.map((p) => p.text.replace(/\s+$/, '')).join('\n');
}

const SECTION = /^\s*(?:\d+\.\s*)?\**\s*([A-Z][A-Za-z /&()'-]{2,60}?)\s*\**\s*:\s*\**\s*(.*)$/;
/** Sections of a compaction summary shown first, in this order, when it must be condensed. */
const KEY_SECTIONS = [
  /current work|current state|where we are/i,
  /pending tasks?|open (items|questions|tasks)|todo/i,
  /next step/i,
  /primary request|intent|goal|task spec/i,
];
/** Session notes: the extractive notice, and a heading followed only by a placeholder such as `(none)`. */
const NOTES_NOTICE = /^_Built without a model[^\n]*_\n*/m;
const EMPTY_SECTION = /^#{1,3} [^\n]+\n\((?:none|no [^)\n]*|not recorded[^)\n]*)\)\n*/gm;
/** A markdown heading opening a section (session notes, Claude Code's `session-memory/summary.md`). */
const HEADING = /^#{1,3}\s+([A-Z][A-Za-z /&()'-]{2,60}?)\s*#*\s*$/;

/** Removes boilerplate lines and, when the summary holds an analysis followed by "Summary:", keeps the summary. */
function cleanSummary(text: string): string {
  let lines = text.replace(/\r\n?/g, '\n').split('\n');
  const lastSummary = lines.map((l) => l.trim()).lastIndexOf('Summary:');
  if (lastSummary > 0) lines = lines.slice(lastSummary + 1);
  return lines
    .filter((l) => !isBoilerplate(l))
    .join('\n')
    .replace(NOTES_NOTICE, '')
    .replace(EMPTY_SECTION, '')
    .replace(/^Summary:\s*/, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function cutLines(text: string, max: number): string {
  if (text.length <= max) return text;
  const slice = text.slice(0, Math.max(1, max - 1));
  const nl = slice.lastIndexOf('\n');
  const sp = slice.lastIndexOf(' ');
  const at = nl > max / 2 ? nl : sp > max / 2 ? sp : slice.length;
  return `${slice.slice(0, at).trimEnd()}…`;
}

/**
 * A compaction summary within `max` characters: whole when it fits; else its key sections (current
 * work, pending tasks, next step, request), each cut at a line end — sections open with `Title:` or
 * with a markdown heading (session notes, archived by the hook worker as hall `summary` drawers); a
 * summary without recognisable sections keeps its start and its end (the latest state).
 */
export function condenseSummary(text: string, max: number): { text: string; whole: boolean } {
  const clean = cleanSummary(text);
  if (clean.length <= max) return { text: clean, whole: true };
  const sections: { title: string; body: string[] }[] = [];
  for (const line of clean.split('\n')) {
    const h = HEADING.exec(line);
    if (h) {
      sections.push({ title: h[1]!.trim(), body: [] });
      continue;
    }
    const m = SECTION.exec(line);
    if (m && !line.startsWith(' ') && !line.startsWith('\t') && !/^\s*-/.test(line))
      sections.push({ title: m[1]!.trim(), body: m[2]!.trim() ? [m[2]!.trim()] : [] });
    else if (sections.length) sections[sections.length - 1]!.body.push(line);
  }
  const picked: { title: string; body: string }[] = [];
  for (const k of KEY_SECTIONS) {
    const s = sections.find((x) => k.test(x.title) && !picked.some((p) => p.title === x.title));
    const body = s?.body
      .join('\n')
      .replace(/\n{2,}/g, '\n')
      .trim();
    if (s && body) picked.push({ title: s.title, body });
  }
  if (picked.length === 0) {
    const head = cutLines(clean, Math.floor(max * 0.35));
    const tailStart = clean.length - Math.floor(max * 0.6);
    const tail = clean.slice(clean.indexOf('\n', tailStart) + 1 || tailStart);
    return { text: `${head}\n[…]\n${tail.trim()}`, whole: false };
  }
  let out = '';
  let left = max;
  picked.forEach((p, i) => {
    const share = Math.floor(left / (picked.length - i));
    const block = cutLines(`${p.title}: ${p.body}`, Math.max(40, share - 1));
    out += (out ? '\n' : '') + block;
    left -= block.length + 1;
  });
  return { text: out, whole: false };
}

/** The user's request in a part: its last run of user lines (harness notices are not requests). */
function requestOf(lines: readonly ProseLine[]): ProseLine[] {
  let out: ProseLine[] = [];
  let run = false;
  for (const l of lines) {
    if (l.speaker === 'user' && isHarnessNotice(l.text)) {
      run = false;
      continue;
    }
    if (l.speaker === 'user') {
      if (!run) out = [];
      out.push(l);
      run = true;
    } else run = false;
  }
  return out;
}

/** A request that says little on its own: small talk, or three words at most ("commit!", "run it"). */
function isThinRequest(text: string): boolean {
  return countWords(text) <= 3 || isSmallTalk(text);
}

/** Options of {@link latestSessions}. */
interface SessionOptions {
  /** Sessions returned. Default 3. */
  sessions?: number;
  /** Characters of the newest session's compaction summary. Default 1,200. */
  summaryChars?: number;
  /** Characters of a request / of final words. Default 300 / 450. */
  requestChars?: number;
  finalChars?: number;
  /** A session left out (the one that is starting again). Default none. */
  exclude?: string | undefined;
}

/**
 * The latest sessions of a wing, newest first, from its newest drawers (any order). Only the
 * newest session gets its compaction summary; older ones get a title and their last request.
 */
export async function latestSessions(
  drawers: readonly Drawer[],
  store: SessionStore,
  o: SessionOptions = {},
): Promise<SessionState[]> {
  const bySession = new Map<string, Drawer[]>();
  for (const d of drawers) {
    if (!isConversation(d)) continue;
    const k = keyOf(d);
    if (o.exclude !== undefined && k === o.exclude) continue;
    const list = bySession.get(k);
    if (list) list.push(d);
    else bySession.set(k, [d]);
  }
  const ordered = [...bySession.entries()]
    .map(([k, ds]) => ({ k, ds: ds.sort(newer), newest: ds.reduce((a, b) => (newer(a, b) >= 0 ? a : b)) }))
    .sort((a, b) => newer(b.newest, a.newest))
    .slice(0, o.sessions ?? 3);
  const out: SessionState[] = [];
  for (const [i, s] of ordered.entries()) {
    const first = i === 0;
    let title = s.ds.map((d) => str(meta(d, 'title'))).find(Boolean) ?? null;
    title ??= s.ds.map(legacyTitle).find(Boolean) ?? null;
    const real = s.ds.filter((d) => !(isSummary(d) && legacyTitle(d)));
    const summaries = real.filter(isSummary);
    let summary: SessionState['summary'] = null;
    if (first && summaries.length) {
      const newest = summaries.reduce((a, b) => (newer(a, b) >= 0 ? a : b));
      const parts = await exchangeParts(store, newest);
      const c = condenseSummary(joined(parts), o.summaryChars ?? 1_200);
      const notes = meta(newest, 'kind') === 'session-notes';
      if (c.text)
        summary = {
          text: c.text,
          ids: parts.map((p) => p.id),
          whole: c.whole,
          ...(notes ? { notes } : {}),
          ...(newest.contentDate ? { date: newest.contentDate } : {}),
        };
    }
    // A subagent's side conversation (agentId) is not where the session left off.
    const talk = real
      .filter((d) => !isSummary(d) && !meta(d, 'agentId') && !meta(d, 'isSidechain'))
      .sort((a, b) => newer(b, a));
    let request: SessionState['request'] = null;
    // A last request that names nothing ("commit!", "yes, go ahead"): the one before it is shown too.
    let thin: SessionState['request'] = null;
    let final: SessionState['final'] = null;
    // Walk back from the newest exchange until the user's last request (and, for the newest
    // session, the assistant's last prose) is found: a final exchange may hold only tool output.
    const done = new Set<string>();
    for (const d of talk.slice(0, 12)) {
      if (request && (final || !first)) break;
      if (done.has(exchangeOf(d))) continue;
      done.add(exchangeOf(d));
      const parts = await exchangeParts(store, d);
      // An exchange opened by a harness notice (a background task finished) is not where the work stands.
      const asked = parts
        .flatMap((p) => proseLines(p.text, num(meta(p, 'part')) ? 'assistant' : null))
        .filter((l) => l.speaker === 'user');
      if (asked.length && asked.every((l) => isHarnessNotice(l.text))) continue;
      for (let p = parts.length - 1; p >= 0 && !request; p--) {
        const part = parts[p]!;
        const lines = proseLines(part.text, num(meta(part, 'part')) ? 'assistant' : null);
        if (first && !final) {
          // A closing offer ("What else would you like me to do?") is neither the state nor an open question.
          const said = withoutClosingOffers(lines.filter((l) => l.speaker === 'assistant' && !isBoilerplate(l.text)));
          if (said.length) {
            const text = finalProse(said, o.finalChars ?? 600);
            final = {
              text,
              id: part.id,
              question: /\?\s*$/.test(text),
              ...(part.contentDate ? { date: part.contentDate } : {}),
            };
          }
        }
        const req = requestOf(lines);
        if (req.length) {
          const text = joinProse(req, o.requestChars ?? 300);
          if (!thin && isThinRequest(text)) thin = { text, id: part.id };
          else request = { text, id: part.id };
        }
      }
    }
    if (thin) request = request ? { text: `${thin.text} (after: ${request.text})`, id: thin.id } : thin;
    if (!title && !summary && !request && !final) continue;
    out.push({ sessionId: s.k, date: dateOf(s.newest) || null, title, summary, request, final });
  }
  return out;
}
