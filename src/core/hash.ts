/**
 * @module core/hash
 * Content hashing and stable id generation. `node:crypto` loads on the first hash: loading it costs
 * a process ~4 ms of CPU, and a search or most hooks never hash (issue 12).
 */
import { lazyRequire } from './lazy.js';

const crypto = lazyRequire<typeof import('node:crypto')>('node:crypto');

/** Hex SHA-256 of a string or bytes. */
export function sha256(data: string | Uint8Array): string {
  // One-shot `crypto.hash` (Node >= 20.12): no Hash object per call, which mining makes per drawer.
  return crypto().hash('sha256', data, 'hex');
}

/**
 * A short stable id: `prefix` + the first 16 hex chars (64 bits) of SHA-256 over the parts joined
 * by NUL. The same parts always give the same id, on every machine.
 */
export function stableId(prefix: string, ...parts: (string | number)[]): string {
  return prefix + crypto().hash('sha256', parts.join('\0'), 'hex').slice(0, 16);
}
