/**
 * @module recall/prompt-context
 * {@link buildPromptContext}: what the `user-prompt-submit` hook injects as `additionalContext` —
 * the recalled memory files and the top palace drawers for the prompt, in one `<system-reminder>`,
 * never over `maxChars` (Claude Code caps hook output at 10,000 characters) and within the recall
 * byte budgets. Memories come first (curated); drawers fill the rest. No LLM unless one is passed:
 * hooks run on a tight time budget.
 */
import { systemClock } from '../core/clock.js';
import { projectWing } from '../core/project-identity.js';
import { isAbsolute, relative, sep } from 'node:path';
import { excerptChars, matchSpans, type SearchHit, type SearchOptions, type SearchResult } from '../search/index.js';
import { isStopword, tokenize } from '../text/index.js';
import { isSmallTalk } from '../core/words.js';
import { emptyRecall, minimumInjectionBytes, packMemories, resolveBudgets } from './build.js';
import { escapeReminderContent, utf8Bytes } from './escape.js';
import { ageDays, attrs, escapedContent, Packer, preamble, type BlockDraft } from './render.js';
import { selectRelevantMemories } from './select.js';
import { RELATIVE_THRESHOLD } from './select-search.js';
import { sessionBytesLeft } from './session.js';
import { RECALL_LIMITS, type RecallOptions, type RecallResult } from './types.js';

/** The part of a palace recall needs (`openPalace()` returns one). */
export interface PalaceSearcher {
  search(query: string, opts?: SearchOptions): Promise<SearchResult>;
}

/** Options of {@link buildPromptContext}. */
export interface PromptContextOptions extends Omit<RecallOptions, 'dir'> {
  /** The user's prompt. */
  query: string;
  /** The memory directory (see `selectMemoryDir`). */
  memoryDir: string;
  /** The palace whose drawers are searched (its tunnels scope `project`). Default: none (memories only). */
  palace?: (PalaceSearcher & TunnelSource) | undefined;
  /** Most characters of the whole text. Default 10,000 (Claude Code's hook output cap); 200 … 1,000,000. */
  maxChars?: number | undefined;
  /** Palace drawers searched. Default 5; 0 … 20. */
  drawers?: number | undefined;
  /**
   * Most characters of one drawer's content: a longer drawer gives a verbatim excerpt around the prompt's words.
   * Default 800; 100 … 100,000.
   */
  drawerChars?: number | undefined;
  /**
   * The wings drawers come from: the project's wing and the wings its explicit tunnels reach.
   * Other wings only far above them (see the module comment). Default: every wing.
   */
  wings?: readonly string[] | undefined;
  /**
   * The session's working directory, when `wings` is not given: drawers come from its project's
   * wing (`projectWing`: the canonical git root's name, else the folder's) and the wings its
   * explicit tunnels reach ({@link recallWings}). Default: every wing.
   */
  project?: string | undefined;
  /** User-level memory directory searched after the project's (memories that follow the user). Default none. */
  userMemoryDir?: string | undefined;
  /**
   * The conversation the prompt belongs to: its drawers that are still in the agent's context — of
   * session `sessionId`, from `transcript` at or after line `fromLine` (the line of its last
   * compaction; 0: never compacted), or stored by the hooks without a source (its summaries) — are
   * not recalled: the agent reads them already. Earlier parts, which a compaction removed from the
   * context, still are. `fromLine` may be a function: it is called once, only when a hit comes from
   * that transcript (finding the line reads the transcript). Default: none.
   */
  liveConversation?:
    { transcript?: string | undefined; sessionId?: string | undefined; fromLine: number | (() => number) } | undefined;
  /**
   * Wrap the text in `<system-reminder>`. Default true. Hooks pass false: Claude Code wraps hook
   * output in its own reminder, and a nested one arrives escaped.
   */
  wrap?: boolean | undefined;
}

/** The part of a palace {@link recallWings} needs (`openPalace()` returns one). */
export interface TunnelSource {
  /** The tunnels without the graph (what `openPalace()` returns has it): preferred, the graph is not loaded. */
  tunnels?: (() => Promise<TunnelList>) | undefined;
  graph?: (() => Promise<{ tunnels: TunnelList }>) | undefined;
}

