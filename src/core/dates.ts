/**
 * @module core/dates
 * Strict checking of the dates callers type (`--since 2025-13-45` must be refused, not read as
 * some other day): a calendar day `YYYY-MM-DD`, or an ISO-8601 date-time on such a day with
 * hours < 24, minutes and seconds < 60 and an optional `Z` / `±HH:MM` zone.
 */

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-](\d{2}):?(\d{2}))?$/i;

/** The shape accepted by {@link isStrictDate}, for messages. */
export const STRICT_DATE_EXPECTED = 'a real date like 2026-01-15 or 2026-01-15T10:00:00Z';

function validDay(y: number, m: number, d: number): boolean {
  return m >= 1 && m <= 12 && d >= 1 && d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** True when `s` is a real calendar day or date-time in the forms described in the module comment. */
export function isStrictDate(s: string): boolean {
  const d = DAY.exec(s);
  if (d) return validDay(+d[1]!, +d[2]!, +d[3]!);
  const t = DAY_TIME.exec(s);
  if (!t || !validDay(+t[1]!, +t[2]!, +t[3]!)) return false;
  if (+t[4]! > 23 || +t[5]! > 59 || +(t[6] ?? 0) > 59) return false;
  return t[8] === undefined || (+t[8] <= 23 && +t[9]! <= 59);
}
