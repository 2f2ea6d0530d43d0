/**
 * @module search/feedback.test
 * Query expansion from the candidates' own text: the words chosen (feedback and associations) and
 * the second lexical pass in hybrid search, which finds a drawer sharing no query word with the
 * question but the vocabulary of the drawers that answer it best.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ids, storeOf } from '../../test/helpers/ranking.js';
import { associatedTerms, bestCoverage, expansionWords, feedbackTerms, proseCounts } from './feedback.js';
import { searchHybrid } from './hybrid.js';

const counts = (...texts: string[]) => texts.map(proseCounts);
const drawer = (id: string, text: string) => ({ id, wing: 'w', room: 'r', text });

test('feedbackTerms: words of the feedback drawers that the other candidates lack, query words left out', () => {
  const all = counts(
    'The journal lives in the notebook folder, notebook entries per session.',
    'Journal entries are written to the notebook after each session.',
    'The journal mode of the database is WAL.',
    'The journal was mentioned in passing.',
  );
  const words = feedbackTerms(all.slice(0, 2), all, new Set(['journal']), 3);
  assert.equal(words[0], 'notebook');
  assert.ok(!words.includes('journal'), 'the query word is not an expansion');
  assert.ok(!words.includes('the') && !words.includes('is'), 'no stop-words');
  assert.deepEqual(feedbackTerms(counts('1234 5678 0xdeadbeef'), all, new Set(), 5), [], 'no numbers or ids');
});

test('feedbackTerms: with minDocs 2 only words shared by two feedback drawers count', () => {
  const all = counts('notebook entries alpha', 'notebook entries beta', 'gamma delta');
  assert.deepEqual(feedbackTerms(all.slice(0, 2), all, new Set(), 5, 2).sort(), ['entri', 'notebook']);
});

test('associatedTerms: words that co-occur with a rare query word more than chance', () => {
  const docs = counts(
    'percentage shown as a percent probability',
    'the percentage is a percent of people',
    'people like the calculator',
    'the calculator shows a score',
    'the calculator inputs',
  );
  const words = associatedTerms(docs, ['percentag', 'calcul'], 3);
  assert.ok(words.includes('percent'), words.join(' '));
  assert.ok(!words.includes('calcul') && !words.includes('percentag'));
  assert.deepEqual(associatedTerms(docs.slice(0, 1), ['percentag'], 3), [], 'a word in every drawer says nothing');
});

test('expansionWords: nothing to learn from fewer than three loaded candidates', () => {
  const texts = new Map([
    ['a', { text: 'notebook entries' }],
    ['b', { text: 'notebook entries' }],
  ]);
  const ranked = [
    { id: 'a', bm25: 2 },
    { id: 'b', bm25: 1 },
  ];
  assert.deepEqual(expansionWords(ranked, texts, ['journal'], { mode: 0, docs: 3, terms: 5 }), []);
});

test('bestCoverage: the idf-weighted share of the query words the best text holds', () => {
  const texts = ['journal notebook', 'journal', 'notebook', 'other words'];
  assert.equal(bestCoverage(texts, ['journal', 'notebook']), 1);
  const c = bestCoverage(texts, ['journal', 'missing']);
  assert.ok(c > 0 && c < 0.5, String(c));
  assert.equal(bestCoverage([], ['journal']), 1, 'nothing to judge: no expansion asked for');
});

test('hybrid: the expansion pass finds a drawer with none of the query words, only when asked', async () => {
  const store = await storeOf([
    drawer('a1', 'We keep a journal: notebook entries for the assessment, one per session.'),
    drawer('a2', 'The journal is the notebook folder; assessment entries go there.'),
    drawer('a3', 'The journal mode of the database is WAL.'),
    drawer('target', "Saved today's notebook entries of the assessment."),
    drawer('other', 'The build runs the tests in CI.'),
  ]);
  const q = 'where is the journal kept?';
  const off = await searchHybrid({ store }, q);
  assert.ok(!ids(off).includes('target'), 'plain BM25 cannot see it');
  for (const feedbackMode of [0, 2]) {
    const on = await searchHybrid({ store, params: { feedback: 0.3, feedbackMode } }, q);
    assert.ok(ids(on).includes('target'), `mode ${feedbackMode}: ${ids(on).join(' ')}`);
    assert.ok(!ids(on).includes('other'));
    assert.equal(ids(on)[0], ids(off)[0], 'the expansion does not overrule the query words');
  }
  const gated = await searchHybrid({ store, params: { feedback: 0.3, feedbackGate: 0.2 } }, q);
  assert.deepEqual(ids(gated), ids(off), 'the best drawer covers more than the gate: no expansion');
});
