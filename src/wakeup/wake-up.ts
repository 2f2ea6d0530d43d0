/**
 * @module wakeup/wake-up
 * The wake-up answers "where are we?" when a session starts, within a token budget.
 *
 * Content, in order: the identity (`<LOCI_HOME>/identity.md`, else `identity.txt`; at most 600
 * characters and a quarter of the budget); the **pinned** memory files of the project (newest
 * first); **where we left off** — the latest conversation sessions of the project's wing
 * (`wake-sessions.ts`: the newest session's compaction summary read whole and condensed to about
 * 45 % of the budget when longer, the user's last request and the assistant's final words; older
 * sessions by title and last request); then the most important **memories and decisions**: the
 * project's other memory files, decision and preference *sentences* found in the prose of
 * conversation drawers (`wake-prose.ts`: never tool output, file dumps or templates, and only when
 * they are about the work), drawers stored on purpose (`loci_add_drawer`) in a decision hall, and
 * diary entries about the project — ranked by **importance = recency × use × kind**
 * (`importance.ts`), de-duplicated, each with its age and a reference. A wing holding only mined
 * files gets a short **orientation** (drawers, last filed, main rooms) instead of nothing.
 * Memory files listed in the `MEMORY.md` that Claude Code loads itself (Claude Code's own memory
 * directory) are not repeated. Budget: tokens ≈ ⌈chars / 4⌉ (`wake-render.ts`); default 800
 * tokens. Every shown text is escaped (`escapeReminderContent`).
 */
import { readFileSync } from 'node:fs';
import { join, relative, isAbsolute, sep } from 'node:path';
import { systemClock, type Clock } from '../core/clock.js';
import { localeOrder } from '../core/collate.js';
import { processEnv } from '../core/env.js';
import type { Logger } from '../core/logger.js';
import { projectWing } from '../core/project-identity.js';
import { loadMemories, loadMemoryIndex, selectMemoryDir, type Memory } from '../memdir/index.js';
import { DIARY_WING, type Palace } from '../palace/index.js';
import { escapeReminderContent } from '../recall/index.js';
import type { Drawer } from '../store/ports.js';
import { ageInDays, drawerKindFactor, importance, memoryKindFactor, type Importance } from './importance.js';
import { readUsage, topUsage, usageKey } from './usage.js';
import { homeDeps, type WakeDep } from './wake-cache.js';
import { decisionSentences, proseLines } from './wake-prose.js';
import {
  cutText,
  DEFAULT_WAKE_TOKENS,
  oneLine,
  wakeUpResult,
  type WakeUpBlock,
  type WakeUpDraft,
  type WakeUpLine,
} from './wake-render.js';
import { isConversation, latestSessions, type SessionState } from './wake-sessions.js';

/** Defaults and limits of the wake-up. */
const WAKE_UP_LIMITS = {
  /** Default token budget (estimated as ⌈chars / 4⌉). */
  maxTokens: DEFAULT_WAKE_TOKENS,
  /** Smallest and largest accepted budgets. */
  minTokens: 100,
  maxTokensLimit: 8_000,
  /** Most characters of the identity (also at most a quarter of the budget). */
  identityChars: 600,
  /** Most characters of one line's text (before age and reference). */
  lineChars: 200,
  /** Ranked candidates kept in a draft (the renderer fits as many as the budget allows). */
  candidates: 60,
  /** Pinned memories kept in a draft. */
  pinned: 30,
  /** Drawer halls searched for decisions and preferences. */
  halls: ['facts', 'decisions', 'preferences'] as readonly string[],
  /** Newest drawers of the wing read for the latest sessions. */
  sessionDrawers: 400,
  /** Sessions shown under "Where we left off". */
  sessions: 3,
  /** Share of the budget the newest session's compaction summary may take. */
  summaryShare: 0.45,
} as const;

