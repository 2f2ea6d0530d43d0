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

// ── relative dates rewritten as absolute ones (memory extraction, consolidation) ──

const DAY_MS = 86_400_000;
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;
/** Number words of date phrases ("in two weeks", "a couple of days ago"), by lower-cased word. */
export const NUMBER_WORDS: Readonly<Record<string, number>> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  'a couple of': 2,
  'couple of': 2,
  'a couple': 2,
};
const COUNT = String.raw`(\d{1,3}|a couple of|an?|one|two|three|four|five|six|seven|eight|nine|ten)`;
const WD = String.raw`(mon|tues|wednes|thurs|fri|satur|sun)day`;
/** Words after which a date needs no preposition of its own ("since yesterday" → "since 2026-03-03"). */
const PREPOSITION = /\b(?:on|by|until|till|before|after|since|from|in|during|of|for|through|to|at)\s+$/i;

const dayOf = (ms: number): number => Math.floor(ms / DAY_MS);
const isoOfDay = (d: number): string => new Date(d * DAY_MS).toISOString().slice(0, 10);
const weekdayOf = (d: number): number => new Date(d * DAY_MS).getUTCDay();
const mondayOf = (d: number): number => d - ((weekdayOf(d) + 6) % 7);
const count = (s: string): number => NUMBER_WORDS[s.toLowerCase()] ?? Number(s);
const ymOf = (d: number): [number, number] => {
  const t = new Date(d * DAY_MS);
  return [t.getUTCFullYear(), t.getUTCMonth()];
};
const monthName = (y: number, m: number): string => {
  const t = new Date(Date.UTC(y, m, 1));
  return `${MONTHS[t.getUTCMonth()]} ${t.getUTCFullYear()}`;
};
const weekdayIndex = (s: string): number =>
  ['sun', 'mon', 'tues', 'wednes', 'thurs', 'fri', 'satur'].indexOf(s.toLowerCase());

/**
 * What a phrase becomes: `text`, introduced by `lead` when no preposition stands before it. `own`:
 * the phrase carried its own preposition ("in 2 days", "by Friday"), so `lead` is always written.
 */
type Rewrite = { text: string; lead: string; own?: boolean };
type Rule = [RegExp, (m: RegExpExecArray, today: number) => Rewrite];

const onDay = (d: number): Rewrite => ({ text: isoOfDay(d), lead: 'on' });
const weekdayDate = (d: number): string => `${WEEKDAYS[weekdayOf(d)]} ${isoOfDay(d)}`;

function offset(unit: string, n: number, today: number): Rewrite {
  const u = unit.toLowerCase();
  if (u === 'day') return onDay(today + n);
  if (u === 'week') return { text: isoOfDay(today + 7 * n), lead: 'around' };
  const [y, m] = ymOf(today);
  if (u === 'month') return { text: monthName(y, m + n), lead: 'in' };
  return { text: String(y + n), lead: 'in' };
}

/** In order: a span matched by an earlier rule is not matched again. */
const RULES: Rule[] = [
  [/\bthe day (before yesterday|after tomorrow)\b/gi, (m, t) => onDay(t + (/^before/i.test(m[1]!) ? -2 : 2))],
  [
    /\b(?:(by|at) )?(?:the )?end of (?:the )?(day|week|month)\b|\bEO([DW])\b/gi,
    (m, t) => {
      const u = (m[2] ?? (m[3]!.toUpperCase() === 'D' ? 'day' : 'week')).toLowerCase();
      const own = m[1] !== undefined;
      if (u === 'day') return { text: `the end of ${isoOfDay(t)}`, lead: 'by', own };
      if (u === 'week') return { text: weekdayDate(mondayOf(t) + 4), lead: 'by', own };
      const [y, mo] = ymOf(t);
      return { text: isoOfDay(dayOf(Date.UTC(y, mo + 1, 0))), lead: 'by', own };
    },
  ],
  [
    /\b(yesterday|today|tonight|tomorrow|last night|this morning|this afternoon|this evening|earlier today)\b/gi,
    (m, t) => {
      const w = m[1]!.toLowerCase();
      return onDay(t + (w === 'yesterday' || w === 'last night' ? -1 : w === 'tomorrow' ? 1 : 0));
    },
  ],
  [new RegExp(String.raw`\b${COUNT} (day|week|month|year)s? ago\b`, 'gi'), (m, t) => offset(m[2]!, -count(m[1]!), t)],
  [
    new RegExp(String.raw`\bin ${COUNT} (day|week|month|year)s?\b`, 'gi'),
    (m, t) => ({ ...offset(m[2]!, count(m[1]!), t), own: true }),
  ],
  [
    /\b(last|this|next|past|previous|coming) (week|weekend|month|year)\b(?! of \d)/gi,
    (m, t) => {
      const w = m[1]!.toLowerCase();
      const n = w === 'this' ? 0 : w === 'next' || w === 'coming' ? 1 : -1;
      const unit = m[2]!.toLowerCase();
      if (unit === 'week') return { text: `the week of ${isoOfDay(mondayOf(t) + 7 * n)}`, lead: 'in' };
      if (unit === 'weekend') return { text: `the weekend of ${isoOfDay(mondayOf(t) + 5 + 7 * n)}`, lead: 'on' };
      const [y, mo] = ymOf(t);
      return { text: unit === 'month' ? monthName(y, mo + n) : String(y + n), lead: 'in' };
    },
  ],
  [
    new RegExp(String.raw`\b(last|this|next|coming|on|by|until|before) ${WD}\b(?!,? \d{4}-\d{2}-\d{2})`, 'gi'),
    (m, t) => {
      const w = m[1]!.toLowerCase();
      const target = weekdayIndex(m[2]!);
      const wd = weekdayOf(t);
      if (w === 'next' || w === 'coming') return { text: weekdayDate(t + ((target - wd + 6) % 7) + 1), lead: 'on' };
      if (w === 'last') return { text: weekdayDate(t - (((wd - target + 6) % 7) + 1)), lead: 'on' };
      if (w === 'this' || w === 'on') {
        return { text: weekdayDate(mondayOf(t) + ((target + 6) % 7)), lead: 'on', own: w === 'on' };
      }
      // by / until / before: a deadline, the next such day (today included)
      return { text: weekdayDate(t + ((target - wd + 7) % 7)), lead: w, own: true };
    },
  ],
  [
    /\b(last|this|next) (january|february|march|april|may|june|july|august|september|october|november|december)\b/gi,
    (m, t) => {
      const w = m[1]!.toLowerCase();
      const month = MONTHS.findIndex((x) => x.toLowerCase() === m[2]!.toLowerCase());
      const [y, cur] = ymOf(t);
      const year = w === 'this' ? y : w === 'last' ? (month < cur ? y : y - 1) : month > cur ? y : y + 1;
      return { text: `${MONTHS[month]} ${year}`, lead: 'in' };
    },
  ],
];

