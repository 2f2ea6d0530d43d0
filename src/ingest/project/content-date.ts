/**
 * @module ingest/project/content-date
 * When a mined file's content was written: a date in its name, in its front matter, in a `Date:`
 * line, else its modification time. Pure: never reads the clock or the local time zone.
 */
import { isCalendarDay, isoDay, monthIndex } from '../../text/index.js';
import { baseName } from './language.js';

/** 1-based month of an English month name written exactly (full or abbreviated), else undefined. */
function month1(name: string): number | undefined {
  const m = monthIndex(name);
  return m === undefined ? undefined : m + 1;
}

/** A real calendar day (`m` 1-based) in the years `minYear`–2100. */
function validDate(y: number, m: number, d: number, minYear = 1900): boolean {
  return y >= minYear && y <= 2100 && isCalendarDay(y, m - 1, d);
}

function dateOnly(y: number, m: number, d: number): string {
  return isoDay(y, m - 1, d);
}

/** Minutes east of UTC for `Z`, `UTC`, `GMT`, `+0200`, `-05:30`; 0 when absent (no zone = UTC). */
function zoneMinutes(z: string | undefined): number {
  if (z === undefined || /^(z|utc|gmt)$/i.test(z)) return 0;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(z);
  if (!m) return 0;
  const v = Number(m[2]) * 60 + Number(m[3]);
  return m[1] === '-' ? -v : v;
}

function dateTime(
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  ms: number,
  zone?: string,
): string | null {
  if (!validDate(y, mo, d) || h > 23 || mi > 59 || s > 60) return null;
  const t = Date.UTC(y, mo - 1, d, h, mi, Math.min(s, 59), ms) - zoneMinutes(zone) * 60_000;
  return new Date(t).toISOString();
}

const ISO = new RegExp(
  String.raw`^(\d{4})[-/](\d{2})[-/](\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*(Z|UTC|GMT|` +
    String.raw`[+-]\d{2}:?\d{2})?)?(?![\d:])`,
  'i',
);
const DMY = new RegExp(
  String.raw`^(?:[a-z]{3,9},?\s+)?(\d{1,2})\s+([a-z]{3,9})\.?,?\s+(\d{4})(?:,?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(Z|` +
    String.raw`UTC|GMT|[+-]\d{2}:?\d{2})?)?`,
  'i',
);
const MDY = new RegExp(
  String.raw`^(?:[a-z]{3,9},?\s+)?([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|` +
    String.raw`th)?,?\s+(\d{4})(?:,?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(Z|UTC|GMT|[+-]\d{2}:?\d{2})?)?`,
  'i',
);

/**
 * Parses a date written by a person or a tool: ISO `2024-03-05`, `2024-03-05T10:00:00+02:00`,
 * `2024-03-05 10:00`, RFC 2822 `Tue, 5 Mar 2024 10:00:00 +0000`, `March 5, 2024`, `5 March 2024`.
 * Date-only values give `YYYY-MM-DD`; values with a time give a full ISO-8601 UTC string (a time
 * without a zone is taken as UTC). Returns null when nothing plausible is found.
 */
function parseLooseDate(value: string): string | null {
  const v = value
    .trim()
    .replace(/^["'`]|["'`]$/g, '')
    .trim();
  let m = ISO.exec(v);
  if (m) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (m[4] === undefined) return validDate(y, mo, d) ? dateOnly(y, mo, d) : null;
    const ms = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, '0'));
    return dateTime(y, mo, d, Number(m[4]), Number(m[5]), Number(m[6] ?? 0), ms, m[8]);
  }
  let y: number, mo: number | undefined, d: number;
  if ((m = DMY.exec(v))) [d, mo, y] = [Number(m[1]), month1(m[2]!), Number(m[3])];
  else if ((m = MDY.exec(v))) [mo, d, y] = [month1(m[1]!), Number(m[2]), Number(m[3])];
  else return null;
  if (mo === undefined) return null;
  if (m[4] === undefined) return validDate(y, mo, d) ? dateOnly(y, mo, d) : null;
  return dateTime(y, mo, d, Number(m[4]), Number(m[5]), Number(m[6] ?? 0), 0, m[7]);
}

