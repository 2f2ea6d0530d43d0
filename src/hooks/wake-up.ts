/**
 * @module hooks/wake-up
 * The wake-up text: what an agent should know when a session starts, within a token budget.
 *
 * Content, in order: the identity (`<LOCI_HOME>/identity.md`, else `identity.txt`; at most 600
 * characters and a quarter of the budget), the **pinned** memory files of the project (newest
 * first), then the most important of: the project's other memory files, the drawers of the
 * project's wing in halls `facts` (decisions), `preferences`, `advice` and `summary` (compaction
 * summaries, newest per session), and diary entries written about the project — ranked by
 * **importance = recency × use × kind** (`importance.ts`), de-duplicated (same text, a drawer that
 * is a mined copy of a memory file), each line with its age and a reference (file or drawer id).
 * Candidates come from the newest items *and* the most used ones, so an old but much-recalled
 * decision can surface; nothing is chosen by storage order. Budget: tokens ≈ ⌈chars / 4⌉
 * (`wake-render.ts`); default 800 tokens. Every shown text is escaped (`escapeReminderContent`).
 */
import { readFileSync } from 'node:fs';
import { join, relative, isAbsolute, sep } from 'node:path';
import {
  DIARY_WING,
  defaultWing,
  escapeReminderContent,
  loadMemories,
  selectMemoryDir,
  systemClock,
  type Clock,
  type Drawer,
  type Logger,
  type Memory,
  type Palace,
  wingForCwd,
} from '../index.js';
import { ageInDays, drawerKindFactor, importance, memoryKindFactor, type Importance } from './importance.js';
import { readUsage, topUsage, usageKey } from './usage.js';
import { homeDeps, type WakeDep } from './wake-cache.js';
import { cutText, draftHasContent, oneLine, renderWakeUp, type WakeUpDraft, type WakeUpLine } from './wake-render.js';

/** Defaults and limits of the wake-up. */
export const WAKE_UP_LIMITS = {
  /** Default token budget (estimated as ⌈chars / 4⌉). */
  maxTokens: 800,
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
  /** Drawer halls considered. */
  halls: ['facts', 'preferences', 'advice', 'summary'] as readonly string[],
} as const;

/** Options of {@link wakeUp}. */
export interface WakeUpOptions {
  /** The open palace (the caller closes it). */
  palace: Pick<Palace, 'home' | 'listDrawers' | 'store'>;
  /** Loci home (identity file, memory directories). Default `palace.home`. */
  home?: string | undefined;
  /** The project's wing. Default: the wing the conversation miner gives `cwd` (`wingForCwd`: the repository's canonical root name, else the folder name). */
  wing?: string | undefined;
  /** The session's working directory. Default `process.cwd()`. */
  cwd?: string | undefined;
  /** The memory directory; null for none. Default: `selectMemoryDir` for `cwd` (as `loci memory` uses). */
  memoryDir?: string | null | undefined;
  /** Token budget. Default 800; 100 … 8,000. */
  maxTokens?: number | undefined;
  /** Environment for the memory-directory choice. Default `process.env`. */
  env?: NodeJS.ProcessEnv | undefined;
  /** Time source. Default the system clock. */
  clock?: Clock | undefined;
  /** Diagnostics. Default silent. */
  logger?: Logger | undefined;
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
    recent: WakeUpItem[];
  };
  /** Candidates that did not fit the budget. */
  omitted: number;
}

/** A computed wake-up before rendering, plus what it depends on (for the hook cache). */
export interface WakeUpPlan {
  draft: WakeUpDraft;
  pinned: WakeUpItem[];
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
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim().slice(0, 120);
}

function memoryItem(m: Memory, uses: number, now: number): WakeUpItem {
  const about = m.description || m.body.split('\n').find((l) => l.trim() && !l.startsWith('#'))?.trim() || '';
  const text = escapeReminderContent(oneLine(`[${m.type ?? 'memory'}] ${m.title}${about ? ` — ${about}` : ''}`, WAKE_UP_LIMITS.lineChars));
  const age = ageInDays(m.modified, now);
  return { kind: 'memory', id: m.file, label: m.type ?? 'memory', text, date: m.modified, ageDays: age === null ? null : Math.floor(age), pinned: m.pinned, uses, importance: importance(age, uses, memoryKindFactor(m.type)) };
}

function drawerItem(d: Drawer, uses: number, now: number): WakeUpItem {
  const label = d.wing === DIARY_WING ? 'diary' : (d.hall ?? 'note');
  const prefix = label === 'diary' ? `[diary ${d.room}]` : `[${label === 'facts' ? 'decision/fact' : label}]`;
  const text = escapeReminderContent(oneLine(`${prefix} ${d.text}`, WAKE_UP_LIMITS.lineChars));
  const date = d.contentDate ?? d.filedAt;
  const age = ageInDays(date, now);
  return { kind: 'drawer', id: d.id, label, text, date, ageDays: age === null ? null : Math.floor(age), pinned: false, uses, importance: importance(age, uses, drawerKindFactor(label)) };
}

function clampTokens(v: number | undefined): number {
  if (v === undefined || !Number.isFinite(v)) return WAKE_UP_LIMITS.maxTokens;
  return Math.min(WAKE_UP_LIMITS.maxTokensLimit, Math.max(WAKE_UP_LIMITS.minTokens, Math.floor(v)));
}