function rewriteProse(text: string, today: number): string {
  const spans: { start: number; end: number; text: string }[] = [];
  for (const [re, resolve] of RULES) {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null) {
      const start = m.index;
      const end = start + m[0].length;
      if (spans.some((s) => start < s.end && end > s.start)) continue;
      const r = resolve(m, today);
      const before = text.slice(0, start);
      let out = r.own || !PREPOSITION.test(before) ? `${r.lead} ${r.text}` : r.text;
      // Keep a capital at the start of a sentence.
      if (/^[A-Z][a-z]/.test(m[0]) && /(?:^|[.!?:]\s+|\n\s*)$/.test(before)) out = out[0]!.toUpperCase() + out.slice(1);
      spans.push({ start, end, text: out });
    }
  }
  spans.sort((a, b) => b.start - a.start);
  let result = text;
  for (const s of spans) result = result.slice(0, s.start) + s.text + result.slice(s.end);
  return result;
}

/**
 * Rewrites relative dates in `text` ("yesterday", "next Friday", "in two weeks", "last month",
 * "by end of week") as absolute ones, reckoned from `saidAt` — when the words were said (an
 * ISO-8601 date or date-time, or a Date; its UTC calendar day is "today"). Memories outlive the
 * conversation they came from, so "the release is on Thursday" must become "the release is on
 * Thursday 2026-03-05". Shared by memory extraction and consolidation.
 *
 * | phrase (said Wednesday 2026-03-04) | becomes |
 * | --- | --- |
 * | yesterday / today / tomorrow / tonight | on 2026-03-03 / on 2026-03-04 / on 2026-03-05 / on 2026-03-04 |
 * | since yesterday, by tomorrow | since 2026-03-03, by 2026-03-05 (a preposition before it is kept) |
 * | 3 days ago / in 2 days | on 2026-03-01 / on 2026-03-06 |
 * | two weeks ago / in a month / a year ago | around 2026-02-18 / in April 2026 / in 2025 |
 * | last week / next week | in the week of 2026-02-23 / in the week of 2026-03-09 (Mondays) |
 * | this month / next year / next March | in March 2026 / in 2027 / in March 2027 |
 * | this weekend | on the weekend of 2026-03-07 |
 * | next Friday / last Monday | on Friday 2026-03-06 / on Monday 2026-03-02 (strictly after / before) |
 * | on Monday / this Friday | on Monday 2026-03-02 / on Friday 2026-03-06 (the current Mon–Sun week) |
 * | by Friday / until Monday | by Friday 2026-03-06 / until Monday 2026-03-09 (next such day, today included) |
 * | end of day / EOW / end of the month | by the end of 2026-03-04 / by Friday 2026-03-06 / by 2026-03-31 |
 *
 * Text inside backticks or code fences is left alone; a capital at the start of a sentence stays
 * ("Yesterday we…" → "On 2026-03-03 we…"). Idempotent: the output holds no phrase it rewrites. An
 * invalid `saidAt` returns `text` unchanged. Vague phrases ("recently", "soon") are left as they are.
 */
export function rewriteRelativeDates(text: string, saidAt: string | Date): string {
  const ms =
    typeof saidAt === 'string'
      ? Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(saidAt) ? `${saidAt}T00:00:00Z` : saidAt)
      : saidAt.getTime();
  if (!Number.isFinite(ms) || text === '') return text;
  const today = dayOf(ms);
  const parts = text.split(/(```[\s\S]*?(?:```|$)|`[^`\n]*`)/);
  return parts.map((p, i) => (i % 2 === 1 ? p : rewriteProse(p, today))).join('');
}
