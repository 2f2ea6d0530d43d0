/**
 * @module core/hash
 * Content hashing and stable id generation.
 */
import { createHash } from 'node:crypto';

/** Hex SHA-256 of a string or bytes. */
export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * A short stable id: `prefix` + the first 16 hex chars (64 bits) of SHA-256 over the parts joined
 * by NUL. The same parts always give the same id, on every machine.
 */
export function stableId(prefix: string, ...parts: (string | number)[]): string {
  const h = createHash('sha256');
  parts.forEach((p, i) => {
    if (i > 0) h.update('\0');
    h.update(String(p));
  });
  return prefix + h.digest('hex').slice(0, 16);
}
