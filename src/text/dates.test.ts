/**
 * @module text/dates.test
 * The shared date vocabulary: month and weekday names, ordinals, 12-hour times, calendar days; and
 * the readers that use it agree on month names (one table, one pattern).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MONTH_NAME,
  ORDINAL_SUFFIX,
  WEEKDAY_NAME,
  daysInMonth,
  hour24,
  isCalendarDay,
  isoDay,
  monthIndex,
  monthOfPrefix,
  weekdayIndex,
} from './index.js';
import { parseLocomoDate } from '../bench/index.js';
import { resolveDate } from '../kg/extract/dates.js';
import { parseTimeCues } from '../search/time-cues.js';

test('month names: every spelling the pattern accepts maps to its month, exactly and by prefix', () => {
  const re = new RegExp(`^${MONTH_NAME}$`, 'i');
  const spellings: [string, number][] = [
    ['jan', 0],
    ['January', 0],
    ['feb', 1],
    ['FEBRUARY', 1],
    ['mar', 2],
    ['march', 2],
    ['apr', 3],
    ['april', 3],
    ['may', 4],
    ['jun', 5],
    ['june', 5],
    ['jul', 6],
    ['july', 6],
    ['aug', 7],
    ['august', 7],
    ['sep', 8],
    ['sept', 8],
    ['September', 8],
    ['oct', 9],
    ['october', 9],
    ['nov', 10],
    ['november', 10],
    ['dec', 11],
    ['december', 11],
  ];
  for (const [s, m] of spellings) {
    assert.ok(re.test(s), s);
    assert.equal(monthIndex(s), m, s);
    assert.equal(monthOfPrefix(s), m, s);
  }
  for (const s of ['ja', 'mayday', 'sepember', 'marc', 'juner']) assert.equal(re.test(s), false, s);
  assert.equal(monthIndex('Mayday'), undefined);
  assert.equal(monthOfPrefix('Mayday'), 4);
  assert.equal(monthOfPrefix('xyz'), undefined);
});

test('weekdays, ordinals and 12-hour clocks', () => {
  const wd = new RegExp(`^${WEEKDAY_NAME}$`, 'i');
  for (const [s, d] of [
    ['sun', 0],
    ['Monday', 1],
    ['tues', 2],
    ['wed', 3],
    ['thurs', 4],
    ['fri', 5],
    ['Saturday', 6],
  ] as const) {
    assert.ok(wd.test(s), s);
    assert.equal(weekdayIndex(s), d, s);
  }
  assert.ok(new RegExp(`^8${ORDINAL_SUFFIX}$`).test('8th') && new RegExp(`^8${ORDINAL_SUFFIX}$`).test('8'));
  assert.deepEqual(
    [hour24(12, 'am'), hour24(1, 'pm'), hour24(12, 'PM'), hour24(11, 'a.m.'), hour24(14, undefined)],
    [0, 13, 12, 11, 14],
  );
});

test('calendar days and YYYY-MM-DD', () => {
  assert.equal(daysInMonth(2024, 1), 29);
  assert.equal(daysInMonth(2023, 1), 28);
  assert.equal(isCalendarDay(2024, 1, 29), true);
  assert.equal(isCalendarDay(2023, 1, 29), false);
  assert.equal(isCalendarDay(2023, 12, 5), false, 'month 13 is no month (it used to roll over in kg dates)');
  assert.equal(isCalendarDay(2023, 0, 0), false);
  assert.equal(isoDay(987, 0, 5), '0987-01-05');
});

test('the readers share the vocabulary: same phrase, same month', () => {
  assert.equal(parseLocomoDate('1:56 pm on 8 Sept, 2023'), '2023-09-08T13:56:00.000Z');
  assert.equal(parseLocomoDate('12:05 am on 1 January, 2023'), '2023-01-01T00:05:00.000Z');
  assert.equal(resolveDate('Sept 8, 2023', null), '2023-09-08');
  const [cue] = parseTimeCues('what happened on 8 Sept, 2023', Date.UTC(2024, 0, 1));
  assert.equal(cue?.start, Date.UTC(2023, 8, 8));
  // An impossible ISO month is not a date (kg used to print 2023-13-05).
  assert.equal(resolveDate('2023-13-05', null), undefined);
});
