import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTimeCues, stripTimeCues, timeProximity } from './time-cues.js';

const iso = (t: number) => new Date(t).toISOString().slice(0, 10);

test('absolute dates in several forms become day, month and year intervals', () => {
  const c = parseTimeCues('What did Gina find on 1 February, 2023 and on May 8, 2023?');
  assert.deepEqual(
    c.map((x) => [iso(x.start), iso(x.end)]),
    [
      ['2023-02-01', '2023-02-02'],
      ['2023-05-08', '2023-05-09'],
    ],
  );
  const m = parseTimeCues('Where did Joanna travel to in July 2022?');
  assert.deepEqual(
    m.map((x) => [iso(x.start), iso(x.end), x.text]),
    [['2022-07-01', '2022-08-01', 'July 2022']],
  );
  const y = parseTimeCues('What did she paint in 2022?');
  assert.deepEqual(
    y.map((x) => [iso(x.start), iso(x.end)]),
    [['2022-01-01', '2023-01-01']],
  );
  assert.deepEqual(
    parseTimeCues('deploy 2026-01-15').map((x) => iso(x.start)),
    ['2026-01-15'],
  );
});

test('relative cues resolve against now; plain numbers are not dates', () => {
  const now = Date.UTC(2026, 10, 29, 12);
  assert.equal(iso(parseTimeCues('what did we decide yesterday', now)[0]!.start), '2026-11-28');
  assert.equal(parseTimeCues('what did we do last week', now).length, 1);
  assert.equal(parseTimeCues('how many 2023 tickets are open', now).length, 0);
  assert.equal(parseTimeCues('it has 3 turtles', now).length, 0);
});

test('stripping removes the cue words; proximity is 1 inside and decays outside', () => {
  const q = 'What did Maria share on 16 June, 2023?';
  const cues = parseTimeCues(q);
  assert.equal(stripTimeCues(q, cues).includes('June'), false);
  assert.equal(timeProximity('2023-06-16T15:00:00Z', cues), 1);
  const later = timeProximity('2023-06-26', cues);
  assert.ok(later > 0.3 && later < 0.5);
  assert.equal(timeProximity(null, cues), 0);
  assert.equal(timeProximity('2023-06-16', []), 0);
});
