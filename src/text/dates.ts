/**
 * @module text/dates
 * The shared vocabulary of dates written by people, used by every date reader of Loci (search time
 * cues, graph date phrases, project content dates, chat timestamps, the LoCoMo loader): English
 * month and weekday names, ordinal suffixes, 12-hour clock times, calendar-day checks and
 * `YYYY-MM-DD` formatting. Each reader keeps only its own grammar (which phrases it accepts and
 * what they mean: an interval for a search cue, a day for the graph, a timestamp for a chat line).
 * No dependency and no clock: pure functions and regex sources, cheap to load.
 */

/** Milliseconds in a UTC day. */
export const DAY_MS = 86_400_000;

/**
 * Regex source of one English month name, full or abbreviated (`jan`, `january`, `sep`, `sept`,
 * `september`, …), as ONE capturing group; use with the `i` flag. No trailing dot: callers add
 * `\\.?` where an abbreviation may carry one.
 */
export const MONTH_NAME =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|' +
  'sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';

/** Regex source of an optional English ordinal suffix (`st`, `nd`, `rd`, `th`); no group. */
export const ORDINAL_SUFFIX = '(?:st|nd|rd|th)?';

const MONTH_INDEX: Readonly<Record<string, number>> = {
  january: 0,
  jan: 0,
  february: 1,
  feb: 1,
  march: 2,
  mar: 2,
  april: 3,
  apr: 3,
  may: 4,
  june: 5,
  jun: 5,
  july: 6,
  jul: 6,
  august: 7,
  aug: 7,
  september: 8,
  sep: 8,
  sept: 8,
  october: 9,
  oct: 9,
  november: 10,
  nov: 10,
  december: 11,
  dec: 11,
};

/**
 * The 0-based month (0 = January … 11 = December) of an English month name written exactly, full
 * or abbreviated (`Mar`, `march`, `Sept`), case-insensitive; undefined for anything else.
 */
export function monthIndex(name: string): number | undefined {
  return MONTH_INDEX[name.toLowerCase()];
}

/**
 * The 0-based month named by the first three letters of `name` (`Mayday` → 4), case-insensitive;
 * undefined when they name no month. For text already matched by {@link MONTH_NAME} (where it
 * equals {@link monthIndex}) or for lenient readers of fixed formats.
 */
export function monthOfPrefix(name: string): number | undefined {
  return MONTH_INDEX[name.slice(0, 3).toLowerCase()];
}

const WEEKDAY_INDEX: Readonly<Record<string, number>> = {
  sunday: 0,
  sun: 0,
  monday: 1,
  mon: 1,
  tuesday: 2,
  tue: 2,
  tues: 2,
  wednesday: 3,
  wed: 3,
  thursday: 4,
  thu: 4,
  thur: 4,
  thurs: 4,
  friday: 5,
  fri: 5,
  saturday: 6,
  sat: 6,
};

/** Regex source of one English weekday name, full or abbreviated, as ONE capturing group (`i` flag). */
export const WEEKDAY_NAME =
  '(monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues|tue|wed|thurs|thur|thu|fri|sat|sun)';

/** The weekday (0 = Sunday … 6 = Saturday) of an English weekday name or abbreviation; undefined otherwise. */
export function weekdayIndex(name: string): number | undefined {
  return WEEKDAY_INDEX[name.toLowerCase()];
}

/**
 * The 24-hour hour of a clock hour and an optional `am` / `pm` marker (`a.m.` and `P.M.` too):
 * `12 am` → 0, `1 pm` → 13, `12 pm` → 12; without a marker the hour is returned as written.
 */
export function hour24(hour: number, ampm: string | undefined): number {
  const ap = ampm?.toLowerCase().replace(/\./g, '');
  if (ap === 'pm' && hour < 12) return hour + 12;
  if (ap === 'am' && hour === 12) return 0;
  return hour;
}

/** Days in a month (`month0` 0-based; months outside 0–11 roll over like `Date.UTC`). */
export function daysInMonth(year: number, month0: number): number {
  return new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate();
}

/** True when `d` is a day of the given month (`month0` 0–11): 2024-02-29 yes, 2023-02-29 no. */
export function isCalendarDay(year: number, month0: number, d: number): boolean {
  return month0 >= 0 && month0 <= 11 && d >= 1 && d <= daysInMonth(year, month0);
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** `YYYY-MM-DD` of a calendar day (`month0` 0-based), zero-padded. */
export function isoDay(year: number, month0: number, d: number): string {
  return `${pad(year, 4)}-${pad(month0 + 1)}-${pad(d)}`;
}