/** Options of {@link wakeUp}. */
export interface WakeUpOptions {
  /** The open palace (the caller closes it). */
  palace: Pick<Palace, 'home' | 'listDrawers' | 'store'>;
  /** Loci home (identity file, memory directories). Default `palace.home`. */
  home?: string | undefined;
  /**
   * The project's wing. Default: the wing the conversation miner gives `cwd` (`wingForCwd`: the repository's canonical
   * root name, else the folder name).
   */
  wing?: string | undefined;
  /** The session's working directory. Default `process.cwd()`. */
  cwd?: string | undefined;
  /** The memory directory; null for none. Default: `selectMemoryDir` for `cwd` (as `loci memory` uses). */
  memoryDir?: string | null | undefined;
  /** Token budget. Default 800; 100 … 8,000. */
  maxTokens?: number | undefined;
  /**
   * Claude Code loads this memory directory's `MEMORY.md` itself, so memory files it lists are not
   * repeated. Default: true when the directory is chosen here and is Claude Code's own.
   */
  indexLoaded?: boolean | undefined;
  /** Environment for the memory-directory choice. Default: the process's (`core/env.ts`). */
  env?: NodeJS.ProcessEnv | undefined;
  /** Time source. Default the system clock. */
  clock?: Clock | undefined;
  /** Diagnostics. Default silent. */
  logger?: Logger | undefined;
  /**
   * The session that is starting, left out of "where we left off": when Claude Code resumes a
   * session or continues it after compaction, that session's own state is already in the agent's
   * context (the transcript, or the summary it just wrote). Default: none.
   */
  excludeSession?: string | undefined;
}

/** One item shown (or rankable) in the wake-up. */
export interface WakeUpItem {
  kind: 'memory' | 'drawer';
  /** Memory: the file relative to the memory directory; drawer: its id. */
  id: string;
  /** Memory type or drawer hall (`feedback`, `facts`, `summary`, `diary`…). */
  label: string;
  /** The text shown (one line, escaped). */
  text: string;
  /** ISO-8601 date ages are computed from, or null. */
  date: string | null;
  /** Whole days since `date`, or null. */
  ageDays: number | null;
  pinned: boolean;
  /** Times recalled so far. */
  uses: number;
  /** recency × use × kind (pinned memories are not ranked by it). */
  importance: Importance;
}

/** What {@link wakeUp} returns. */
export interface WakeUpResult {
  /** The text to inject ('' when there is nothing to say). */
  text: string;
  /** Estimated tokens of `text` (⌈chars / 4⌉). */
  tokens: number;
  wing: string;
  memoryDir: string | null;
  /** What the text holds, section by section. */
  sections: {
    identity: { file: string; text: string } | null;
    pinned: WakeUpItem[];
    /** The latest sessions shown (newest first). */
    sessions: SessionState[];
    recent: WakeUpItem[];
  };
  /** Candidates that did not fit the budget. */
  omitted: number;
}

/** A computed wake-up before rendering, plus what it depends on (for the hook cache). */
export interface WakeUpPlan {
  draft: WakeUpDraft;
  pinned: WakeUpItem[];
  sessions: SessionState[];
  recent: WakeUpItem[];
  identity: { file: string; text: string } | null;
  wing: string;
  memoryDir: string | null;
  deps: WakeDep[];
}

