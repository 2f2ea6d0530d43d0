/**
 * @module ui/api
 * The read and write operations behind `loci ui`'s HTTP API, each a thin call into the library
 * (palace, memdir, recall, wakeup, hooks) returning a shape of `ui/api-types.ts`. No SQL, no
 * ranking: the palace searches and pages, memdir validates and writes atomically, the graph closes
 * and states facts. Large palaces are paged (offset/limit), never loaded whole.
 */
import {
  buildPromptContext,
  createError,
  editMemory,
  estimateTokens,
  excerptChars,
  findMemory,
  forgetMemory,
  invalidMemoryFiles,
  listMemories,
  loadMemoryIndex,
  matchSpans,
  MEMORY_LIMITS,
  selectMemoryDir,
  wakeUp,
  type Drawer,
  type Env,
  type MemoryDirChoice,
  type Palace,
  type SearchOptions,
} from '../internal.js';
import { hookActivity } from '../hooks/index.js';
import type {
  CorrectBody,
  DrawerPage,
  DrawerSummary,
  DrawerView,
  HookView,
  InvalidateBody,
  KgIndex,
  KgView,
  MemoryBudget,
  MemoryEditBody,
  MemoryList,
  MemoryView,
  MemoryWriteAnswer,
  PalaceTree,
  RecallView,
  StatusView,
  UiHit,
  UiSearchResult,
  WakeUpView,
} from './api-types.js';

/** What every operation needs: the open palace and where the server runs. */
export interface ApiContext {
  palace: Palace;
  env: Env;
  /** The folder `loci ui` was started in (names the project for memory files, wake-up and recall). */
  cwd: string;
}

/** Characters of a search hit's excerpt. */
const EXCERPT_CHARS = 600;
/** Most drawers of a session's timeline. */
const TIMELINE_MAX = 400;

/** A drawer's listing form: metadata and a one-line preview. */
export function summary(d: Drawer): DrawerSummary {
  const { text, metadata: _m, sourceHash: _h, sourceMtime: _t, addedBy: _a, contentHash: _c, ...place } = d;
  const first = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return { ...place, chars: text.length, bytes: Buffer.byteLength(text, 'utf8'), preview: first.trim().slice(0, 160) };
}

/** A whole number parameter within [min, max], or `fallback` when absent (INVALID_ARGUMENT otherwise). */
function intParam(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw createError('INVALID_ARGUMENT', { name, value: raw, expected: `a whole number from ${min} to ${max}` });
  return n;
}

/** The wings (most drawers first) and their rooms (the same), with counts and sizes: one GROUP BY in `status()`. */
export async function palaceTree(ctx: ApiContext): Promise<PalaceTree> {
  const s = await ctx.palace.status();
  return {
    drawers: s.drawers,
    bytes: s.textBytes.total,
    wings: Object.entries(s.wings).map(([name, drawers]) => ({
      name,
      drawers,
      bytes: s.textBytes.wings[name] ?? 0,
      rooms: Object.entries(s.rooms[name] ?? {})
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .map(([room, n]) => ({ name: room, drawers: n, bytes: s.textBytes.rooms[name]?.[room] ?? 0 })),
    })),
  };
}

export async function drawerPage(
  ctx: ApiContext,
  q: { wing?: string; room?: string; offset?: string; limit?: string },
): Promise<DrawerPage> {
  const offset = intParam('offset', q.offset, 0, 0, 100_000_000);
  const limit = intParam('limit', q.limit, 50, 1, 200);
  const r = await ctx.palace.listDrawers(
    { ...(q.wing ? { wing: q.wing } : {}), ...(q.room ? { room: q.room } : {}) },
    { offset, limit, order: 'source' },
  );
  return {
    drawers: r.drawers.map(summary),
    total: r.total,
    offset,
    limit,
    next: offset + r.drawers.length < r.total ? offset + r.drawers.length : null,
  };
}

export async function drawerView(ctx: ApiContext, id: string): Promise<DrawerView> {
  const drawer = await ctx.palace.get(id);
  if (!drawer) throw createError('DRAWER_NOT_FOUND', { id });
  const neighbours = (await ctx.palace.neighbours(id, 2)).filter((d) => d.id !== id).map(summary);
  let timeline: DrawerSummary[] | null = null;
  if (drawer.source && typeof drawer.metadata.exchangeId === 'string') {
    const r = await ctx.palace.listDrawers({ source: drawer.source }, { order: 'source', limit: TIMELINE_MAX });
    const conv = drawer.metadata.conversationId;
    timeline = r.drawers.filter((d) => d.metadata.conversationId === conv).map(summary);
  }
  const facts = await (await ctx.palace.graph()).graph.factsForDrawer(id);
  return { drawer, neighbours, timeline, facts };
}

