/**
 * @module recall/select-search
 * The selector that needs no model: Loci's hybrid search over the memory files themselves. Each
 * file becomes one drawer of an in-memory store (name, description and body; the file name as
 * hidden index words; `modified` as its content date, so "last week" works), and the hits that
 * score at least {@link RELATIVE_THRESHOLD} of the best one are kept.
 *
 * The store and search modules are imported on first use, keeping recall's start-up light.
 */
import type { Memory } from '../memdir/index.js';

/** A hit is kept when its fused score is at least this fraction of the best hit's. */
export const RELATIVE_THRESHOLD = 0.4;
/** Body characters indexed per memory file (the start of a long file says what it is about). */
const INDEX_BODY_CHARS = 16_000;

/** One file found by search, with its fused score. */
interface SearchSelection {
  file: string;
  score: number;
}

/**
 * The memory files most relevant to `query`, best first, at most `max`, each scoring at least
 * `threshold` × the best score. Throws only when the store or search itself fails.
 */
export async function searchMemoryFiles(
  query: string,
  memories: readonly Memory[],
  max: number,
  threshold = RELATIVE_THRESHOLD,
): Promise<SearchSelection[]> {
  if (memories.length === 0 || query.trim() === '') return [];
  const [{ createMemoryStore }, { searchHybrid }] = await Promise.all([
    import('../store/index.js'),
    import('../search/index.js'),
  ]);
  const store = createMemoryStore();
  await store.init();
  await store.put(
    memories.map((m) => ({
      id: `memory:${m.file}`,
      wing: 'memory',
      room: m.type ?? 'untyped',
      source: m.file,
      contentDate: m.modified,
      text:
        [m.title, m.description, m.body.slice(0, INDEX_BODY_CHARS)].filter((s) => s.trim() !== '').join('\n') || m.file,
      indexExtra: `${m.name} ${m.file.replace(/\.md$/i, '').replace(/[_/-]+/g, ' ')}`,
    })),
  );
  const res = await searchHybrid({ store }, query, { limit: Math.min(100, Math.max(max * 4, 10)) });
  const best = res.hits[0]?.score ?? 0;
  if (best <= 0) return [];
  return res.hits
    .filter((h) => h.score >= best * threshold && h.source !== null)
    .slice(0, max)
    .map((h) => ({ file: h.source!, score: h.score }));
}