function readIdentity(home: string, maxChars: number): { file: string; text: string } | null {
  for (const name of ['identity.md', 'identity.txt']) {
    const file = join(home, name);
    let raw: string;
    try {
      raw = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const text = escapeReminderContent(cutText(raw.replace(/\r\n?/g, '\n').trim(), maxChars));
    return text ? { file, text } : null;
  }
  return null;
}

function inside(dir: string | null, path: string | null): boolean {
  if (!dir || !path || !isAbsolute(path)) return false;
  const rel = relative(dir, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

/** Normalised text used to drop duplicates. */
function dedupeKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .slice(0, 120);
}

function memoryItem(m: Memory, uses: number, now: number): WakeUpItem {
  const about =
    m.description ||
    m.body
      .split('\n')
      .find((l) => l.trim() && !l.startsWith('#'))
      ?.trim() ||
    '';
  const text = escapeReminderContent(
    oneLine(`[${m.type ?? 'memory'}] ${m.title}${about ? ` — ${about}` : ''}`, WAKE_UP_LIMITS.lineChars),
  );
  const age = ageInDays(m.modified, now);
  return {
    kind: 'memory',
    id: m.file,
    label: m.type ?? 'memory',
    text,
    date: m.modified,
    ageDays: age === null ? null : Math.floor(age),
    pinned: m.pinned,
    uses,
    importance: importance(age, uses, memoryKindFactor(m.type)),
  };
}

const MINED = new Set(['loci-mine', 'loci-hook']);

/**
 * The wake-up line of a drawer, or undefined when it has nothing worth saying: a conversation
 * drawer gives its first decision or preference sentence (prose only); a diary entry or a drawer
 * stored on purpose gives its text; a mined file gives nothing (the orientation covers files).
 */
function drawerItem(d: Drawer, uses: number, now: number): WakeUpItem | undefined {
  let label: string;
  let body: string;
  if (d.wing === DIARY_WING) {
    label = 'diary';
    body = `[diary ${d.room}] ${d.text}`;
  } else if (isConversation(d)) {
    if (d.hall === 'summary' || d.metadata['kind'] === 'summary') return undefined; // shown under "Where we left off"
    const found = decisionSentences(
      proseLines(d.text, typeof d.metadata['part'] === 'number' && d.metadata['part'] > 0 ? 'assistant' : null),
      1,
    )[0];
    if (!found) return undefined;
    label = found.kind;
    body = `[${found.kind}] ${found.text}`;
  } else if (!MINED.has(d.addedBy)) {
    label = d.hall === 'facts' || d.hall === 'decisions' ? 'decision' : (d.hall ?? 'note');
    body = `[${label}] ${d.text}`;
  } else return undefined;
  const text = escapeReminderContent(oneLine(body, WAKE_UP_LIMITS.lineChars));
  const date = d.contentDate ?? d.filedAt;
  const age = ageInDays(date, now);
  const kind = drawerKindFactor(label === 'decision' ? 'facts' : label === 'preference' ? 'preferences' : label);
  return {
    kind: 'drawer',
    id: d.id,
    label,
    text,
    date,
    ageDays: age === null ? null : Math.floor(age),
    pinned: false,
    uses,
    importance: importance(age, uses, kind),
  };
}

function clampTokens(v: number | undefined): number {
  if (v === undefined || !Number.isFinite(v)) return WAKE_UP_LIMITS.maxTokens;
  return Math.min(WAKE_UP_LIMITS.maxTokensLimit, Math.max(WAKE_UP_LIMITS.minTokens, Math.floor(v)));
}

async function drawerCandidates(o: WakeUpOptions, wing: string): Promise<{ candidates: Drawer[]; newest: Drawer[] }> {
  const p = o.palace;
  const [newest, decided, diary, used] = await Promise.all([
    p.listDrawers({ wing }, { limit: WAKE_UP_LIMITS.sessionDrawers, order: 'date' }),
    p.listDrawers({ wing, hall: WAKE_UP_LIMITS.halls }, { limit: 120, order: 'date' }),
    p.listDrawers({ wing: DIARY_WING }, { limit: 60, order: 'date' }),
    topUsage(p, 'drawer:', 100),
  ]);
  const usedIds = used.map((u) => u.item.slice('drawer:'.length));
  const usedDrawers = usedIds.length
    ? (await p.listDrawers({ ids: usedIds, wing: [wing, DIARY_WING] }, { limit: usedIds.length })).drawers
    : [];
  const ofProject = (d: Drawer) => d.wing !== DIARY_WING || d.metadata['project'] === wing;
  const byId = new Map<string, Drawer>();
  for (const d of [...decided.drawers, ...diary.drawers, ...usedDrawers])
    if (ofProject(d) && !byId.has(d.id)) byId.set(d.id, d);
  return { candidates: [...byId.values()], newest: newest.drawers };
}

/** A session id as shown: a UUID's first block (`3065c678`), any other id whole up to 40 characters. */
function shortSession(id: string): string {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-/i.test(id)) return id.slice(0, 8);
  return id.length > 40 ? `${id.slice(0, 39)}…` : id;
}

/** Drawer ids shown for a session (the summary's first part, else the last exchange). */
function sessionRef(s: SessionState): string {
  const id = s.summary?.ids[0] ?? s.final?.id ?? s.request?.id;
  return id ? `drawer ${id}` : `session ${shortSession(s.sessionId)}`;
}

/** The rendered block of a session: head line, then summary, request, final words (all escaped). */
function sessionBlock(s: SessionState, first: boolean): WakeUpBlock {
  const head = escapeReminderContent(
    oneLine(`session${s.title ? ` "${s.title}"` : ` ${shortSession(s.sessionId)}`}`, WAKE_UP_LIMITS.lineChars),
  );
  const lines: string[] = [];
  if (s.summary) {
    const more = s.summary.ids.length > 1 ? ` + ${s.summary.ids.length - 1} parts` : '';
    const notes: string[] = [];
    if (!s.summary.whole) notes.push('key sections');
    // The session went on after its compaction: the summary's pending work may be done since.
    if (first && s.final?.date && s.summary.date && s.final.date > s.summary.date)
      notes.push('written before the last words below');
    const label = notes.join(', ') + (s.summary.whole ? '' : `; whole: drawer ${s.summary.ids[0]}${more}`);
    lines.push(
      escapeReminderContent(
        `${s.summary.notes ? 'Session notes' : 'Compaction summary'}${label ? ` (${label})` : ''}:\n${s.summary.text}`,
      ),
    );
  }
  if (s.request) lines.push(escapeReminderContent(`Last request: ${s.request.text}`));
  if (first && s.final)
    lines.push(
      escapeReminderContent(
        `${s.final.question ? 'Open question (assistant, last words)' : 'Assistant, last words'}: ${s.final.text}`,
      ),
    );
  return { head, date: s.date, ref: sessionRef(s), lines };
}

/** A short orientation for a wing without sessions or decisions: what is archived, when, main rooms. */
async function orientation(o: WakeUpOptions, wing: string, newest: readonly Drawer[]): Promise<string | null> {
  if (newest.length === 0) return null;
  const rooms = await o.palace.store.countRooms({ wing });
  const total = rooms.reduce((a, r) => a + r.count, 0);
  const filed = newest.reduce((a, d) => (d.filedAt > a ? d.filedAt : a), '');
  const dated = newest
    .map((d) => d.contentDate)
    .filter((x): x is string => !!x)
    .sort();
  const main = rooms
    .slice(0, 8)
    .map((r) => `${r.room} (${r.count})`)
    .join(', ');
  const last = dated.at(-1)?.slice(0, 10);
  const span = last && last !== filed.slice(0, 10) ? `; newest content ${last}` : '';
  return escapeReminderContent(
    `${total} drawers of mined files, last filed ${filed.slice(0, 10)}${span}. Main rooms: ${main}` +
      `${rooms.length > 8 ? `, and ${rooms.length - 8} more` : ''}. Nothing from past sessions yet: search the ` +
      'archive with loci_search.',
  );
}

/** Memory files listed in the MEMORY.md Claude Code loads (link targets within its load limits). */
function indexedFiles(dir: string): Set<string> {
  const out = new Set<string>();
  for (const m of loadMemoryIndex(dir).text.matchAll(/\]\(([^)\s]+)\)/g))
    out.add(decodeURI(m[1]!).replace(/^\.\//, ''));
  return out;
}

/** Computes the ranked wake-up (not rendered). Used by {@link wakeUp} and the session-start hook. */
export async function planWakeUp(o: WakeUpOptions): Promise<WakeUpPlan> {
  const now = (o.clock ?? systemClock).now();
  const home = o.home ?? o.palace.home;
  const cwd = o.cwd ?? process.cwd();
  const wing = o.wing ?? projectWing(cwd);
  const maxChars = clampTokens(o.maxTokens) * 4;
  const deps: WakeDep[] = homeDeps(home);
  let memoryDir: string | null = null;
  let indexLoaded = o.indexLoaded ?? false;
  if (o.memoryDir !== undefined) memoryDir = o.memoryDir;
  else {
    const choice = selectMemoryDir({ cwd, env: o.env ?? processEnv(), lociHome: home });
    memoryDir = choice.dir;
    indexLoaded = o.indexLoaded ?? choice.kind === 'claude';
    deps.push({ path: choice.claude.dir, kind: 'exists' });
    if (choice.claude.projectDir) deps.push({ path: choice.claude.projectDir, kind: 'exists' });
  }
  if (memoryDir) deps.push({ path: memoryDir, kind: 'tree' });

  const identity = readIdentity(home, Math.min(WAKE_UP_LIMITS.identityChars, Math.floor(maxChars / 4)));
  const inIndex = memoryDir && indexLoaded ? indexedFiles(memoryDir) : new Set<string>();
  const memories = (memoryDir ? loadMemories(memoryDir, { limit: 200 }) : []).filter((m) => !inIndex.has(m.file));
  const { candidates: drawers, newest } = await drawerCandidates(o, wing);
  const sessions = await latestSessions(newest, o.palace.store, {
    sessions: WAKE_UP_LIMITS.sessions,
    exclude: o.excludeSession,
    summaryChars: Math.floor(maxChars * WAKE_UP_LIMITS.summaryShare),
  });
  const keys = [
    ...memories.map((m) => usageKey({ kind: 'memory', path: m.path })),
    ...drawers.map((d) => usageKey({ kind: 'drawer', id: d.id })),
  ];
  const usage = await readUsage(o.palace, keys);
  const uses = (k: string) => usage.get(k)?.uses ?? 0;

  const seen = new Set<string>();
  const hashes = new Set<string>();
  const keep = (item: WakeUpItem, hash?: string): boolean => {
    const k = dedupeKey(item.text.replace(/^\[[^\]]*\]\s*/, ''));
    if (seen.has(k) || (hash && hashes.has(hash))) return false;
    seen.add(k);
    if (hash) hashes.add(hash);
    return true;
  };
  const pinned: WakeUpItem[] = [];
  const ranked: WakeUpItem[] = [];
  for (const m of memories) {
    const item = memoryItem(m, uses(usageKey({ kind: 'memory', path: m.path })), now);
    if (!keep(item)) continue;
    (item.pinned ? pinned : ranked).push(item);
  }
  const shownInSessions = new Set(
    sessions.flatMap((s) => [...(s.summary?.ids ?? []), s.final?.id, s.request?.id].filter(Boolean)),
  );
  for (const d of drawers) {
    // a mined copy of a memory file; already shown
    if (inside(memoryDir, d.source) || shownInSessions.has(d.id)) continue;
    const item = drawerItem(d, uses(usageKey({ kind: 'drawer', id: d.id })), now);
    if (item && keep(item, d.contentHash)) ranked.push(item);
  }
  pinned.sort((a, b) => localeOrder(b.date ?? '', a.date ?? '') || a.id.localeCompare(b.id));
  ranked.sort(
    (a, b) =>
      b.importance.score - a.importance.score || localeOrder(b.date ?? '', a.date ?? '') || a.id.localeCompare(b.id),
  );
  const shownPinned = pinned.slice(0, WAKE_UP_LIMITS.pinned);
  const shownRecent = ranked.slice(0, WAKE_UP_LIMITS.candidates);
  const line = (i: WakeUpItem): WakeUpLine => ({
    text: i.text,
    date: i.date,
    ref: i.kind === 'memory' ? i.id : `drawer ${i.id}`,
  });
  const orient =
    sessions.length === 0 && ranked.length === 0 && pinned.length === 0 ? await orientation(o, wing, newest) : null;
  const draft: WakeUpDraft = {
    wing: escapeReminderContent(wing),
    identity: identity?.text ?? null,
    pinned: shownPinned.map(line),
    sessions: sessions.map((s, i) => sessionBlock(s, i === 0)),
    recent: shownRecent.map(line),
    orientation: orient,
    more: pinned.length - shownPinned.length + ranked.length - shownRecent.length,
    maxChars,
  };
  return { draft, pinned: shownPinned, sessions, recent: shownRecent, identity, wing, memoryDir, deps };
}

/**
 * The wake-up for a session: identity, pinned memories, then the most important recent memories
 * and decisions of the project (importance = recency × use × kind), each with its age, within
 * `maxTokens` (default 800, estimated as ⌈chars / 4⌉). `text` is '' when there is nothing to say.
 */
export async function wakeUp(o: WakeUpOptions): Promise<WakeUpResult> {
  const plan = await planWakeUp(o);
  return wakeUpResult(plan, (o.clock ?? systemClock).now());
}
