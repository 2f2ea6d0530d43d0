/**
 * @module palace/names
 * The rules for names callers give (wing, room, hall) and for the folders a remote caller may
 * mine. Names are NFC-normalised and trimmed, 1–200 characters, and free of control characters,
 * line and paragraph separators, bidi controls (U+202E and friends) and lone surrogates; `.` and
 * `..` (alone or as a `/`-separated part) are refused. Names Loci derives itself while mining are
 * made from folder names by their own rules and do not pass through here.
 */
import { realpathSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { createError } from '../core/errors.js';

/** The wing that holds every agent's diary (`palace.diaryWrite`). */
export const DIARY_WING = 'diary';

/** Longest wing, room or hall name, in characters (after NFC): 200. */
const NAME_MAX_CHARS = 200;

// C0/C1 controls, line/paragraph separators, bidi marks/embeddings/overrides/isolates, lone surrogates.
const FORBIDDEN = /[\p{Cc}\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|\p{Cs}/u;

/**
 * Checks a caller-given name and returns it normalised (NFC, trimmed). Throws NAME_INVALID naming
 * `kind` (wing, room, hall) and the reason.
 */
export function checkName(kind: string, value: string): string {
  if (typeof value !== 'string')
    throw createError('NAME_INVALID', { kind, value: String(value), reason: 'it is not text' });
  const bad = FORBIDDEN.exec(value);
  if (bad) {
    const c = bad[0].codePointAt(0)!;
    const what =
      c >= 0xd800 && c <= 0xdfff
        ? 'a lone surrogate'
        : c < 0x20 || (c >= 0x7f && c <= 0x9f)
          ? 'a control character'
          : c === 0x2028 || c === 0x2029
            ? 'a line separator'
            : 'a bidirectional-text control';
    throw createError('NAME_INVALID', {
      kind,
      value,
      reason: `it contains ${what} (U+${c.toString(16).toUpperCase().padStart(4, '0')})`,
    });
  }
  const name = value.normalize('NFC').trim();
  if (!name) throw createError('NAME_INVALID', { kind, value, reason: 'it is empty' });
  if (name.length > NAME_MAX_CHARS)
    throw createError('NAME_INVALID', { kind, value, reason: `it is longer than ${NAME_MAX_CHARS} characters` });
  if (name.split(/[\\/]/).some((p) => p === '.' || p === '..'))
    throw createError('NAME_INVALID', { kind, value, reason: '"." and ".." are path parts, not names' });
  return name;
}

/** {@link checkName} for an optional or nullable name. */
export function checkOptionalName<T extends string | null | undefined>(kind: string, value: T): T {
  return (typeof value === 'string' ? checkName(kind, value) : value) as T;
}

function real(p: string): string | undefined {
  try {
    return realpathSync.native(p);
  } catch {
    return undefined;
  }
}

/**
 * Throws MINE_OUTSIDE_ROOTS unless `path` (symlinks resolved) is one of `roots` or inside one.
 * Roots that do not exist are ignored. A missing path is judged by its resolved spelling, so the
 * answer does not reveal what exists outside the roots.
 */
export function assertUnderRoots(path: string, roots: readonly string[]): void {
  const abs = resolve(path);
  const target = real(abs) ?? abs;
  const inside = roots.some((r) => {
    const root = real(resolve(r));
    return root !== undefined && (target === root || target.startsWith(root.endsWith(sep) ? root : root + sep));
  });
  if (!inside) throw createError('MINE_OUTSIDE_ROOTS', { path, roots: [...roots] });
}

/** The meta key of the knowledge graph's high-water mark: the last drawer `rid` extracted. */
export const GRAPH_MARK_KEY = 'kg.extracted_rid';
