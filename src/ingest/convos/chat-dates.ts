/**
 * @module ingest/convos/chat-dates
 * Dates and times written by people in chat logs and meeting notes.
 *
 * Dates: `2023-05-08` (optionally with ` 14:02[:05]` or `T14:02`), `8 May 2023`, `8 May, 2023`,
 * `8th May 2023`, `May 8, 2023`, `May 8th 2023`, each optionally after a weekday (`Monday, `) and/or
 * a time (`1:56 pm on 8 May, 2023`) or followed by one (`May 8, 2023 at 14:02`). Month names in
 * English, full or abbreviated. Times: `14:02`, `14:02:05`, `2:05 PM`, `2:05pm`. Times carry no
 * zone and are taken as UTC (the whole archive compares ISO strings).
 */
import { MONTH_NAME, ORDINAL_SUFFIX, hour24, isCalendarDay, monthOfPrefix } from '../../text/index.js';

/** A calendar date and an optional wall-clock time. */
export interface DateTimeParts {
  y: number;
  mo: number; // 0-based
  d: number;
  h?: number;
  mi?: number;
  s?: number;
}

const MONTH = `${MONTH_NAME}\\.?`;
const WEEKDAY = '(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\\.?,?\\s+)?';
const TIME = '(\\d{1,2}):(\\d{2})(?::(\\d{2}))?\\s*([ap]\\.?m\\.?)?';
const ORD = ORDINAL_SUFFIX;

const ISO_RE = new RegExp(`^(\\d{4})-(\\d{2})-(\\d{2})(?:[ T]${TIME})?`, 'i');
const DMY_RE = new RegExp(`^(?:${TIME}\\s+on\\s+)?${WEEKDAY}(\\d{1,2})${ORD}\\s+${MONTH},?\\s+(\\d{4})`, 'i');
const MDY_RE = new RegExp(
  `^(?:${TIME}\\s+on\\s+)?${WEEKDAY}${MONTH}\\s+(\\d{1,2})${ORD},?\\s+(\\d{4})(?:,?\\s+(?:at\\s+)?${TIME})?`,
  'i',
);
const TIME_RE = new RegExp(`^${TIME}$`, 'i');

function hour(h: string | undefined, ampm: string | undefined): number | undefined {
  return h === undefined ? undefined : hour24(Number(h), ampm);
}

function withTime(
  p: DateTimeParts,
  h: string | undefined,
  mi: string | undefined,
  s: string | undefined,
  ap: string | undefined,
): DateTimeParts {
  const hh = hour(h, ap);
  if (hh === undefined || mi === undefined) return p;
  return { ...p, h: hh, mi: Number(mi), ...(s ? { s: Number(s) } : {}) };
}

function valid(p: DateTimeParts): boolean {
  return (
    isCalendarDay(p.y, p.mo, p.d) &&
    p.y >= 1970 &&
    p.y <= 2200 &&
    (p.h ?? 0) < 24 &&
    (p.mi ?? 0) < 60 &&
    (p.s ?? 0) < 60
  );
}

/**
 * Reads a date (with optional time) at the start of `s`. Returns the parts and the length consumed,
 * or null.
 */
export function parseDatePrefix(s: string): { parts: DateTimeParts; length: number } | null {
  const t = s.trim();
  let m = ISO_RE.exec(t);
  if (m) {
    const p = withTime({ y: Number(m[1]), mo: Number(m[2]) - 1, d: Number(m[3]) }, m[4], m[5], m[6], m[7]);
    return valid(p) ? { parts: p, length: m[0].length } : null;
  }
  m = DMY_RE.exec(t);
  if (m) {
    const mo = monthOfPrefix(m[6]!);
    if (mo === undefined) return null;
    const p = withTime({ y: Number(m[7]), mo, d: Number(m[5]) }, m[1], m[2], m[3], m[4]);
    return valid(p) ? { parts: p, length: m[0].length } : null;
  }
  m = MDY_RE.exec(t);
  if (m) {
    const mo = monthOfPrefix(m[5]!);
    if (mo === undefined) return null;
    let p: DateTimeParts = { y: Number(m[7]), mo, d: Number(m[6]) };
    p = m[1] ? withTime(p, m[1], m[2], m[3], m[4]) : withTime(p, m[8], m[9], m[10], m[11]);
    return valid(p) ? { parts: p, length: m[0].length } : null;
  }
  return null;
}

/** A bare time (`14:02`, `2:05 pm`), or null. */
export function parseTime(s: string): { h: number; mi: number; s?: number } | null {
  const m = TIME_RE.exec(s.trim());
  if (!m) return null;
  const h = hour(m[1], m[4])!;
  const mi = Number(m[2]);
  if (h > 23 || mi > 59) return null;
  return { h, mi, ...(m[3] ? { s: Number(m[3]) } : {}) };
}

/** ISO-8601 (UTC) of date parts. */
export function isoOf(p: DateTimeParts): string {
  return new Date(Date.UTC(p.y, p.mo, p.d, p.h ?? 0, p.mi ?? 0, p.s ?? 0)).toISOString();
}
