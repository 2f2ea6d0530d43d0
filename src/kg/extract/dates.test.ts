/** @module kg/extract/dates.test — relative and absolute date phrases resolved against an anchor (table). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findDates, resolveDate } from './dates.js';

const ANCHOR = '2023-05-10T13:56:00.000Z'; // a Wednesday

test('resolveDate turns relative and absolute phrases into dates (table)', () => {
  const table: [string, string | undefined][] = [
    ['yesterday', '2023-05-09'],
    ['today', '2023-05-10'],
    ['tonight', '2023-05-10'],
    ['tomorrow', '2023-05-11'],
    ['last night', '2023-05-09'],
    ['the day before yesterday', '2023-05-08'],
    ['the day after tomorrow', '2023-05-12'],
    ['two days ago', '2023-05-08'],
    ['2 days ago', '2023-05-08'],
    ['a week ago', '2023-05-03'],
    ['3 weeks ago', '2023-04-19'],
    ['a couple of weeks ago', '2023-04-26'],
    ['a month ago', '2023-04-10'],
    ['two years ago', '2021-05-10'],
    ['two weekends ago', '2023-04-29'],
    ['in 2 weeks', '2023-05-24'],
    ['in a month', '2023-06-10'],
    ['last week', '2023-05-01'],
    ['this week', '2023-05-08'],
    ['next week', '2023-05-15'],
    ['past week', '2023-05-01'],
    ['last month', '2023-04-01'],
    ['next month', '2023-06-01'],
    ['last year', '2022-01-01'],
    ['this year', '2023-01-01'],
    ['next year', '2024-01-01'],
    ['last weekend', '2023-05-06'],
    ['this weekend', '2023-05-13'],
    ['last Friday', '2023-05-05'],
    ['last Wednesday', '2023-05-03'],
    ['last fri', '2023-05-05'],
    ['next Monday', '2023-05-15'],
    ['next Wednesday', '2023-05-17'],
    ['this Friday', '2023-05-12'],
    ['on Monday', '2023-05-08'],
    ['on Wednesday', '2023-05-10'],
    ['on May 8', '2023-05-08'],
    ['May 8th', '2023-05-08'],
    ['8 May', '2023-05-08'],
    ['the 8th of May', '2023-05-08'],
    ['8 May, 2023', '2023-05-08'],
    ['May 8th, 2022', '2022-05-08'],
    ['December 28', '2022-12-28'],
    ['Jan 3', '2023-01-03'],
    ['in June', '2023-06-01'],
    ['in December', '2022-12-01'],
    ['last March', '2023-03-01'],
    ['last May', '2022-05-01'],
    ['next June', '2023-06-01'],
    ['in May 2022', '2022-05-01'],
    ['March 2021', '2021-03-01'],
    ['in 2022', '2022-01-01'],
    ['since 2019', '2019-01-01'],
    ['2024-02-29', '2024-02-29'],
    ['February 30', undefined],
    ['2023-02-29', undefined],
    ['recently', undefined],
    ['a few days ago', undefined],
    ['the other day', undefined],
    ['May I ask?', undefined],
    ['in 42 ways', undefined],
  ];
  for (const [phrase, want] of table) assert.equal(resolveDate(phrase, ANCHOR), want, phrase);
});

test('relative phrases need an anchor; absolute ones do not', () => {
  assert.equal(resolveDate('yesterday', null), undefined);
  assert.equal(resolveDate('May 8', null), undefined);
  assert.equal(resolveDate('May 8, 2021', null), '2021-05-08');
  assert.equal(resolveDate('in 2022', undefined), '2022-01-01');
  assert.equal(resolveDate('yesterday', '2024-03-01'), '2024-02-29');
  assert.equal(resolveDate('a year ago', '2024-02-29'), '2023-02-28');
});

test('findDates finds phrases in running text, longest first', () => {
  const got = findDates(
    'I went to a LGBTQ support group yesterday, and the day before yesterday I painted. In 2022 I moved.',
    ANCHOR,
  );
  assert.deepEqual(
    got.map((d) => [d.phrase, d.date, d.precision]),
    [
      ['yesterday', '2023-05-09', 'day'],
      ['the day before yesterday', '2023-05-08', 'day'],
      ['In 2022', '2022-01-01', 'year'],
    ],
  );
  assert.deepEqual(findDates('no dates here', ANCHOR), []);
});
