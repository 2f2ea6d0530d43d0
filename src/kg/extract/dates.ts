/**
 * @module kg/extract/dates
 * Date phrases in text resolved against an anchor (the drawer's content date) to absolute
 * `YYYY-MM-DD` dates in UTC. Periods resolve to their first day: "last week" → that week's
 * Monday, "last month" → its 1st, "in 2022" → 2022-01-01. Vague phrases ("recently", "a few days
 * ago", "the other day") resolve to nothing, on purpose.
 *
 * | phrase | anchor 2023-05-10 (Wed) |
 * | --- | --- |
 * | yesterday / today / tomorrow | 2023-05-09 / 10 / 11 |
 * | two days ago, 3 weeks ago, a year ago | 2023-05-08, 2023-04-19, 2022-05-10 |
 * | in 2 weeks | 2023-05-24 |
 * | last week / this week / next week | 2023-05-01 / 05-08 / 05-15 (Mondays) |
 * | last month / last year / next year | 2023-04-01 / 2022-01-01 / 2024-01-01 |
 * | last weekend / this weekend | 2023-05-06 / 2023-05-13 (Saturdays) |
 * | last Friday / next Monday / this Friday / on Monday | 2023-05-05 / 05-15 / 05-12 / 05-08 |
 * | May 8, on 8 May, May 8th 2022, 8 May, 2023 | 2023-05-08, 2023-05-08, 2022-05-08, 2023-05-08 |
 * | in June, last March, in May 2022 | 2023-06-01, 2023-03-01, 2022-05-01 |
 * | in 2022, since 2019 | 2022-01-01, 2019-01-01 |
 * | 2024-02-29 | 2024-02-29 (no anchor needed) |
 *
 * A month and day without a year take the year that puts them closest to the anchor.
 */
import { NUMBER_WORDS } from '../../core/dates.js';
import { DAY_MS, MONTH_NAME, WEEKDAY_NAME, isCalendarDay, isoDay, monthIndex, weekdayIndex } from '../../text/index.js';

/** A date phrase found in text. */
export interface DateMention {
  /** Offset of the phrase in the searched text. */
  index: number;
  /** The phrase as written. */
  phrase: string;
  /** `YYYY-MM-DD`. */
  date: string;
  /** How much of the date the phrase gives. */
  precision: 'day' | 'week' | 'month' | 'year';
}

const NUM =
  '(\\d{1,2}|a couple of|couple of|a couple|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)';
const UNIT = '(day|week|weekend|month|year)s?';
const WD = WEEKDAY_NAME;
const MON = `${MONTH_NAME}\\.?`;
const ORD = '(\\d{1,2})(?:st|nd|rd|th)?';
const PREP = '(?:in|since|during|until|by|from|early|late|mid|around|of)';

type Ymd = { y: number; m: number; d: number };
type Resolver = (m: RegExpExecArray, a: Ymd | null) => { at: Ymd; precision: DateMention['precision'] } | null;

const ymd = (ms: number): Ymd => {
  const t = new Date(ms);
  return { y: t.getUTCFullYear(), m: t.getUTCMonth(), d: t.getUTCDate() };
};
const ms = (x: Ymd) => Date.UTC(x.y, x.m, x.d);
const addDays = (x: Ymd, n: number) => ymd(ms(x) + n * DAY_MS);
const weekday = (x: Ymd) => new Date(ms(x)).getUTCDay();
const monday = (x: Ymd) => addDays(x, -((weekday(x) + 6) % 7));
const validDay = isCalendarDay;
const num = (s: string) => NUMBER_WORDS[s.toLowerCase()] ?? Number(s);

function addUnits(a: Ymd, unit: string, n: number): { at: Ymd; precision: DateMention['precision'] } {
  const u = unit.toLowerCase();
  if (u === 'day') return { at: addDays(a, n), precision: 'day' };
  if (u === 'week') return { at: addDays(a, 7 * n), precision: 'day' };
  if (u === 'weekend') return { at: addDays(lastWeekend(a), 7 * (n + 1)), precision: 'day' };
  if (u === 'month') {
    const t = new Date(Date.UTC(a.y, a.m + n, 1));
    return {
      at: {
        y: t.getUTCFullYear(),
        m: t.getUTCMonth(),
        d: Math.min(a.d, new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + 1, 0)).getUTCDate()),
      },
      precision: 'day',
    };
  }
  return {
    at: { y: a.y + n, m: a.m, d: a.m === 1 && a.d === 29 && !validDay(a.y + n, 1, 29) ? 28 : a.d },
    precision: 'day',
  };
}

