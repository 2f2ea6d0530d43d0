/**
 * @module test/helpers/ranking
 * Small builders for tests of the ranking core (`src/search`) on the in-memory store: a store
 * filled with given drawers, a vector searcher over the weights-free hash embedder (wired as the
 * palace wires it), generated corpora and queries for property tests, and comparisons of result
 * orders that hold whatever the tuning of the weights.
 */
import fc from 'fast-check';
import { createHashEmbedder } from '../../src/embed/hash-embedder.js';
import type { SearchResult, VectorSearcher } from '../../src/search/index.js';
import {
  createMemoryStore,
  createMemoryVectorStore,
  type DrawerFilter,
  type DrawerInput,
  type MemoryStore,
} from '../../src/store/index.js';

/** A fixed "now" for every store and clock of these tests: 2026-12-01T12:00Z. */
export const NOW = Date.UTC(2026, 11, 1, 12);

/** An in-memory store holding `drawers` (in this order). */
export async function storeOf(drawers: readonly DrawerInput[]): Promise<MemoryStore> {
  const store = createMemoryStore({ now: () => NOW });
  await store.init();
  if (drawers.length) await store.put(drawers);
  return store;
}

/** A vector searcher over every drawer of `store`, embedded with the hash embedder. */
export async function hashVectors(store: MemoryStore): Promise<VectorSearcher> {
  const e = createHashEmbedder();
  await e.init();
  const vs = createMemoryVectorStore(store);
  await vs.useModel(e.id, e.dims);
  for (;;) {
    const batch = await vs.pending(64);
    if (!batch.length) break;
    const vecs = await e.embed(
      batch.map((d) => d.text),
      { kind: 'document' },
    );
    await vs.upsert(batch.map((d, i) => ({ id: d.id, vector: vecs[i]! })));
  }
  return {
    id: e.id,
    async knn(query, filter, k) {
      const [q] = await e.embed([query], { kind: 'query' });
      if (!q || q.every((x) => x === 0)) return [];
      const wings =
        filter?.wing === undefined ? undefined : typeof filter.wing === 'string' ? [filter.wing] : filter.wing;
      return vs.knn(q, k, wings);
    },
  };
}

/** Hit ids in result order. */
export const ids = (r: SearchResult): string[] => r.hits.map((h) => h.id);

/** `a` restricted to the ids also in `b`, in `a`'s order. */
export const onlyIn = (a: readonly string[], b: readonly string[]): string[] => a.filter((id) => b.includes(id));

/** Fused score of each hit, by id. */
export const scores = (r: SearchResult): Map<string, number> => new Map(r.hits.map((h) => [h.id, h.score]));

/** Words of the generated corpora (none a stopword; two name rooms). */
export const VOCAB = [
  'redis',
  'limiter',
  'deploy',
  'auth',
  'token',
  'cache',
  'schema',
  'migration',
  'queue',
  'worker',
  'pipeline',
  'invoice',
] as const;
/** Rooms of the generated corpora: two are query words, one never is. */
export const ROOMS = ['auth', 'deploy', 'misc'] as const;
const WINGS = ['alpha', 'beta'] as const;
const HALLS = [null, 'facts', 'events'] as const;
const SOURCES = [null, 's1', 's2', 's3'] as const;

/** A date-time inside 2022 (noon UTC of a day), or null. */
const dateArb = fc.option(
  fc.integer({ min: 0, max: 364 }).map((d) => new Date(Date.UTC(2022, 0, 1, 12) + d * 86_400_000).toISOString()),
  { nil: null },
);

/** Generated drawers: 1–20 drawers of 2–8 vocabulary words over wings, rooms, halls, sources and dates. */
export const corpusArb: fc.Arbitrary<DrawerInput[]> = fc
  .array(
    fc.record({
      words: fc.array(fc.constantFrom(...VOCAB), { minLength: 2, maxLength: 8 }),
      wing: fc.constantFrom(...WINGS),
      room: fc.constantFrom(...ROOMS),
      hall: fc.constantFrom(...HALLS),
      source: fc.constantFrom(...SOURCES),
      contentDate: dateArb,
    }),
    { minLength: 1, maxLength: 20 },
  )
  .map((rows) => {
    const chunk = new Map<string, number>();
    return rows.map((r, i): DrawerInput => {
      const n = r.source === null ? 0 : (chunk.get(r.source) ?? 0);
      if (r.source !== null) chunk.set(r.source, n + 1);
      return {
        id: `d${String(i).padStart(2, '0')}`,
        wing: r.wing,
        room: r.room,
        hall: r.hall,
        source: r.source,
        chunkIndex: n,
        contentDate: r.contentDate,
        text: r.words.join(' '),
      };
    });
  });

/** Generated queries: 1–3 vocabulary words, sometimes with a time cue ("in July 2022"). */
export const queryArb: fc.Arbitrary<string> = fc
  .tuple(
    fc.array(fc.constantFrom(...VOCAB), { minLength: 1, maxLength: 3 }),
    fc.constantFrom('', ' in July 2022', ' on 3 March 2022'),
  )
  .map(([w, cue]) => w.join(' ') + cue);

/** Generated filters over the corpus fields (each condition present or not). */
export const filterArb: fc.Arbitrary<DrawerFilter> = fc.record(
  {
    wing: fc.constantFrom(...WINGS),
    room: fc.constantFrom(...ROOMS),
    hall: fc.constantFrom('facts', 'events'),
    since: fc.constantFrom('2022-03-01', '2022-07-01'),
    until: fc.constantFrom('2022-07-31', '2022-12-31'),
  },
  { requiredKeys: [] },
);

/** Whether drawer fields satisfy `f`, written independently of the store (bare `until` dates include the day). */
export function satisfies(
  d: { wing: string; room: string; hall: string | null; contentDate: string | null },
  f: DrawerFilter,
): boolean {
  if (f.wing !== undefined && d.wing !== f.wing) return false;
  if (f.room !== undefined && d.room !== f.room) return false;
  if (f.hall !== undefined && d.hall !== f.hall) return false;
  if (f.since !== undefined && (d.contentDate === null || d.contentDate.slice(0, 10) < f.since)) return false;
  if (f.until !== undefined && (d.contentDate === null || d.contentDate.slice(0, 10) > f.until)) return false;
  return true;
}
