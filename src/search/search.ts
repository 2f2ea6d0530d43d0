/**
 * @module search/search
 * The search path shared by the CLI, the library and the MCP server: BM25 over the whole corpus
 * (filters pushed into the store), then hydration of only the returned hits.
 */
import { createError } from '../core/errors.js';
import type { Drawer, DrawerFilter, MemoryStore } from '../store/ports.js';
import { queryTokens } from '../text/index.js';
import type { SearchHit, SearchOptions, SearchResult } from './types.js';

/** What the search path needs. */
export interface SearchDeps {
  store: MemoryStore;
}

/** Splits search options into the store filter. */
export function filterOf(o: SearchOptions): DrawerFilter | undefined {
  const f: DrawerFilter = {};
  if (o.wing !== undefined) f.wing = o.wing;
  if (o.room !== undefined) f.room = o.room;
  if (o.hall !== undefined) f.hall = o.hall;
  if (o.source !== undefined) f.source = o.source;
  if (o.since !== undefined) f.since = o.since;
  if (o.until !== undefined) f.until = o.until;
  if (o.ids !== undefined) f.ids = o.ids;
  return Object.keys(f).length ? f : undefined;
}

function checkRange(name: string, v: number, min: number, max: number): void {
  if (!Number.isInteger(v) || v < min || v > max) {
    throw createError('INVALID_ARGUMENT', { name, value: v, expected: `an integer from ${min} to ${max}` });
  }
}

/** Turns a stored drawer into a hit. */
export function toHit(d: Drawer, score: number): SearchHit {
  return {
    id: d.id,
    wing: d.wing,
    room: d.room,
    hall: d.hall,
    source: d.source,
    lines: d.lineStart !== null && d.lineEnd !== null ? [d.lineStart, d.lineEnd] : null,
    score,
    text: d.text,
    contentDate: d.contentDate,
    filedAt: d.filedAt,
    metadata: d.metadata,
  };
}

/** Adds ±n neighbours to each hit. */
export async function attachContext(store: MemoryStore, hits: SearchHit[], n: number): Promise<void> {
  if (n <= 0) return;
  for (const h of hits) {
    h.context = (await store.neighbours(h.id, n)).filter((d) => d.id !== h.id);
  }
}

/** Plain BM25 search (the `lexical` mode, and the fallback of hybrid search). */
export async function searchLexical(deps: SearchDeps, query: string, opts: SearchOptions = {}): Promise<SearchResult> {
  const t0 = performance.now();
  const limit = opts.limit ?? 10;
  checkRange('limit', limit, 1, 100);
  const context = opts.context ?? 0;
  checkRange('context', context, 0, 10);
  const tokens = queryTokens(query);
  const lex = tokens.length ? await deps.store.searchLexical(tokens, filterOf(opts), limit) : [];
  const drawers = await deps.store.getMany(lex.map((h) => h.id));
  const byId = new Map(drawers.map((d) => [d.id, d]));
  const hits: SearchHit[] = [];
  lex.forEach((h, i) => {
    const d = byId.get(h.id);
    if (!d) return;
    const hit = toHit(d, h.score);
    if (opts.explain) {
      hit.explain = { signals: { bm25: { rank: i + 1, score: h.score, contribution: h.score } }, fused: h.score };
    }
    hits.push(hit);
  });
  await attachContext(deps.store, hits, context);
  return { query, tokens, hits, signals: ['bm25'], tookMs: performance.now() - t0 };
}
