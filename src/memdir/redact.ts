/**
 * @module memdir/redact
 * Memory files hold no credentials: the text fields of a memory being added or edited (name,
 * description, body, why, how) have their secrets replaced by `[REDACTED:<kind>]` before anything
 * is written, so `loci memory add`, the MCP memory tools and library callers all store the same
 * safe text. Every other character is kept.
 */
import { redactSecrets } from '../redact/index.js';

const FIELDS = ['name', 'description', 'body', 'why', 'how'] as const;

/** `input` with the secrets of its text fields redacted (the same object when there are none). */
export function redactMemoryFields<T extends Partial<Record<(typeof FIELDS)[number], string | undefined>>>(
  input: T,
): T {
  let out: T | undefined;
  for (const f of FIELDS) {
    const v = input[f];
    if (typeof v !== 'string' || v === '') continue;
    const r = redactSecrets(v);
    if (r.count > 0) (out ??= { ...input })[f] = r.text as T[typeof f];
  }
  return out ?? input;
}