export async function search(
  ctx: ApiContext,
  q: { q?: string; wing?: string; room?: string; hall?: string; since?: string; until?: string; limit?: string },
): Promise<UiSearchResult> {
  const query = (q.q ?? '').trim();
  if (!query) return { query: '', tokens: [], hits: [], signals: [], tookMs: 0 };
  const opts: SearchOptions = {
    limit: intParam('limit', q.limit, 20, 1, 100),
    explain: true,
    ...(q.wing ? { wing: q.wing } : {}),
    ...(q.room ? { room: q.room } : {}),
    ...(q.hall ? { hall: q.hall } : {}),
    ...(q.since ? { since: q.since } : {}),
    ...(q.until ? { until: q.until } : {}),
  };
  const r = await ctx.palace.search(query, opts);
  const tokens = new Set(r.tokens);
  return {
    ...r,
    hits: r.hits.map(({ text, context: _context, ...hit }): UiHit => {
      const ex = excerptChars(text, matchSpans(text, tokens), EXCERPT_CHARS);
      const spans = matchSpans(ex.text, tokens).map((s): [number, number] => [s.start, s.end]);
      return { ...hit, excerpt: ex.text, spans, chars: text.length };
    }),
  };
}

export async function kgIndex(ctx: ApiContext, q: { prefix?: string; cursor?: string }): Promise<KgIndex> {
  const g = (await ctx.palace.graph()).graph;
  const page = await g.entities({ limit: 100, cursor: q.cursor || null, ...(q.prefix ? { prefix: q.prefix } : {}) });
  return { stats: await g.stats(), entities: page.items, next: page.nextCursor };
}

export async function kgView(ctx: ApiContext, name: string, asOf: string | undefined): Promise<KgView> {
  const g = (await ctx.palace.graph()).graph;
  const entity = (await g.resolveEntity(name)) ?? null;
  if (!entity) return { entity: null, timeline: [], more: false, validIds: [], asOf: asOf ?? null, sources: {} };
  const page = await g.timeline(entity.id, { limit: 500, cursor: null });
  const valid = await g.query(entity.id, { direction: 'both', ...(asOf ? { asOf } : {}) });
  const ids = [...new Set(page.items.flatMap((f) => f.sources))].slice(0, 200);
  const drawers = ids.length ? (await ctx.palace.listDrawers({ ids }, { limit: ids.length })).drawers : [];
  return {
    entity,
    timeline: page.items,
    more: page.nextCursor !== null,
    validIds: valid.map((f) => f.id),
    asOf: asOf ?? null,
    sources: Object.fromEntries(drawers.map((d) => [d.id, `${d.wing}/${d.room}: ${summary(d).preview}`])),
  };
}

export async function invalidateFact(ctx: ApiContext, b: InvalidateBody) {
  const g = (await ctx.palace.graph()).graph;
  return { closed: await g.invalidate(b.subject, b.predicate, b.object, b.ended ? { ended: b.ended } : {}) };
}

/** Closes `subject predicate object` at `ended` (default now) and states `subject predicate newObject` from then. */
export async function correctFact(ctx: ApiContext, b: CorrectBody) {
  const g = (await ctx.palace.graph()).graph;
  const closed = await g.invalidate(b.subject, b.predicate, b.object, b.ended ? { ended: b.ended } : {});
  const from = b.ended ?? closed[0]?.validTo ?? undefined;
  const fact = await g.addFact({
    subject: b.subject,
    predicate: b.predicate,
    object: b.newObject,
    ...(b.literal ? { literal: true } : {}),
    ...(from ? { validFrom: from } : {}),
    sources: [...new Set(closed.flatMap((f) => f.sources))],
  });
  return { closed, fact };
}

function memoryChoice(ctx: ApiContext): MemoryDirChoice {
  return selectMemoryDir({ cwd: ctx.cwd, env: ctx.env, lociHome: ctx.palace.home });
}

function budget(dir: string): MemoryBudget {
  const loaded = loadMemoryIndex(dir);
  return {
    file: loaded.file,
    exists: loaded.exists,
    lines: loaded.lines,
    bytes: loaded.bytes,
    maxLines: MEMORY_LIMITS.indexLines,
    maxBytes: MEMORY_LIMITS.indexBytes,
    truncated: loaded.truncated,
  };
}

/** The memory folder in use and why (for the session info). */
export function memoryWhere(ctx: ApiContext): { dir: string; kind: string } {
  const c = memoryChoice(ctx);
  return { dir: c.dir, kind: c.kind };
}

