/** @module core/dates.test */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rewriteRelativeDates } from './dates.js';

// Wednesday 2026-03-04
const AT = '2026-03-04T10:00:00Z';

const CASES: [string, string][] = [
  ['Yesterday we shipped it', 'On 2026-03-03 we shipped it'],
  ['the release is on Thursday', 'the release is on Thursday 2026-03-05'],
  ['send it by tomorrow please', 'send it by 2026-03-05 please'],
  ['the deploy broke 3 days ago', 'the deploy broke on 2026-03-01'],
  ['we cut the branch in 2 days', 'we cut the branch on 2026-03-06'],
  ['it started two weeks ago', 'it started around 2026-02-18'],
  ['the freeze starts in a month', 'the freeze starts in April 2026'],
  ['last week we moved to pnpm', 'in the week of 2026-02-23 we moved to pnpm'],
  ['the audit is next week', 'the audit is in the week of 2026-03-09'],
  ['budget closes this month', 'budget closes in March 2026'],
  ['migrate next year', 'migrate in 2027'],
  ['launch next March', 'launch in March 2027'],
  ['on call this weekend', 'on call on the weekend of 2026-03-07'],
  ['demo next Friday', 'demo on Friday 2026-03-06'],
  ['it regressed last Monday', 'it regressed on Monday 2026-03-02'],
  ['the outage on Monday', 'the outage on Monday 2026-03-02'],
  ['due by Friday', 'due by Friday 2026-03-06'],
  ['frozen until Monday', 'frozen until Monday 2026-03-09'],
  ['finish it end of day', 'finish it by the end of 2026-03-04'],
  ['need it EOW', 'need it by Friday 2026-03-06'],
  ['due by end of the month', 'due by 2026-03-31'],
  ['broken since yesterday', 'broken since 2026-03-03'],
  ['the day after tomorrow', 'on 2026-03-06'],
];

test('rewriteRelativeDates: each phrase becomes an absolute date reckoned from when it was said', () => {
  for (const [input, want] of CASES) assert.equal(rewriteRelativeDates(input, AT), want, input);
});

test('rewriteRelativeDates is idempotent', () => {
  for (const [input] of CASES) {
    const once = rewriteRelativeDates(input, AT);
    assert.equal(rewriteRelativeDates(once, AT), once, input);
    assert.equal(rewriteRelativeDates(once, '2030-01-01'), once, `${input} (another day)`);
  }
});

test('rewriteRelativeDates leaves code, vague phrases and invalid anchors alone', () => {
  assert.equal(rewriteRelativeDates('run `git log --since yesterday` now', AT), 'run `git log --since yesterday` now');
  assert.equal(rewriteRelativeDates('```\ntoday\n```', AT), '```\ntoday\n```');
  assert.equal(
    rewriteRelativeDates('we changed it recently and will again soon', AT),
    'we changed it recently and will again soon',
  );
  assert.equal(rewriteRelativeDates('tomorrow', 'not a date'), 'tomorrow');
  assert.equal(rewriteRelativeDates('tomorrow', new Date(AT)), 'on 2026-03-05');
  assert.equal(rewriteRelativeDates('tomorrow', '2026-12-31'), 'on 2027-01-01');
});
