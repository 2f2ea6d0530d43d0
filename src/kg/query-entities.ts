/**
 * @module kg/query-entities
 * Finds the entities named in a search query, for boosting the drawers linked to them
 * (`GraphStore.drawersForEntities`). Every run of 1–`maxWords` words (and every `@handle`,
 * backticked token or path) is resolved by name or alias; runs made only of stop words are skipped,
 * and a longer match wins over the words inside it ("Dr Chen" over "Chen").
 */
import { isStopword } from '../text/index.js';
import type { Entity, GraphStore } from './types.js';

/** Options of {@link queryEntities}. */
export interface QueryEntitiesOptions {
  /** Longest run of words tried as one name, 1–6. Default 3. */
  maxWords?: number;
  /** Most entities returned. Default 10. */
  limit?: number;
}

const WORD = /[@`]?[\p{L}\p{N}][\p{L}\p{M}\p{N}'’._/#+-]*`?/gu;

/** The candidate names of a query: word runs, longest first, without stop-word-only runs. */
export function nameCandidates(query: string, maxWords = 3): { name: string; from: number; to: number }[] {
  const words = [...query.matchAll(WORD)].map((m) => m[0].replace(/^`|`$/g, '').replace(/[.'’]+$/, '')).filter(Boolean);
  const out: { name: string; from: number; to: number }[] = [];
  const n = Math.max(1, Math.min(6, maxWords));
  for (let len = Math.min(n, words.length); len >= 1; len--) {
    for (let i = 0; i + len <= words.length; i++) {
      const run = words.slice(i, i + len);
      if (run.every((w) => isStopword(w))) continue;
      if (len === 1 && run[0]!.length < 2) continue;
      out.push({ name: run.join(' '), from: i, to: i + len });
    }
  }
  return out;
}

/**
 * The entities a query names, longest matches first; words inside a matched run are not tried
 * again. One `resolveEntity` per candidate (a query of 8 words costs at most 21 lookups).
 */
export async function queryEntities(
  graph: GraphStore,
  query: string,
  opts: QueryEntitiesOptions = {},
): Promise<Entity[]> {
  const limit = opts.limit ?? 10;
  const used = new Set<number>();
  const found = new Map<string, Entity>();
  for (const c of nameCandidates(query, opts.maxWords ?? 3)) {
    if (found.size >= limit) break;
    let overlap = false;
    for (let i = c.from; i < c.to; i++) if (used.has(i)) overlap = true;
    if (overlap) continue;
    const e = await graph.resolveEntity(c.name);
    if (!e) continue;
    for (let i = c.from; i < c.to; i++) used.add(i);
    if (!found.has(e.id)) found.set(e.id, e);
  }
  return [...found.values()];
}
