/**
 * @module memdir/slug
 * Safe slugs and topic-file names (`{type}_{slug}.md`).
 *
 * Rules (documented in ARCHITECTURE.md):
 * - A slug always matches `^[a-z0-9][a-z0-9-]*$` (a subset of `^[a-z0-9][a-z0-9_-]*$`), at most
 *   {@link MAX_SLUG_LENGTH} characters, so it can never hold `/`, `\`, `.` or `..`.
 * - Latin letters with diacritics are transliterated (`Café Über` → `cafe-uber`, `ß` → `ss`).
 * - Letters that cannot be transliterated (CJK, Cyrillic, Arabic…) are dropped and a 6-hex hash of
 *   the NFC name is appended, so distinct names stay distinct: `設計` → `m-3fa2c1`,
 *   `API 設計` → `api-3fa2c1`. The display title is then kept in `metadata.title`.
 * - Windows reserved device names (CON, PRN, AUX, NUL, COM0-9, LPT0-9) and `memory` (which would
 *   collide with MEMORY.md on case-insensitive file systems) get a `-m` suffix.
 */
import { sha256 } from '../core/hash.js';
import type { MemoryType } from './types.js';

/** Longest slug produced (characters). */
export const MAX_SLUG_LENGTH = 60;

const RESERVED = new Set([
  'con',
  'prn',
  'aux',
  'nul',
  'memory',
  'clock$',
  ...Array.from({ length: 10 }, (_, i) => `com${i}`),
  ...Array.from({ length: 10 }, (_, i) => `lpt${i}`),
]);

/** Letters NFKD does not decompose into ASCII. */
const EXTRA: Record<string, string> = {
  ß: 'ss',
  ẞ: 'ss',
  æ: 'ae',
  Æ: 'ae',
  œ: 'oe',
  Œ: 'oe',
  ø: 'o',
  Ø: 'o',
  đ: 'd',
  Đ: 'd',
  ð: 'd',
  Ð: 'd',
  ł: 'l',
  Ł: 'l',
  þ: 'th',
  Þ: 'th',
  ı: 'i',
  ħ: 'h',
  Ħ: 'h',
  ŋ: 'ng',
  Ŋ: 'ng',
  ĸ: 'k',
  ſ: 's',
  ŀ: 'l',
  Ŀ: 'l',
};

/** True when `slug` is a reserved device or index name (case-insensitive). */
export function isReservedSlug(slug: string): boolean {
  return RESERVED.has(slug.toLowerCase());
}

/** Result of {@link slugify}: the slug and whether information was lost to a hash. */
interface SlugResult {
  slug: string;
  /** True when non-transliterable letters were replaced by a hash suffix. */
  hashed: boolean;
}

/**
 * Turns a human name into a safe slug. Never throws; the result always is lower-case ASCII letters,
 * digits and hyphens starting with a letter or digit (`/^[a-z0-9][a-z0-9-]*$/`), never reserved and
 * never empty.
 */
export function slugifyName(name: string): SlugResult {
  const nfc = name.normalize('NFC').trim();
  let ascii = '';
  let dropped = false;
  if (/^[\x20-\x7e]*$/.test(nfc)) ascii = nfc;
  else
    for (const ch of nfc) {
      const extra = EXTRA[ch];
      if (extra !== undefined) {
        ascii += extra;
        continue;
      }
      const base = ch.normalize('NFKD').replace(/\p{M}+/gu, '');
      if (/^[\x20-\x7e]*$/.test(base)) ascii += base;
      else {
        // A letter or digit we cannot spell in ASCII carries meaning: remember to hash.
        if (/[\p{L}\p{N}]/u.test(ch)) dropped = true;
        ascii += ' ';
      }
    }
  let slug = ascii
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const suffix = dropped || slug === '' ? sha256(nfc).slice(0, 6) : '';
  const room = MAX_SLUG_LENGTH - (suffix ? suffix.length + 1 : 0);
  if (slug.length > room) {
    const cut = slug.slice(0, room);
    const lastDash = cut.lastIndexOf('-');
    slug = (lastDash >= room / 2 ? cut.slice(0, lastDash) : cut).replace(/-+$/g, '');
  }
  if (suffix) slug = `${slug || 'm'}-${suffix}`;
  if (isReservedSlug(slug)) slug = `${slug}-m`;
  return { slug, hashed: suffix !== '' && dropped };
}

/** Shortcut for `slugifyName(name).slug`. */
export function slugify(name: string): string {
  return slugifyName(name).slug;
}

/** The topic-file name for a memory: `{type}_{slug}.md`. */
export function topicFileName(type: MemoryType, name: string): string {
  return `${type}_${slugify(name)}.md`;
}