/** The part of a tunnel store {@link recallWings} reads. */
interface TunnelList {
  list(filter?: { wing?: string }): Promise<{ source: { wing: string }; target: { wing: string } }[]>;
}

/**
 * The wings recall draws drawers from for a project: its own wing and the wings its explicit
 * tunnels reach (either end). Never throws: without a graph, or when it fails, just the wing.
 */
export async function recallWings(palace: TunnelSource | undefined, wing: string): Promise<string[]> {
  const out = new Set([wing]);
  try {
    const tunnels = palace?.tunnels
      ? await palace.tunnels()
      : palace?.graph
        ? (await palace.graph()).tunnels
        : undefined;
    for (const t of (await tunnels?.list({ wing })) ?? []) {
      out.add(t.source.wing);
      out.add(t.target.wing);
    }
  } catch {
    // no graph: the project's wing only
  }
  return [...out];
}

/** A drawer of another project is recalled only at this multiple of the best in-project score or more. */
const FOREIGN_MARGIN = 2.5;
/** Share of the prompt's distinct search tokens a foreign drawer must hold when the project has no hit. */
const FOREIGN_COVERAGE = 0.75;
/** Most drawers of other projects per prompt. */
const FOREIGN_MAX = 2;

/** One palace drawer as injected. */
export interface RecalledDrawer {
  /** Drawer id (fetch the full text with it). */
  id: string;
  /** The drawer's wing (project, person, agent). */
  wing: string;
  /** The drawer's room (topic). */
  room: string;
  /** Where the text came from (file path, transcript), or null. */
  source: string | null;
  /** ISO date (content date, else filing date). */
  date: string;
  /** Whole days since `date`. */
  age_days: number;
  /** Fused search score. */
  score: number;
  /** UTF-8 bytes of its block. */
  bytes: number;
  /** The content was trimmed to `drawerChars` or to the space left. */
  truncated: boolean;
}

/** What {@link buildPromptContext} returns: a recall result plus drawers and the character count. */
export interface PromptContext extends RecallResult {
  drawers: RecalledDrawer[];
  /** Characters of `text` (≤ `maxChars`). */
  chars: number;
}

/** Share of the budget memories may take when drawers are also found. */
const MEMORY_SHARE = 0.6;

