/**
 * @module test/bench/longmemeval
 * The LongMemEval loader and harness on a small file the test writes: session documents of user
 * turns only, any@k/all@k, abstention questions left out, baseline in the same run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runLongMemEvalBench } from '../../src/internal.js';
import { tempDir } from '../helpers/cli.js';

const session = (user: string, assistant = 'Sure, noted.') => [
  { role: 'user', content: user },
  { role: 'assistant', content: assistant },
];

test('LongMemEval harness: user-turn documents, abstentions excluded, baseline beside', async () => {
  const t = tempDir();
  try {
    const items = [
      {
        question_id: 'q1',
        question_type: 'single-session-user',
        question: 'What breed is my dog?',
        question_date: '2023/06/01 (Thu) 10:00',
        haystack_session_ids: ['s1', 's2', 's3'],
        haystack_dates: ['2023/05/01 (Mon) 09:00', '2023/05/02 (Tue) 09:00', '2023/05/03 (Wed) 09:00'],
        haystack_sessions: [
          session('I just adopted a golden retriever puppy, my dog is a golden retriever named Max.'),
          session('Can you suggest a pasta recipe with mushrooms?'),
          session('What is the capital of Portugal?', 'The dog breed golden retriever is popular. Lisbon.'),
        ],
        answer_session_ids: ['s1'],
      },
      {
        question_id: 'q2_abs',
        question_type: 'single-session-user',
        question: 'What colour is my car?',
        haystack_session_ids: ['s1'],
        haystack_sessions: [session('hello')],
        answer_session_ids: [],
      },
    ];
    const file = join(t.dir, 'lme.json');
    writeFileSync(file, JSON.stringify(items));
    const r = await runLongMemEvalBench({ data: file });
    assert.equal(r.n, 1);
    assert.equal(r.abstentions, 1);
    assert.equal(r['any@5'], 1);
    assert.equal(r.baseline['any@5'], 1);
    assert.ok(r.by_type['single-session-user']);
    assert.match(r.rendering, /user turn/);
    await assert.rejects(runLongMemEvalBench({ data: join(t.dir, 'missing.json') }), /PATH_NOT_FOUND|no such file/);
    writeFileSync(join(t.dir, 'bad.json'), '{"not": "an array"}');
    await assert.rejects(runLongMemEvalBench({ data: join(t.dir, 'bad.json') }), /LongMemEval/);
  } finally {
    t.cleanup();
  }
});
