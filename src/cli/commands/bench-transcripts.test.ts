/**
 * @module cli/commands/bench-transcripts.test
 * `--params` of the retrieval benches: fusion weights as a JSON object of numbers, anything else
 * refused with INVALID_ARGUMENT before a palace is built.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { searchParamsOption } from './bench-transcripts.js';

test('searchParamsOption: a JSON object of numbers, or nothing', () => {
  assert.equal(searchParamsOption(undefined), undefined);
  assert.deepEqual(searchParamsOption('{"feedback":0.3,"feedbackGate":0.5}'), { feedback: 0.3, feedbackGate: 0.5 });
  for (const bad of ['', '0.3', '[1]', 'null', '{"feedback":"0.3"}', '{"feedback":null}', '{feedback:1}'])
    assert.throws(
      () => searchParamsOption(bad),
      (e: Error & { code?: string }) => e.code === 'INVALID_ARGUMENT',
      bad,
    );
});
