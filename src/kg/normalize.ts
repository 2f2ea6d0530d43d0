/**
 * @module kg/normalize
 * Names, predicates, dates and cursors of the knowledge graph: the pure rules both adapters share.
 */
import { createError } from '../core/errors.js';
import { cmpStart, validAt } from '../store/index.js';

export { cmpStart, validAt };

const MARKS = /[\u0300-\u036f]/g;
const APOSTROPHES = /['’‘`´]/g;
const SEPARATORS = /[^\p{L}\p{N}\p{M}./#+@]+/gu;
const ASCII_ONLY = /^[\x00-\x7f]*$/;
const ASCII_SEPARATORS = /[^A-Za-z0-9./#+@]+/g;
const ABBREVIATION_DOTS = /\.+(?= |$)/g;
const LEADING_AT = /^[@ ]+(?=[^/]*$)/;
// A leading title before a name ("Dr. Chén" is Chen): only when a name follows.
const HONORIFIC = /^(?:dr|mr|mrs|ms|mx|prof) +(?=\S)/;

/** Longest accepted entity name or alias, in characters. */
export const MAX_NAME_LENGTH = 200;
/** Longest accepted predicate, in characters (after normalisation). */
export const MAX_PREDICATE_LENGTH = 64;
/** Longest accepted literal object, in characters. */
export const MAX_LITERAL_LENGTH = 1000;

/**
 * The normalised key of an entity name or alias, used as entity id and for resolution.
 * NFKC, Latin diacritics folded, full case folding (ß → ss), apostrophes dropped, a leading `@`
 * dropped (not in `@scope/pkg`), dots ending a word dropped ("Dr." → "dr"), every other run of
 * characters outside letters, digits, `. / # + @` becomes one `_`. Idempotent.
 * A leading title (Dr, Mr, Mrs, Ms, Mx, Prof) before a name is dropped, so one person is one entity
 * however they are addressed: `"Dr. Chén"`, `"Chen"` and `"chen"` → `chen`;
 * `"auth-migration"` → `auth_migration`; `"package.json"` → `package.json`.
 * Returns `''` when nothing is left (callers reject it).
 */
export function entityKey(name: string): string {
  let s: string;
  if (ASCII_ONLY.test(name)) s = name.toLowerCase().replace(APOSTROPHES, '').replace(ASCII_SEPARATORS, ' ');
  else {
    s = name.normalize('NFKC').normalize('NFKD').replace(MARKS, '').normalize('NFC');
    s = s.toLowerCase().toUpperCase().toLowerCase().replace(APOSTROPHES, '').replace(SEPARATORS, ' ');
  }
  s = s.replace(ABBREVIATION_DOTS, '').trim().replace(LEADING_AT, '').trim();
  // Titles and `@` may reveal each other ("@dr x", "dr @x"): strip both until nothing changes.
  for (let prev = ''; prev !== s && HONORIFIC.test(s);) {
    prev = s;
    s = s.replace(HONORIFIC, '').replace(LEADING_AT, '').trim();
  }
  // A capital sigma lowercases by its neighbours (final ς before a non-letter, σ elsewhere): cased
  // symbols removed above (🅐) may have been its neighbours, so fold it again in its final context.
  if (!ASCII_ONLY.test(s)) s = s.toUpperCase().toLowerCase();
  return s.replace(/ +/g, '_');
}

/** {@link entityKey}, throwing KG_INVALID_ENTITY when the name is unusable. */
export function requireEntityKey(name: string): string {
  if (typeof name !== 'string' || name.trim().length === 0)
    throw createError('KG_INVALID_ENTITY', { value: String(name), reason: 'it is empty' });
  if (name.length > MAX_NAME_LENGTH)
    throw createError('KG_INVALID_ENTITY', {
      value: name.slice(0, 40) + '…',
      reason: `it has ${name.length} characters`,
    });
  const key = entityKey(name);
  if (!key) throw createError('KG_INVALID_ENTITY', { value: name, reason: 'it has no letter or digit' });
  return key;
}

/** Normalises a predicate to snake_case ASCII-folded words (`Works At` → `works_at`). Throws KG_INVALID_TERM. */
export function predicateKey(predicate: string): string {
  const p = String(predicate)
    .normalize('NFKD')
    .replace(MARKS, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '');
  if (!p)
    throw createError('KG_INVALID_TERM', {
      name: 'predicate',
      value: String(predicate),
      reason: 'it has no letter or digit',
    });
  if (p.length > MAX_PREDICATE_LENGTH)
    throw createError('KG_INVALID_TERM', {
      name: 'predicate',
      value: p.slice(0, 40) + '…',
      reason: `it is longer than ${MAX_PREDICATE_LENGTH} characters`,
    });
  return p;
}

/** Trims a literal object value. Throws KG_INVALID_TERM when empty or longer than 1000 characters. */
export function literalValue(value: string): string {
  const v = String(value).trim();
  if (!v) throw createError('KG_INVALID_TERM', { name: 'object', value: String(value), reason: 'it is empty' });
  if (v.length > MAX_LITERAL_LENGTH)
    throw createError('KG_INVALID_TERM', {
      name: 'object',
      value: v.slice(0, 40) + '…',
      reason: `it is longer than ${MAX_LITERAL_LENGTH} characters`,
    });
  return v;
}

/** Checks an entity type: 1–40 characters, lower-cased. Default `unknown`. */
export function entityType(type: string | undefined): string {
  if (type === undefined) return 'unknown';
  const t = type.trim().toLowerCase();
  if (!t || t.length > 40)
    throw createError('KG_INVALID_TERM', { name: 'type', value: type, reason: 'an entity type has 1–40 characters' });
  return t;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

function validDay(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/**
 * Normalises a date given by a caller to ISO-8601 UTC with milliseconds. Accepts `YYYY-MM-DD`
 * (that day's start, or its end when `dateOnly` is `end`) and ISO date-times with `Z` or an
 * offset. Throws KG_INVALID_DATE naming `field`.
 */
export function normalizeDate(value: string, field: string, dateOnly: 'start' | 'end' = 'start'): string {
  const v = String(value).trim();
  let m = DATE_ONLY.exec(v);
  if (m) {
    if (!validDay(+m[1]!, +m[2]!, +m[3]!)) throw createError('KG_INVALID_DATE', { name: field, value: v });
    return `${v}T${dateOnly === 'start' ? '00:00:00.000' : '23:59:59.999'}Z`;
  }
  m = DATE_TIME.exec(v);
  if (m && validDay(+m[1]!, +m[2]!, +m[3]!) && +m[4]! < 24 && +m[5]! < 60 && +(m[6] ?? 0) < 60) {
    const ms = Date.parse(v);
    if (Number.isFinite(ms)) return new Date(ms).toISOString();
  }
  throw createError('KG_INVALID_DATE', { name: field, value: v });
}

/** Optional variant of {@link normalizeDate}: `null` stays null, `undefined` gives `fallback`. */
export function normalizeOptionalDate(
  value: string | null | undefined,
  field: string,
  fallback: string | null,
): string | null {
  if (value === undefined) return fallback;
  if (value === null) return null;
  return normalizeDate(value, field);
}

/** Compares two window ends where null means +∞. */
export function cmpEnd(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

/** Encodes a paging position as an opaque cursor. */
export function encodeCursor(parts: readonly (string | number | null)[]): string {
  return Buffer.from(JSON.stringify(parts), 'utf8').toString('base64url');
}

/** Decodes a cursor made by {@link encodeCursor} with `arity` parts. Throws KG_INVALID_CURSOR. */
export function decodeCursor(cursor: string, arity: number): (string | number | null)[] {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(v) &&
      v.length === arity &&
      v.every((x) => x === null || typeof x === 'string' || typeof x === 'number')
    ) {
      return v as (string | number | null)[];
    }
  } catch {
    // fall through
  }
  throw createError('KG_INVALID_CURSOR', { cursor });
}

/** Checks a page size: an integer >= 1 (no upper cap). Default 50. */
export function pageLimit(limit: number | undefined, fallback = 50): number {
  const n = limit ?? fallback;
  if (!Number.isInteger(n) || n < 1)
    throw createError('INVALID_ARGUMENT', { name: 'limit', value: limit, expected: 'an integer >= 1' });
  return n;
}

/** Checks a confidence: a number in (0, 1]. Default 1. */
export function confidenceValue(c: number | undefined): number {
  const v = c ?? 1;
  if (typeof v !== 'number' || !(v > 0 && v <= 1))
    throw createError('INVALID_ARGUMENT', { name: 'confidence', value: c, expected: 'a number in (0, 1]' });
  return v;
}