export function memoryList(ctx: ApiContext): MemoryList {
  const c = memoryChoice(ctx);
  const all = listMemories(c.dir);
  return {
    dir: c.dir,
    kind: c.kind,
    memories: [...all.filter((m) => m.pinned), ...all.filter((m) => !m.pinned)],
    budget: budget(c.dir),
    invalid: invalidMemoryFiles(c.dir).map((f) => ({ path: f.path, reason: f.reason })),
  };
}

export function memoryView(ctx: ApiContext, name: string): MemoryView {
  const dir = memoryChoice(ctx).dir;
  return { memory: findMemory(dir, name) };
}

export function memoryEdit(ctx: ApiContext, name: string, b: MemoryEditBody): MemoryWriteAnswer {
  const dir = memoryChoice(ctx).dir;
  const r = editMemory(dir, name, {
    ...(typeof b.description === 'string' ? { description: b.description } : {}),
    ...(typeof b.body === 'string' ? { body: b.body } : {}),
    ...(typeof b.type === 'string' ? { type: b.type } : {}),
    ...(typeof b.privacy === 'string' ? { privacy: b.privacy } : {}),
    ...(typeof b.pinned === 'boolean' ? { pinned: b.pinned } : {}),
  });
  return { memory: r.memory, changed: r.changed, index: r.index, budget: budget(dir) };
}

export function memoryForget(ctx: ApiContext, name: string): MemoryWriteAnswer {
  const dir = memoryChoice(ctx).dir;
  const r = forgetMemory(dir, name);
  return { memory: r.memory, changed: true, index: r.index, budget: budget(dir) };
}

export async function wakeUpView(ctx: ApiContext, wing: string | undefined): Promise<WakeUpView> {
  return wakeUp({ palace: ctx.palace, cwd: ctx.cwd, env: ctx.env, ...(wing ? { wing } : {}) });
}

/** What the user-prompt-submit hook would inject for `prompt` (memories and drawers; nothing recorded). */
export async function recallView(ctx: ApiContext, prompt: string): Promise<RecallView> {
  const c = memoryChoice(ctx);
  const r = await buildPromptContext({
    query: prompt,
    memoryDir: c.dir,
    userMemoryDir: c.userDir,
    palace: ctx.palace,
    project: ctx.cwd,
    wrap: false,
  });
  return {
    text: r.text,
    tokens: estimateTokens(r.text),
    bytes: r.bytes,
    selector: r.selector,
    reason: r.reason ?? null,
    memories: r.memories.map((m) => ({ file: m.file, name: m.name, type: m.type })),
    drawers: r.drawers.map((d) => ({ id: d.id, wing: d.wing, room: d.room })),
  };
}

export async function hooksView(ctx: ApiContext): Promise<HookView> {
  return hookActivity(ctx.palace.home, 100);
}

const VECTORS_OFF = /^(off\b|vectors are off|no vectors|vectors were built)|unavailable/i;

export async function statusView(ctx: ApiContext): Promise<StatusView> {
  const status = await ctx.palace.status();
  const months = await drawersPerMonth(ctx.palace);
  return {
    status,
    vectors: { on: !VECTORS_OFF.test(status.index.vectors), why: status.index.vectors },
    ...months,
  };
}

/** Drawers per month of content date, counted with one paged listing per month (at most 36 months). */
async function drawersPerMonth(palace: Palace): Promise<Pick<StatusView, 'overTime' | 'undated'>> {
  const dated = await palace.listDrawers({ since: '0001-01-01' }, { order: 'date', limit: 1 });
  const all = await palace.listDrawers({}, { limit: 1 });
  const undated = all.total - dated.total;
  if (dated.total === 0) return { overTime: [], undated };
  const newest = dated.drawers[0]!.contentDate!;
  const oldest = (
    await palace.listDrawers({ since: '0001-01-01' }, { order: 'date', limit: 1, offset: dated.total - 1 })
  ).drawers[0]!.contentDate!;
  let y = Number(newest.slice(0, 4));
  let m = Number(newest.slice(5, 7));
  const first = oldest.slice(0, 7);
  const overTime: StatusView['overTime'] = [];
  for (let i = 0; i < 36; i++) {
    const month = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}`;
    const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
    const r = await palace.listDrawers({ since: `${month}-01`, until: `${month}-${last}` }, { limit: 1 });
    overTime.push({ month, drawers: r.total });
    if (month <= first) break;
    m -= 1;
    if (m === 0) {
      m = 12;
      y -= 1;
    }
  }
  return { overTime: overTime.reverse(), undated };
}
