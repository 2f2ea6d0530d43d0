/**
 * @module search/spelling.test
 * British spellings in a query also search their American forms (real transcripts: "which colour …"
 * matched nothing, the transcripts and code say `color`), without dropping the query's own words.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ids, storeOf } from '../../test/helpers/ranking.js';
import { searchHybrid } from './hybrid.js';
import { americanVariants } from './spelling.js';

test('americanVariants: the regular British patterns, whole words only', () => {
  assert.equal(americanVariants('Which colour of the centre?'), 'color center');
  assert.equal(americanVariants('initialise, organised, normalisation'), 'initialize organized normalization');
  assert.equal(americanVariants('analyse the catalogue'), 'analyze catalog');
  assert.equal(americanVariants('cancelled labelling, favourite behaviour'), 'canceled labeling favorite behavior');
  assert.equal(americanVariants('the licence in grey'), 'license gray');
});

test('americanVariants: words that only look British are left alone', () => {
  // -our words shorter than six letters, -ll- words with one letter before the vowel, plain -is words
  assert.equal(americanVariants('four hours on tour, your call'), '');
  assert.equal(americanVariants('called filled rolled this crisis basis'), '');
  assert.equal(americanVariants('plain American color center'), '');
});

test('a British query finds the drawer written in American spelling, and keeps its own words', async () => {
  const store = await storeOf([
    { id: 'us', wing: 'w', room: 'r', text: 'The syntax highlighter picks a color for each code block.' },
    { id: 'other', wing: 'w', room: 'r', text: 'Each code block gets a copy button.' },
    { id: 'uk', wing: 'w', room: 'r', text: 'The colour of the banner is set in the theme file.' },
  ]);
  const r = await searchHybrid({ store }, 'which colour does each code block get?');
  assert.equal(ids(r)[0], 'us');
  assert.ok(r.tokens.includes('colour') && r.tokens.includes('color'));
  assert.ok(ids(r).includes('uk'), 'the British word still matches British text');
  const lex = await searchHybrid({ store }, 'colour', { mode: 'lexical' });
  assert.deepEqual(new Set(ids(lex)), new Set(['us', 'uk']));
});
