/**
 * @module search/search
 * Pieces of the search path shared by hybrid search: options → store filter, drawer → hit, and
 * neighbours of hits. (BM25-only search is `searchHybrid` with `mode: 'lexical'`.)
 */
import type { Drawer, DrawerFilter, MemoryStore } from '../store/ports.js';
import type { SearchHit, SearchOptions } from './types.js';

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
