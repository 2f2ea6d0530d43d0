/**
 * @module search/duplicates
 * "Is this text already stored?" before filing it: exact copies (the store's content hash) and
 * near-copies — among the 5 closest lexical hits, drawers whose word set is at least `threshold`
 * similar (Jaccard similarity of `tokenize` sets, rounded to 3 decimals). Used by the MCP tool
 * `loci_check_duplicate`.
 */
import type { Drawer } from '../store/ports.js';
import { tokenize } from '../text/index.js';
import type { SearchOptions, SearchResult } from './types.js';

/** The part of a palace {@link checkDuplicate} needs (`openPalace()` returns one). */
export interface DuplicateSource {
  findDuplicates(text: string): Promise<Drawer[]>;
  search(query: string, opts?: SearchOptions): Promise<SearchResult>;
  get(id: string): Promise<Drawer | undefined>;
}

/** Options of {@link checkDuplicate}. */
export interface DuplicateOptions {
  /** Similarity (0 … 1) at which a drawer counts as a near-copy. Default 0.9. */
  threshold?: number | undefined;
  /** Only drawers of this wing. Default: every wing. */
  wing?: string | undefined;
}

/** What {@link checkDuplicate} found. */
export interface DuplicateCheck {
  /** Drawers holding exactly this text. */
  exact: Drawer[];
  /** Other drawers at or above the threshold, closest search hit first. */
  similar: { drawer: Drawer; similarity: number }[];
}

/** Jaccard similarity of two token sets (1 for two empty sets). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let inter = 0;
  for (const t of a) if (b.has(t)) inter++;
  return inter / (a.size + b.size - inter);
}

/** Exact and near copies of `content` already stored (see the module comment). */
export async function checkDuplicate(
  src: DuplicateSource,
  content: string,
  opts: DuplicateOptions = {},
): Promise<DuplicateCheck> {
  const threshold = opts.threshold ?? 0.9;
  const exact = (await src.findDuplicates(content)).filter((d) => !opts.wing || d.wing === opts.wing);
  const seen = new Set(exact.map((d) => d.id));
  const mine = new Set(tokenize(content));
  const similar: DuplicateCheck['similar'] = [];
  if (mine.size > 0) {
    const r = await src.search(content.slice(0, 1000), {
      limit: 5,
      mode: 'lexical',
      ...(opts.wing ? { wing: opts.wing } : {}),
    });
    for (const h of r.hits) {
      if (seen.has(h.id)) continue;
      const similarity = Math.round(jaccard(mine, new Set(tokenize(h.text))) * 1000) / 1000;
      if (similarity < threshold) continue;
      const drawer = await src.get(h.id);
      if (drawer) similar.push({ drawer, similarity });
    }
  }
  return { exact, similar };
}
