/**
 * @module search/expand
 * Query expansion for words the palace (nearly) lacks. A person asks weeks later in their own
 * words — *diary* for a `JOURNAL.md`, *reply* for a response — and BM25 cannot match a word that
 * no drawer holds. For each content word of the query found in at most `maxDf` drawers, the
 * related words of its most frequent WordNet sense (synonyms and derivational forms, see
 * `wordnet.ts`, capped per word) are searched as well, at a reduced weight, added to the query's
 * own words and never replacing them. The WordNet index is imported and loaded only when a query
 * has such a word, so a query whose words are all common costs one small lookup per word.
 */
import type { DrawerFilter, LexicalHit, MemoryStore } from '../store/ports.js';
import { isStopword, queryTokens } from '../text/index.js';
import type { Lexicon } from './wordnet.js';

/** Settings of {@link expandQuery}. */
export interface ExpandParams {
  /** Expand a word found in at most this many drawers. */
  maxDf: number;
  /** Related words kept per expanded word. */
  cap: number;
  /** Folder for the cached WordNet index (none: built in memory each process). */
  cacheDir?: string;
  /** Loads the index (tests pass a fixture); default: the installed WordNet database. */
  lexicon?: () => Lexicon | Promise<Lexicon>;
}

/** Expansion of a query. */
export interface Expansion {
  /** New query tokens (stemmed; none of the query's own). */
  tokens: string[];
  /** Expanded word → the related words searched for it (shown by `--explain`). */
  terms: Record<string, string[]>;
}

/** Candidate base forms of an inflected word (a small morphology: plurals, -ing, -ed). */
export function baseForms(word: string): string[] {
  const w = word.toLowerCase();
  const out = [w];
  const add = (s: string) => s.length > 2 && out.push(s);
  if (w.endsWith('ies')) add(w.slice(0, -3) + 'y');
  if (w.endsWith('es')) add(w.slice(0, -2));
  if (w.endsWith('s') && !w.endsWith('ss')) add(w.slice(0, -1));
  if (w.endsWith('ing')) {
    add(w.slice(0, -3));
    add(w.slice(0, -3) + 'e');
  }
  if (w.endsWith('ed')) {
    add(w.slice(0, -2));
    add(w.slice(0, -1));
  }
  return out;
}

/** Related words of `word` (its first base form in the index), at most `cap`. */
export function relatedWords(lex: Lexicon, word: string, cap: number): string[] {
  for (const b of baseForms(word)) {
    const r = lex.get(b);
    if (r) return r.slice(0, cap);
  }
  return [];
}

/**
 * The expansion of `words` (the query without time cues) whose own stemmed tokens are `tokens`:
 * each content word of three letters or more with at most `p.maxDf` drawers (counted in the
 * whole palace) contributes its related words.
 */
export async function expandQuery(
  store: MemoryStore,
  words: string,
  tokens: readonly string[],
  p: ExpandParams,
): Promise<Expansion> {
  const seen = new Set<string>();
  const rare: string[] = [];
  const checks = [...words.matchAll(/[A-Za-z]+/g)]
    .map((m) => m[0].toLowerCase())
    .filter((w) => w.length >= 3 && !isStopword(w) && !seen.has(w) && seen.add(w))
    .map(async (w) => {
      const own = queryTokens(w);
      if (own.length && (await store.searchLexical(own, undefined, p.maxDf + 1)).length <= p.maxDf) rare.push(w);
    });
  await Promise.all(checks);
  if (!rare.length) return { tokens: [], terms: {} };
  const lex = p.lexicon ? await p.lexicon() : (await import('./wordnet.js')).loadLexicon(p.cacheDir);
  const have = new Set(tokens);
  const out = new Set<string>();
  const terms: Record<string, string[]> = {};
  for (const w of [...seen].filter((x) => rare.includes(x))) {
    const rel = relatedWords(lex, w, p.cap);
    if (!rel.length) continue;
    terms[w] = rel;
    for (const t of queryTokens(rel.join(' '))) if (!have.has(t)) out.add(t);
  }
  return { tokens: [...out], terms };
}

/**
 * Adds `weight` × each drawer's BM25 for the expansion words (`more`) to its BM25 for the query's
 * own words (`own`), re-sorted, best `k` kept: the same as searching the related words as terms
 * of reduced weight.
 */
function mergeExpansion(own: readonly LexicalHit[], more: readonly LexicalHit[], weight: number, k: number) {
  const by = new Map(own.map((h) => [h.id, { ...h }]));
  for (const h of more) {
    const cur = by.get(h.id);
    if (cur) cur.score += weight * h.score;
    else by.set(h.id, { ...h, score: weight * h.score });
  }
  return [...by.values()].sort((a, b) => b.score - a.score).slice(0, k);
}

/**
 * The lexical step of hybrid search with expansion: `lex` (the BM25 hits of `tokens`) merged with
 * the BM25 hits of the expansion words at weight `p.expand`; the searched tokens grow by them.
 */
export async function expandSearch(
  deps: {
    store: MemoryStore;
    lexiconCache?: string | undefined;
    lexicon?: (() => Lexicon | Promise<Lexicon>) | undefined;
  },
  words: string,
  tokens: string[],
  lex: LexicalHit[],
  filter: DrawerFilter | undefined,
  k: number,
  p: { expand: number; expandMaxDf: number; expandCap: number },
): Promise<{ lex: LexicalHit[]; tokens: string[]; expansion: Record<string, string[]> | undefined }> {
  const ex = await expandQuery(deps.store, words, tokens, {
    maxDf: p.expandMaxDf,
    cap: p.expandCap,
    ...(deps.lexiconCache ? { cacheDir: deps.lexiconCache } : {}),
    ...(deps.lexicon ? { lexicon: deps.lexicon } : {}),
  });
  if (!ex.tokens.length) return { lex, tokens, expansion: undefined };
  const more = await deps.store.searchLexical(ex.tokens, filter, k);
  return { lex: mergeExpansion(lex, more, p.expand, k), tokens: [...tokens, ...ex.tokens], expansion: ex.terms };
}