async function drawerCandidates(o: WakeUpOptions, wing: string): Promise<Drawer[]> {
  const p = o.palace;
  const [recent, diary, used] = await Promise.all([
    p.listDrawers({ wing, hall: WAKE_UP_LIMITS.halls }, { limit: 120, order: 'date' }),
    p.listDrawers({ wing: DIARY_WING }, { limit: 60, order: 'date' }),
    topUsage(p, 'drawer:', 100),
  ]);
  const usedIds = used.map((u) => u.item.slice('drawer:'.length));
  const usedDrawers = usedIds.length ? (await p.listDrawers({ ids: usedIds, wing: [wing, DIARY_WING] }, { limit: usedIds.length })).drawers : [];
  const ofProject = (d: Drawer) => d.wing !== DIARY_WING || d.metadata['project'] === wing;
  const byId = new Map<string, Drawer>();
  for (const d of [...recent.drawers, ...diary.drawers, ...usedDrawers]) if (ofProject(d) && !byId.has(d.id)) byId.set(d.id, d);
  // Compaction summaries: only the newest of each session.
  const newestSummary = new Map<string, Drawer>();
  for (const d of byId.values()) {
    if (d.hall !== 'summary') continue;
    const s = String(d.metadata['sessionId'] ?? d.id);
    const cur = newestSummary.get(s);
    if (!cur || (d.contentDate ?? d.filedAt) > (cur.contentDate ?? cur.filedAt)) newestSummary.set(s, d);
  }
  return [...byId.values()].filter((d) => d.hall !== 'summary' || newestSummary.get(String(d.metadata['sessionId'] ?? d.id)) === d);
}

/** Computes the ranked wake-up (not rendered). Used by {@link wakeUp} and the session-start hook. */
export async function planWakeUp(o: WakeUpOptions): Promise<WakeUpPlan> {
  const now = (o.clock ?? systemClock).now();
  const home = o.home ?? o.palace.home;
  const cwd = o.cwd ?? process.cwd();
  const wing = o.wing ?? wingForCwd(cwd) ?? defaultWing(cwd);
  const maxChars = clampTokens(o.maxTokens) * 4;
  const deps: WakeDep[] = homeDeps(home);
  let memoryDir: string | null = null;
  if (o.memoryDir !== undefined) memoryDir = o.memoryDir;
  else {
    const choice = selectMemoryDir({ cwd, env: o.env ?? process.env, lociHome: home });
    memoryDir = choice.dir;
    deps.push({ path: choice.claude.dir, kind: 'exists' });
    if (choice.claude.projectDir) deps.push({ path: choice.claude.projectDir, kind: 'exists' });
  }
  if (memoryDir) deps.push({ path: memoryDir, kind: 'tree' });

  const identity = readIdentity(home, Math.min(WAKE_UP_LIMITS.identityChars, Math.floor(maxChars / 4)));
  const memories = memoryDir ? loadMemories(memoryDir, { limit: 200 }) : [];
  const drawers = await drawerCandidates(o, wing);
  const keys = [...memories.map((m) => usageKey({ kind: 'memory', path: m.path })), ...drawers.map((d) => usageKey({ kind: 'drawer', id: d.id }))];
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
  for (const d of drawers) {
    if (inside(memoryDir, d.source)) continue; // a mined copy of a memory file
    const item = drawerItem(d, uses(usageKey({ kind: 'drawer', id: d.id })), now);
    if (keep(item, d.contentHash)) ranked.push(item);
  }
  pinned.sort((a, b) => (b.date ?? '').localeCompare(a.date ?? '') || a.id.localeCompare(b.id));
  ranked.sort((a, b) => b.importance.score - a.importance.score || (b.date ?? '').localeCompare(a.date ?? '') || a.id.localeCompare(b.id));
  const shownPinned = pinned.slice(0, WAKE_UP_LIMITS.pinned);
  const shownRecent = ranked.slice(0, WAKE_UP_LIMITS.candidates);
  const line = (i: WakeUpItem): WakeUpLine => ({ text: i.text, date: i.date, ref: i.kind === 'memory' ? i.id : `drawer ${i.id}` });
  const draft: WakeUpDraft = {
    wing: escapeReminderContent(wing),
    identity: identity?.text ?? null,
    pinned: shownPinned.map(line),
    recent: shownRecent.map(line),
    more: pinned.length - shownPinned.length + ranked.length - shownRecent.length,
    maxChars,
  };
  return { draft, pinned: shownPinned, recent: shownRecent, identity, wing, memoryDir, deps };
}

/** Renders a plan into the public result. */
export function wakeUpResult(plan: WakeUpPlan, now: number): WakeUpResult {
  if (!draftHasContent(plan.draft)) {
    return { text: '', tokens: 0, wing: plan.wing, memoryDir: plan.memoryDir, sections: { identity: null, pinned: [], recent: [] }, omitted: 0 };
  }
  const r = renderWakeUp(plan.draft, now);
  const pinned = r.included.pinned.map((i) => plan.pinned[i]!);
  const recent = r.included.recent.map((i) => plan.recent[i]!);
  const identityShown = plan.identity && r.text.includes('\n## Identity\n') ? plan.identity : null;
  const omitted = plan.draft.more + plan.pinned.length - pinned.length + plan.recent.length - recent.length;
  return { text: r.text, tokens: r.tokens, wing: plan.wing, memoryDir: plan.memoryDir, sections: { identity: identityShown, pinned, recent }, omitted };
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
