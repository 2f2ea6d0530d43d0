/**
 * @module embed/vector
 * Small helpers shared by the embedders: L2 normalisation, prefixes, ids and batch checks.
 */
import { createError } from '../core/errors.js';
import { sha256 } from '../core/hash.js';
import type { EmbedPrefixes } from './types.js';

/** Scales `v` in place to unit length and returns it; an all-zero vector stays zero. */
export function l2normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  if (sum > 0) {
    const inv = 1 / Math.sqrt(sum);
    for (let i = 0; i < v.length; i++) v[i]! *= inv;
  }
  return v;
}

/** The text actually embedded for `kind`. */
export function withPrefix(
  text: string,
  kind: 'query' | 'document' | undefined,
  prefixes: EmbedPrefixes | undefined,
): string {
  const p = kind === 'query' ? prefixes?.query : prefixes?.document;
  return p ? p + text : text;
}

/** `''` without prefixes, else `+p` and 8 hex chars of a hash of both prefixes (so ids change with them). */
export function prefixTag(prefixes: EmbedPrefixes | undefined): string {
  if (!prefixes?.query && !prefixes?.document) return '';
  return `+p${sha256(`${prefixes.query ?? ''}\0${prefixes.document ?? ''}`).slice(0, 8)}`;
}

/** Throws INVALID_ARGUMENT unless `n` is an integer in [min, max]. */
export function checkInt(name: string, n: number, min: number, max: number): number {
  if (!Number.isInteger(n) || n < min || n > max) {
    throw createError('INVALID_ARGUMENT', { name, value: n, expected: `an integer from ${min} to ${max}` });
  }
  return n;
}

/** Throws INVALID_ARGUMENT unless `texts` is an array of strings. */
export function checkTexts(texts: readonly string[]): void {
  if (!Array.isArray(texts) || texts.some((t) => typeof t !== 'string')) {
    throw createError('INVALID_ARGUMENT', { name: 'texts', value: texts, expected: 'an array of strings' });
  }
}

/** Throws ABORTED when `signal` is aborted. */
export function checkAborted(signal: AbortSignal | undefined, operation: string): void {
  if (signal?.aborted) throw createError('ABORTED', { operation }, signal.reason);
}
