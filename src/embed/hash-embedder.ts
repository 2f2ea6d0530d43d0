/**
 * @module embed/hash-embedder
 * The weights-free default embedder: a random projection of sparse lexical features, computed
 * with no model, no download and no corpus statistics (so vectors never drift as the palace grows).
 *
 * Features of a text: every stemmed content word (stop-words dropped) with weight 1 + log(tf), and
 * its character trigrams (with word-boundary marks) sharing the same weight; each feature
 * is hashed to two signed coordinates of a `dims`-dimensional vector (feature hashing), then the
 * vector is L2-normalised. Cosine between two such vectors approximates the cosine of their feature
 * bags, so the signal complements BM25 with **fuzzy** matching: misspellings ("fesetival"),
 * inflections the stemmer misses, and compound identifiers share trigrams with their targets.
 * It is not semantic in the sense of a trained model; configure an ONNX, Ollama or OpenAI
 * embedder for that (`LOCI_EMBEDDER`).
 */
import { isStopword, tokenize } from '../text/index.js';
import type { Embedder } from './types.js';

/** Default vector length: enough to keep hash collisions rare for chunk-sized texts. */
const HASH_EMBEDDER_DIMS = 256;

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function add(v: Float32Array, feature: string, w: number): void {
  const h = fnv1a(feature);
  const d = v.length;
  v[h % d]! += h & 0x80000000 ? -w : w;
  const h2 = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
  v[h2 % d]! += h2 & 0x40000000 ? -w : w;
}

/** Embeds one text (synchronously). */
export function hashEmbed(text: string, dims = HASH_EMBEDDER_DIMS): Float32Array {
  const v = new Float32Array(dims);
  const tf = new Map<string, number>();
  for (const t of tokenize(text)) if (!isStopword(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
  for (const [word, f] of tf) {
    const w = 1 + Math.log(f);
    add(v, 'w:' + word, w);
    const g = `<${word}>`;
    const n = g.length - 2;
    if (n > 1) {
      const tw = w / Math.sqrt(n);
      for (let i = 0; i + 3 <= g.length; i++) add(v, 't:' + g.slice(i, i + 3), tw);
    }
  }
  let norm = 0;
  for (let i = 0; i < dims; i++) norm += v[i]! * v[i]!;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < dims; i++) v[i]! /= norm;
  return v;
}

/** Creates the weights-free embedder (`id` = `hash:v1-<dims>`). */
export function createHashEmbedder(dims = HASH_EMBEDDER_DIMS): Embedder {
  return {
    id: `hash:v1-${dims}`,
    dims,
    async init() {},
    async embed(texts) {
      return texts.map((t) => hashEmbed(t, dims));
    },
  };
}
