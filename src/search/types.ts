/**
 * @module search/types
 * Public shapes of search requests and results.
 */
import type { Drawer, DrawerFilter } from '../store/ports.js';

/** Options of a palace search. */
export interface SearchOptions extends DrawerFilter {
  /** Hits to return. Default 10, range 1–100. */
  limit?: number;
  /** Attach each signal's rank, score and contribution to every hit. Default false. */
  explain?: boolean;
  /** Add ±N neighbouring drawers (same source) to each hit. Default 0, range 0–10. */
  context?: number;
  /** `hybrid` (default) fuses every available signal; `lexical` is BM25 only. */
  mode?: 'hybrid' | 'lexical';
}

/** How one signal saw a hit. */
export interface SignalTrace {
  /** 1-based rank of the hit in that signal's list, or null when the signal did not return it. */
  rank: number | null;
  /** The signal's raw score (BM25, cosine, boost…). */
  score: number | null;
  /** What the signal added to the fused score. */
  contribution: number;
}

/** Why a hit is where it is (`--explain`). */
export interface HitExplanation {
  signals: Record<string, SignalTrace>;
  /** Final fused score. */
  fused: number;
}

/** One search hit: the drawer, its score and optional explanation and neighbours. */
export interface SearchHit {
  id: string;
  wing: string;
  room: string;
  hall: string | null;
  source: string | null;
  /** [first, last] line in the source, when known. */
  lines: [number, number] | null;
  score: number;
  text: string;
  contentDate: string | null;
  filedAt: string;
  metadata: Record<string, unknown>;
  explain?: HitExplanation;
  /** Neighbouring drawers (with `context`), in source order, the hit itself excluded. */
  context?: Drawer[];
}

/** A search answer. */
export interface SearchResult {
  query: string;
  /** The query tokens actually searched. */
  tokens: string[];
  hits: SearchHit[];
  /** Signals used, e.g. ["bm25"] or ["bm25", "vector", "structure"]. */
  signals: string[];
  /** Set when a signal was unavailable and search fell back (shown by `--explain` and `status`). */
  fallback?: string;
  tookMs: number;
}