/** The Saturday of the last weekend that ended before the anchor's own weekend. */
function lastWeekend(a: Ymd): Ymd {
  const wd = weekday(a);
  const back = wd === 6 ? 7 : wd === 0 ? 8 : wd + 1;
  return addDays(a, -back);
}

/** Of y-1, y, y+1, the year that puts month/day closest to the anchor. */
function closestYear(a: Ymd, m: number, d: number): Ymd | null {
  let best: Ymd | null = null;
  for (const y of [a.y - 1, a.y, a.y + 1]) {
    if (!validDay(y, m, d)) continue;
    const c = { y, m, d };
    if (!best || Math.abs(ms(c) - ms(a)) < Math.abs(ms(best) - ms(a))) best = c;
  }
  return best;
}

/** Each rule: its regex, its resolver, and whether it needs a digit in the text. */
const RULES: [RegExp, Resolver, boolean][] = [
  [
    /\b(\d{4})-(\d{2})-(\d{2})\b/gi,
    (m) =>
      validDay(+m[1]!, +m[2]! - 1, +m[3]!) ? { at: { y: +m[1]!, m: +m[2]! - 1, d: +m[3]! }, precision: 'day' } : null,
    true,
  ],
  [
    /\bthe day (before yesterday|after tomorrow)\b/gi,
    (m, a) => (a ? { at: addDays(a, m[1]!.toLowerCase().startsWith('before') ? -2 : 2), precision: 'day' } : null),
    false,
  ],
  [
    /\b(yesterday|today|tonight|tomorrow|last night|this morning|this afternoon|this evening|earlier today)\b/gi,
    (m, a) => {
      if (!a) return null;
      const w = m[1]!.toLowerCase();
      return {
        at: addDays(a, w === 'yesterday' || w === 'last night' ? -1 : w === 'tomorrow' ? 1 : 0),
        precision: 'day',
      };
    },
    false,
  ],
  [new RegExp(`\\b${NUM} ${UNIT} ago\\b`, 'gi'), (m, a) => (a ? addUnits(a, m[2]!, -num(m[1]!)) : null), false],
  [
    new RegExp(`\\bin ${NUM} ${UNIT}\\b`, 'gi'),
    (m, a) => (a && m[2]!.toLowerCase() !== 'weekend' ? addUnits(a, m[2]!, num(m[1]!)) : null),
    false,
  ],
  [
    /\b(last|this|next|past|previous|coming) (week|weekend|month|year)\b/gi,
    (m, a) => {
      if (!a) return null;
      const w = m[1]!.toLowerCase();
      const n = w === 'this' ? 0 : w === 'next' || w === 'coming' ? 1 : -1;
      const unit = m[2]!.toLowerCase();
      if (unit === 'week') return { at: addDays(monday(a), 7 * n), precision: 'week' };
      if (unit === 'weekend') return { at: addDays(lastWeekend(a), 7 * (n + 1)), precision: 'day' };
      if (unit === 'month') return { at: ymd(Date.UTC(a.y, a.m + n, 1)), precision: 'month' };
      return { at: { y: a.y + n, m: 0, d: 1 }, precision: 'year' };
    },
    false,
  ],
  [
    new RegExp(`\\b(last|this|next|on) ${WD}\\b`, 'gi'),
    (m, a) => {
      if (!a) return null;
      const w = m[1]!.toLowerCase();
      const target = weekdayIndex(m[2]!)!;
      const wd = weekday(a);
      if (w === 'this') return { at: addDays(monday(a), (target + 6) % 7), precision: 'day' };
      if (w === 'next') return { at: addDays(a, ((target - wd + 6) % 7) + 1), precision: 'day' };
      if (w === 'last') return { at: addDays(a, -(((wd - target + 6) % 7) + 1)), precision: 'day' };
      return { at: addDays(a, -((wd - target + 7) % 7)), precision: 'day' };
    },
    false,
  ],
  [
    new RegExp(`\\b(last|this|next) ${MON}(?! \\d)`, 'gi'),
    (m, a) => {
      if (!a) return null;
      const w = m[1]!.toLowerCase();
      const month = monthIndex(m[2]!)!;
      const y = w === 'this' ? a.y : w === 'last' ? (month < a.m ? a.y : a.y - 1) : month > a.m ? a.y : a.y + 1;
      return { at: { y, m: month, d: 1 }, precision: 'month' };
    },
    false,
  ],
  [new RegExp(`\\b${MON} ${ORD}(?:,? (\\d{4}))?\\b`, 'gi'), (m, a) => monthDay(a, m[1]!, +m[2]!, m[3]), true],
  [new RegExp(`\\b${ORD} (?:of )?${MON}(?:,? (\\d{4}))?\\b`, 'gi'), (m, a) => monthDay(a, m[2]!, +m[1]!, m[3]), true],
  [new RegExp(`\\b${PREP} ${MON}(?: (\\d{4}))?\\b`, 'gi'), (m, a) => monthOnly(a, m[1]!, m[2]), false],
  [new RegExp(`\\b${MON} (\\d{4})\\b`, 'gi'), (m, a) => monthOnly(a, m[1]!, m[2]), true],
  [
    new RegExp(`\\b${PREP} (\\d{4})\\b`, 'gi'),
    (m) => (+m[1]! >= 1900 && +m[1]! <= 2199 ? { at: { y: +m[1]!, m: 0, d: 1 }, precision: 'year' } : null),
    true,
  ],
];