function inside(dir: string, path: string | null): boolean {
  if (!path || !isAbsolute(path)) return false;
  const rel = relative(dir, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

/** Most characters of a tool output line of a recalled conversation drawer that does not hold the prompt's words. */
const TOOL_LINE_CHARS = 120;
/** A tool result (`→ …`) or a tool call with a JSON input (`[TodoWrite] {…}`), as the miner writes them. */
const TOOL_OUTPUT = /^(?:→ |\[[^\]\n]{1,80}\] [{[])/;

/**
 * `text` with its long tool output lines cut to {@link TOOL_LINE_CHARS} characters, except those
 * holding one of the prompt's words: a directory listing or a todo list is rarely what a prompt
 * recalls a conversation for, and it would take most of the drawer's share. Prose, tool commands
 * and matching lines stay verbatim; the whole text is one `loci get` away.
 */
function shortenToolOutput(text: string, tokens: ReadonlySet<string>): string {
  if (!text.includes('→') && !text.includes('] {') && !text.includes('] [')) return text;
  return text
    .split('\n')
    .map((line) =>
      line.length <= TOOL_LINE_CHARS || !TOOL_OUTPUT.test(line) || matchSpans(line, tokens).length > 0
        ? line
        : `${line.slice(0, TOOL_LINE_CHARS - 1).trimEnd()}…`,
    )
    .join('\n');
}

/** Matched word spans of a text (`matchSpans` of `search`). */
type Spans = ReturnType<typeof matchSpans>;

/**
 * The prompt's matches outside tool output lines, when there are any (else all of them): the
 * excerpt of a long drawer is centred on what people said, not on a listing or a skill file that
 * repeats the prompt's words ("help me apply for the grant" above a tool result quoting "apply for grant").
 */
function proseFirst(text: string, spans: Spans): Spans {
  if (spans.length === 0) return spans;
  const tool: [number, number][] = [];
  for (let at = 0; at <= text.length;) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    if (TOOL_OUTPUT.test(text.slice(at, Math.min(end, at + 90)))) tool.push([at, end]);
    at = end + 1;
  }
  const prose = spans.filter((sp) => !tool.some(([a, b]) => sp.start >= a && sp.start < b));
  return prose.length ? prose : spans;
}

function drawerDraft(
  h: SearchHit,
  date: string,
  days: number,
  capBytes: number,
  capChars: number,
  tokens: ReadonlySet<string>,
): BlockDraft {
  const lines = h.lines ? `${h.lines[0]}-${h.lines[1]}` : undefined;
  const text = shortenToolOutput(h.text, tokens);
  // A long drawer gives the verbatim excerpt around the prompt's words, not its first characters.
  const ex = excerptChars(text, proseFirst(text, matchSpans(text, tokens)), Math.max(100, capChars - 80));
  const content = ex.cut
    ? `${ex.start > 0 ? '…' : ''}${ex.text}${ex.end < text.length ? '…' : ''}\n[excerpt of ${h.text.length} ` +
      `characters${text === h.text ? '' : ', tool output shortened'}; the whole text is drawer ${h.id}]`
    : text === h.text
      ? text
      : `${text}\n[tool output shortened; the whole text is drawer ${h.id}]`;
  return {
    head: `<drawer${attrs({
      id: h.id,
      source: h.source,
      lines,
      wing: h.wing,
      room: h.room,
      date: date.slice(0, 10),
      age_days: days,
    })}>\n`,
    content: escapedContent(content) || '(empty)',
    tail: '\n</drawer>',
    capBytes,
    capContentChars: capChars,
    note: escapeReminderContent(`[… trimmed; the full text is drawer ${h.id}${h.source ? ` from ${h.source}` : ''}]`),
  };
}

/** Share of the searched tokens (search's own: stop words dropped) found in `text`, and how many there are. */
function coverage(tokens: readonly string[], text: string): { share: number; tokens: number } {
  const q = new Set(tokens);
  if (q.size === 0) return { share: 0, tokens: 0 };
  const t = new Set(tokenize(text));
  let n = 0;
  for (const x of q) if (t.has(x)) n++;
  return { share: n / q.size, tokens: q.size };
}

/** Drawers of other wings that score far above the project (see the module comment). */
function foreignHits(
  o: PromptContextOptions,
  all: SearchResult,
  wings: ReadonlySet<string>,
  projectHasHits: boolean,
): SearchHit[] {
  const inAll = all.hits.filter((h) => wings.has(h.wing));
  const baseline = inAll.length
    ? Math.max(...inAll.map((h) => h.score))
    : projectHasHits
      ? (all.hits.at(-1)?.score ?? 0)
      : 0;
  return all.hits
    .filter((h) => !wings.has(h.wing) && h.score > 0 && h.score >= FOREIGN_MARGIN * baseline)
    .filter((h) => {
      if (baseline > 0) return true;
      const c = coverage(all.tokens.length ? all.tokens : tokenize(o.query), h.text);
      return c.tokens >= 2 && c.share >= FOREIGN_COVERAGE;
    })
    .slice(0, FOREIGN_MAX);
}

/**
 * A filter that keeps the first summary drawer of each session: a compaction summary is stored
 * twice — in parts, from the transcript, and whole, from the post-compact hook — and session notes
 * restate it; recalling two of them repeats the same text.
 */
function firstSummaryOfSession(): (h: SearchHit) => boolean {
  const seen = new Set<string>();
  return (h) => {
    const kind = h.metadata['kind'];
    if (h.hall !== 'summary' && kind !== 'summary' && kind !== 'compact-summary' && kind !== 'session-notes')
      return true;
    const session = h.metadata['sessionId'];
    const key = typeof session === 'string' && session ? session : (h.source ?? h.id);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
}

async function searchDrawers(o: PromptContextOptions, limit: number): Promise<{ hits: SearchHit[]; tokens: string[] }> {
  const none = { hits: [], tokens: [] };
  if (!o.palace || limit === 0 || o.query.trim() === '') return none;
  const live = o.liveConversation;
  let from: number | undefined;
  const fromLine = (l: NonNullable<typeof live>) =>
    (from ??= typeof l.fromLine === 'number' ? l.fromLine : l.fromLine());
  const inContext = (h: SearchHit): boolean => {
    if (!live?.sessionId || h.metadata['sessionId'] !== live.sessionId) return false;
    // Stored by the hooks without a source (compaction summary, session notes): the newest state.
    if (h.source === null) return true;
    return h.source === live.transcript && (!h.lines || h.lines[1] >= fromLine(live));
  };
  const fresh = (h: SearchHit) =>
    !inContext(h) &&
    !o.session?.drawers.has(h.id) &&
    !inside(o.memoryDir, h.source) &&
    !(o.userMemoryDir && inside(o.userMemoryDir, h.source));
  const strong = (hits: SearchHit[]) => {
    const best = hits[0]?.score ?? 0;
    return hits.filter((h) => h.score >= best * RELATIVE_THRESHOLD);
  };
  try {
    const scope =
      o.wings ?? (o.project !== undefined ? await recallWings(o.palace, projectWing(o.project)) : undefined);
    if (!scope) {
      const r = await o.palace.search(o.query, { limit });
      return { hits: strong(r.hits).filter(fresh).filter(firstSummaryOfSession()), tokens: r.tokens };
    }
    const wings = new Set(scope);
    const [mine, all] = await Promise.all([
      wings.size ? o.palace.search(o.query, { limit, wing: [...wings] }) : Promise.resolve(undefined),
      o.palace.search(o.query, { limit: Math.max(limit, 10) }),
    ]);
    const inScope = strong(mine?.hits ?? []);
    const foreign = foreignHits(o, all, wings, inScope.length > 0);
    const hits = [...inScope, ...foreign].filter(fresh).filter(firstSummaryOfSession());
    return { hits: hits.slice(0, limit + foreign.length), tokens: all.tokens };
  } catch (e) {
    o.logger?.log('warn', 'recall: palace search failed; memories only', { error: (e as Error)?.message ?? String(e) });
    return none;
  }
}

/**
 * True when the prompt holds a word worth searching: not a stop word ("why is that?", "what about
 * them?") and not small talk ("ok thanks"). A search for stop words alone ranks whatever says them
 * most, which is noise.
 */
function namesSomething(query: string): boolean {
  return query.split(/[^\p{L}\p{N}_]+/u).some((w) => w !== '' && !isStopword(w) && !isSmallTalk(w));
}

function clamp(v: number | undefined, def: number, min: number, max: number): number {
  return v === undefined || !Number.isFinite(v) ? def : Math.min(max, Math.max(min, Math.floor(v)));
}

/**
 * The memory files and palace drawers to inject for a prompt, as one `<system-reminder>` of at
 * most `maxChars` characters (default 10,000) and within the byte budgets (4 KB per block, 20 KB
 * per injection, 60 KB per session from `session.bytes`). Memories selected as in `buildRecall`
 * (search unless `provider` is given); drawers from `palace.search(query, { limit: 5 })`, minus
 * those already surfaced in the session or living in the memory directory, each with its id,
 * source, date and age, trimmed to `drawerChars`. When drawers are found, memories take at most
 * 60% of the space. Records nothing (see `recordSurfaced`). Never throws.
 */
export async function buildPromptContext(o: PromptContextOptions): Promise<PromptContext> {
  const none = (r: RecallResult): PromptContext => ({ ...r, drawers: [], chars: r.text.length });
  try {
    const now = (o.clock ?? systemClock).now();
    const budgets = resolveBudgets(o.budgets);
    const maxChars = clamp(o.maxChars, RECALL_LIMITS.hookChars, 200, 1_000_000);
    const left = sessionBytesLeft(o.session, budgets);
    if (left < minimumInjectionBytes(true)) {
      return none(
        emptyRecall(
          'search',
          `the session recall budget is spent (${o.session?.bytes ?? 0} of ${budgets.sessionBytes} bytes)`,
        ),
      );
    }
    if (!namesSomething(o.query)) return none(emptyRecall('search', 'the prompt names nothing to look up'));
    const [sel, userSel, found] = await Promise.all([
      selectRelevantMemories(o.query, { ...o, dir: o.memoryDir, alreadySurfaced: o.session?.surfaced }),
      o.userMemoryDir && o.userMemoryDir !== o.memoryDir
        ? selectRelevantMemories(o.query, { ...o, dir: o.userMemoryDir, alreadySurfaced: o.session?.surfaced })
        : Promise.resolve(undefined),
      searchDrawers(o, clamp(o.drawers, RECALL_LIMITS.drawerHits, 0, 20)),
    ]);
    const userFiles = userSel?.files ?? [];
    const hits = found.hits;
    const tokens = new Set(found.tokens);
    if (sel.files.length === 0 && userFiles.length === 0 && hits.length === 0)
      return none(emptyRecall(sel.selector, sel.reason));
    const maxBytes = Math.min(budgets.turnBytes, left);
    const packer = new Packer(
      preamble({ memories: sel.files.length + userFiles.length > 0, drawers: hits.length > 0 }),
      maxBytes,
      maxChars,
      o.wrap ?? true,
    );
    const share = hits.length ? Math.floor(MEMORY_SHARE * Math.min(maxBytes, maxChars)) : Infinity;
    const projectPacked = packMemories(packer, o.memoryDir, sel.files, {
      now,
      fileBytes: budgets.fileBytes,
      shareBytes: share,
    });
    const usedShare = projectPacked.memories.reduce((a, m) => a + m.bytes, 0);
    const userPacked =
      o.userMemoryDir && userFiles.length
        ? packMemories(packer, o.userMemoryDir, userFiles, {
            now,
            fileBytes: budgets.fileBytes,
            shareBytes: share - usedShare,
          })
        : { memories: [], omitted: [] };
    const packed = {
      memories: [...projectPacked.memories, ...userPacked.memories],
      omitted: [...projectPacked.omitted, ...userPacked.omitted],
    };
    const drawerChars = clamp(o.drawerChars, RECALL_LIMITS.drawerChars, 100, 100_000);
    const drawers: RecalledDrawer[] = [];
    for (const h of hits) {
      const date = h.contentDate ?? h.filedAt;
      const days = ageDays(date, now);
      const fitted = packer.add(drawerDraft(h, date, days, budgets.fileBytes, drawerChars, tokens));
      if (!fitted) continue;
      const excerpted = h.text.length > Math.max(100, drawerChars - 80);
      drawers.push({
        id: h.id,
        wing: h.wing,
        room: h.room,
        source: h.source,
        date,
        age_days: days,
        score: h.score,
        bytes: fitted.bytes,
        truncated: fitted.truncated || excerpted,
      });
    }
    const { text, kept } = packer.finish();
    const memories = packed.memories.slice(0, kept);
    const keptDrawers = drawers.slice(0, Math.max(0, kept - packed.memories.length));
    const omitted = [...packed.omitted, ...packed.memories.slice(kept).map((m) => m.file)];
    const reason = [
      sel.reason,
      omitted.length
        ? `${omitted.length} selected ${omitted.length === 1 ? 'memory' : 'memories'} left out (budget or missing file)`
        : undefined,
    ]
      .filter(Boolean)
      .join('; ');
    return {
      memories,
      drawers: keptDrawers,
      text,
      selector: sel.selector,
      bytes: utf8Bytes(text),
      chars: text.length,
      omitted,
      ...(reason ? { reason } : {}),
    };
  } catch (e) {
    o.logger?.log('error', 'recall: building the prompt context failed', { error: (e as Error)?.message ?? String(e) });
    return none(emptyRecall('search', `recall failed: ${(e as Error)?.message ?? String(e)}`));
  }
}