const NAME_DATE = /(?<!\d)(\d{4})([-_]?)(\d{2})\2(\d{2})(?=(?:\d{4}|\d{6})?(?!\d))/g;

/** A date in a file name: `2024-03-05`, `2024_03_05`, or `20240305` (also `20240305T…`/`20240305123000_x`). */
function dateInFileName(rel: string): string | null {
  const name = baseName(rel);
  for (const m of name.matchAll(NAME_DATE)) {
    const [y, mo, d] = [Number(m[1]), Number(m[3]), Number(m[4])];
    if (validDate(y, mo, d, m[2] === '' ? 1970 : 1900)) return dateOnly(y, mo, d);
  }
  return null;
}

/** The first `max` lines of `text`, without splitting all of it. */
function firstLines(text: string, max: number): string[] {
  const out: string[] = [];
  let pos = 0;
  while (out.length < max && pos <= text.length) {
    const nl = text.indexOf('\n', pos);
    const end = nl < 0 ? text.length : nl;
    out.push(text.slice(pos, end).replace(/\r$/, ''));
    if (nl < 0) break;
    pos = nl + 1;
  }
  return out;
}

const FRONT_KEYS = ['date', 'created', 'published'] as const;

/** `date:` / `created:` / `published:` (in that priority) of a YAML front matter in the first 30 lines. */
function dateInFrontMatter(text: string): string | null {
  const lines = firstLines(text, 30);
  if (lines[0]?.trimEnd() !== '---') return null;
  const found: Partial<Record<(typeof FRONT_KEYS)[number], string>> = {};
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^(---|\.\.\.)\s*$/.test(line)) break;
    const m = /^(date|created|published)\s*:\s*(.+)$/i.exec(line);
    if (!m) continue;
    const key = m[1]!.toLowerCase() as (typeof FRONT_KEYS)[number];
    const parsed = found[key] === undefined ? parseLooseDate(m[2]!) : null;
    if (parsed !== null) found[key] = parsed;
  }
  for (const k of FRONT_KEYS) if (found[k] !== undefined) return found[k]!;
  return null;
}

/** A `Date: …` line (also `**Date:**`, `> Date:`, `- Date:`) in the first 10 lines. */
function dateInDateLine(text: string): string | null {
  for (const line of firstLines(text, 10)) {
    const m = /^[\s>*_#-]*date[*_]*\s*:[*_]*\s*(.+)$/i.exec(line);
    if (!m) continue;
    const parsed = parseLooseDate(m[1]!);
    if (parsed !== null) return parsed;
  }
  return null;
}

/**
 * The content date of a file, by the first rule that gives a plausible date:
 * 1. a date in the file name: `YYYY-MM-DD`, `YYYY_MM_DD` (years 1900–2100) or `YYYYMMDD`
 *    (years 1970–2100, optionally followed by `HHMM`/`HHMMSS` digits), a real calendar day;
 * 2. YAML front matter (opening `---` on line 1, first 30 lines only): `date:`, else `created:`,
 *    else `published:`, holding an ISO date or date-time;
 * 3. a `Date: …` line in the first 10 lines (ISO, RFC 2822 or `March 5, 2024` style);
 * 4. else `mtimeMs` as a full ISO-8601 UTC string (`1970-01-01T00:00:00.000Z` if it is not a valid time).
 *
 * Date-only results are `YYYY-MM-DD`; results with a time are ISO-8601 UTC
 * (`2024-03-05T08:00:00.000Z`). A time without a zone is taken as UTC, so the result never depends on
 * the machine's time zone.
 */
export function contentDateFor(rel: string, text: string, mtimeMs: number): string {
  return (
    dateInFileName(rel) ??
    dateInFrontMatter(text) ??
    dateInDateLine(text) ??
    new Date(Number.isFinite(mtimeMs) && Math.abs(mtimeMs) <= 8.64e15 ? mtimeMs : 0).toISOString()
  );
}
