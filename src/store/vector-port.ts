/**
 * @module store/vector-port
 * The vector port: embeddings of drawers for one embedder model at a time, with nearest-neighbour
 * search. The vectors are derived data: they can always be rebuilt from the drawers.
 */

/** A drawer waiting for its vector. */
export interface PendingDrawer {
  id: string;
  text: string;
  indexExtra: string | null;
  wing: string;
}

/** What the index holds. */
interface VectorModelInfo {
  /** Embedder id (e.g. `hash:v1-256`, `onnx:all-MiniLM-L6-v2`). */
  model: string;
  dims: number;
  /** Vectors stored. */
  count: number;
}

/** Embeddings of drawers, keyed by embedder model. */
export interface VectorStore {
  readonly kind: string;
  /**
   * Makes `model` the active model. When another model was active its vectors are dropped
   * (vectors of different models are not comparable) and `rebuild` is true.
   */
  useModel(model: string, dims: number): Promise<{ rebuild: boolean; previous: string | null }>;
  /** The active model, or null when none was set. */
  info(): Promise<VectorModelInfo | null>;
  /** Drawers never embedded under the active model, oldest first. */
  pending(limit: number): Promise<PendingDrawer[]>;
  /** Number of drawers without a vector. */
  pendingCount(): Promise<number>;
  /** Stores (or replaces) vectors of drawers. Unknown drawer ids are ignored. Atomic. */
  upsert(items: readonly { id: string; vector: Float32Array }[]): Promise<void>;
  /** Forgets the vectors of these drawers (callers re-embed a drawer whose text changed with `upsert`). */
  remove(ids: readonly string[]): Promise<void>;
  /** The `k` nearest drawers by cosine similarity (best first), optionally only in `wings`. */
  knn(vector: Float32Array, k: number, wings?: readonly string[]): Promise<{ id: string; score: number }[]>;
  /** Deletes vectors whose drawers no longer exist; returns how many. */
  prune(): Promise<number>;
}
