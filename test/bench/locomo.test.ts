/**
 * @module test/bench/locomo
 * The LoCoMo harness: a tiny LoCoMo-format file written here (always), and the development set
 * from ../shared when it is present — there bars are asserted so that a regression fails CI. `npm
 * test` runs a slice of two conversations (263 of 1,157 questions, every category; about a third
 * of the CPU time); `LOCI_LOCOMO_FULL=1` runs the whole set against the bars of issue 3, as does
 * `npm run bench -- locomo` (BENCHMARKS.md).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runLocomoBench } from '../../src/internal.js';
import { tempDir } from '../helpers/cli.js';
import { LOCOMO_DEV as DEV, LOCOMO_SKIP } from '../helpers/locomo.js';

test('LoCoMo harness on a small file: metrics, categories, baseline, evidence quirks', async () => {
  const t = tempDir();
  try {
    const turn = (s: number, i: number, speaker: string, text: string) => ({ speaker, dia_id: `D${s}:${i}`, text });
    const conv = {
      sample_id: 'conv-test',
      conversation: {
        speaker_a: 'Ana',
        speaker_b: 'Ben',
        session_1_date_time: '1:00 pm on 3 March, 2023',
        session_1: [
          turn(1, 1, 'Ana', 'I adopted a cat named Pixel yesterday.'),
          turn(1, 2, 'Ben', 'Congrats on the cat!'),
        ],
        session_2_date_time: '2:00 pm on 10 April, 2023',
        session_2: [
          turn(2, 1, 'Ben', 'I started learning the cello last week.'),
          turn(2, 2, 'Ana', 'The cello sounds lovely.'),
        ],
        session_3_date_time: '3:00 pm on 20 May, 2023',
        session_3: [
          turn(3, 1, 'Ana', 'We hiked up the volcano on Saturday.'),
          turn(3, 2, 'Ben', 'Which volcano was it?'),
        ],
        session_4_date_time: '5:00 pm on 1 June, 2023',
      },
      qa: [
        { question: 'What is the name of Ana’s cat?', answer: 'Pixel', evidence: ['D1:1'], category: 4 },
        { question: 'What instrument does Ben learn?', answer: 'cello', evidence: ['D2:1; D2:2'], category: 1 },
        { question: 'Where did Ana hike in May 2023?', answer: 'a volcano', evidence: ['D:3:1'], category: 2 },
        { question: 'Unanswerable?', evidence: [], category: 3 },
        { question: 'Did Ben adopt a cat?', adversarial_answer: 'no', evidence: ['D1:2'], category: 5 },
      ],
    };
    const file = join(t.dir, 'mini.json');
    writeFileSync(file, JSON.stringify([conv]));
    const r = await runLocomoBench({ data: file });
    assert.equal(r.n, 4);
    assert.equal(r.dropped_no_evidence, 1);
    assert.equal(r.n_without_category_5, 3);
    for (const k of ['any@5', 'any@10', 'frac@5', 'frac@10', 'ndcg@10', 'by_category', 'baseline', 'seconds'] as const)
      assert.ok(k in r, k);
    assert.equal(r['any@5'], 1, 'three sessions: everything is in the top 5');
    assert.equal(r.baseline['any@5'], 1);
    assert.deepEqual(Object.keys(r.by_category).sort(), ['1', '2', '4', '5']);
  } finally {
    t.cleanup();
  }
});

/** Bars per run: measured (full set, BENCHMARKS.md; slice 0.935 / 0.928 / 0.849) less a margin. */
const FULL = process.env['LOCI_LOCOMO_FULL'] === '1';
const RUN = FULL
  ? { only: undefined, bars: { 'frac@10': 0.93, 'any@5': 0.92, 'ndcg@10': 0.8 } }
  : { only: ['conv-30', 'conv-44'], bars: { 'frac@10': 0.92, 'any@5': 0.91, 'ndcg@10': 0.83 } };

test(
  `LoCoMo development set${FULL ? '' : ' (two conversations)'}: Loci clearly beats plain BM25`,
  { skip: LOCOMO_SKIP },
  async () => {
    const r = await runLocomoBench({ data: DEV, ...(RUN.only ? { only: RUN.only } : {}) });
    const b = r.baseline;
    if (RUN.only) assert.equal(Object.keys(r.by_category).length, 5, 'the slice holds every category');
    for (const k of ['frac@10', 'any@5', 'ndcg@10'] as const)
      assert.ok(r[k] >= RUN.bars[k], `${k} ${r[k]} < ${RUN.bars[k]} (bm25 ${b[k]})`);
    for (const [cat, m] of Object.entries(r.by_category)) {
      const base = b.by_category[cat]!;
      for (const k of ['frac@10', 'any@5', 'ndcg@10'] as const) {
        assert.ok(m[k] >= base[k] - 1e-9, `category ${cat} ${k}: loci ${m[k]} < bm25 ${base[k]}`);
      }
    }
  },
);