function monthDay(a: Ymd | null, monthName: string, d: number, year: string | undefined) {
  const m = monthIndex(monthName)!;
  if (year !== undefined) return validDay(+year, m, d) ? { at: { y: +year, m, d }, precision: 'day' as const } : null;
  const at = a ? closestYear(a, m, d) : null;
  return at ? { at, precision: 'day' as const } : null;
}

function monthOnly(a: Ymd | null, monthName: string, year: string | undefined) {
  const m = monthIndex(monthName)!;
  if (year !== undefined) return { at: { y: +year, m, d: 1 }, precision: 'month' as const };
  const at = a ? closestYear(a, m, 1) : null;
  return at ? { at, precision: 'month' as const } : null;
}

/** Parses an anchor (ISO date or date-time); null when absent or unparseable. */
function parseAnchor(anchor: string | null | undefined): Ymd | null {
  if (!anchor) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(anchor);
  if (!m) return null;
  const t = Date.parse(anchor.length === 10 ? `${anchor}T00:00:00Z` : anchor);
  if (!Number.isFinite(t)) return null;
  return anchor.length === 10 ? { y: +m[1]!, m: +m[2]! - 1, d: +m[3]! } : ymd(t);
}

const iso = (x: Ymd) => isoDay(x.y, x.m, x.d);
const DIGIT = /\d/;
const QUICK = new RegExp(
  String.raw`\d|yesterday|today|tonight|tomorrow|\bago\b|last night|this (?:morning|afternoon|evening)|` +
    String.raw`\b(?:mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|week|month|year)`,
  'i',
);

/** Every date phrase in `text`, left to right, longest first on overlaps. Relative phrases need an anchor. */
export function findDates(text: string, anchor: string | null | undefined): DateMention[] {
  if (!QUICK.test(text)) return [];
  const a = parseAnchor(anchor);
  const found: DateMention[] = [];
  const digit = DIGIT.test(text);
  for (const [re, resolve, needsDigit] of RULES) {
    if (needsDigit && !digit) continue;
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null) {
      const r = resolve(m, a);
      if (r) found.push({ index: m.index, phrase: m[0], date: iso(r.at), precision: r.precision });
    }
  }
  found.sort((x, y) => x.index - y.index || y.phrase.length - x.phrase.length);
  const out: DateMention[] = [];
  let end = -1;
  for (const f of found) {
    if (f.index < end) continue;
    out.push(f);
    end = f.index + f.phrase.length;
  }
  return out;
}

/**
 * Resolves one date phrase ("two days ago", "next Monday", "on May 8", "in 2022") against an
 * anchor date (`YYYY-MM-DD` or ISO-8601) to `YYYY-MM-DD`; undefined when it is not a date phrase
 * this resolver knows, or when it is relative and the anchor is missing.
 */
export function resolveDate(phrase: string, anchor: string | null | undefined): string | undefined {
  return findDates(phrase.trim(), anchor)[0]?.date;
}
