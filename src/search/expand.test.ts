/**
 * @module search/expand.test
 * WordNet query expansion on a tiny WordNet-format dictionary written by the test (no WordNet
 * data copied): the most-frequent-sense index, derived forms, the cache file, the rare-word rule,
 * and hybrid search finding a drawer through a synonym (and not when expansion is off).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { storeOf } from '../../test/helpers/ranking.js';
import { baseForms, expandQuery, relatedWords } from './expand.js';
import { searchHybrid } from './index.js';
import { buildLexicon, LEXICON_FILE, loadLexicon, parseDataLine } from './wordnet.js';

/** A made-up dictionary in the WordNet 3 file format (offsets are line keys, not byte offsets). */
function fixtureDict(): string {
  const dir = mkdtempSync(join(tmpdir(), 'loci-wn-'));
  const header = '  1 a licence header line starts with two spaces\n';
  writeFileSync(
    join(dir, 'data.noun'),
    header +
      '00000001 10 n 02 logbook 0 diary 0 001 + 00000005 v 0201 | a daily record\n' +
      '00000002 06 n 01 card 0 000 | a small piece of stiff paper\n' +
      '00000003 18 n 02 wag 0 card 1 000 | a witty person\n',
  );
  writeFileSync(
    join(dir, 'data.verb'),
    header + '00000005 32 v 01 journalize 0 001 + 00000001 n 0102 01 + 08 00 | to record\n',
  );
  writeFileSync(join(dir, 'data.adj'), header);
  writeFileSync(join(dir, 'data.adv'), header);
  writeFileSync(
    join(dir, 'index.sense'),
    [
      'card%1:06:00:: 00000002 1 2',
      'card%1:18:00:: 00000003 2 7',
      'diary%1:10:00:: 00000001 1 0',
      'journalize%2:32:00:: 00000005 1 0',
      'logbook%1:10:00:: 00000001 1 0',
      'wag%1:18:00:: 00000003 1 0',
    ].join('\n') + '\n',
  );
  return dir;
}

test('a data line gives its words and pointers; the licence header is skipped', () => {
  assert.equal(parseDataLine('  1 header'), undefined);
  const r = parseDataLine('00000001 10 n 02 logbook 0 diary(p) 0 001 + 00000005 v 0201 | gloss');
  assert.deepEqual(r?.synset.words, ['logbook', 'diary']);
  assert.deepEqual(r?.synset.ptrs, [['+', '00000005', 'verb', 2, 1]]);
});

test('the index keeps the most frequent sense: synonyms, then derived forms of that word', () => {
  const lex = buildLexicon(fixtureDict());
  assert.deepEqual(lex.get('diary'), ['logbook', 'journalize']);
  assert.deepEqual(lex.get('logbook'), ['diary'], 'the derived form belongs to "diary" only');
  assert.deepEqual(lex.get('card'), ['wag'], 'the sense tagged 7 times wins over sense 1 tagged twice');
  assert.deepEqual(lex.get('journalize'), ['diary']);
});

test('inflected words find their base form; the cap holds', () => {
  const lex = new Map([['diary', ['journal', 'logbook', 'daybook']]]);
  assert.ok(baseForms('diaries').includes('diary'));
  assert.deepEqual(relatedWords(lex, 'diaries', 2), ['journal', 'logbook']);
  assert.deepEqual(relatedWords(lex, 'unknown', 2), []);
});

test('the built index is written to the cache folder once and read from there', () => {
  const dict = fixtureDict();
  const cache = join(mkdtempSync(join(tmpdir(), 'loci-wn-cache-')), 'cache');
  mkdirSync(cache);
  const lex = loadLexicon(cache, dict);
  assert.ok(existsSync(join(cache, LEXICON_FILE)));
  assert.match(readFileSync(join(cache, LEXICON_FILE), 'utf8'), /^diary\tlogbook journalize$/m);
  assert.equal(loadLexicon(cache, dict), lex, 'memoised');
});

const drawers = [
  { id: 'journal', wing: 'w', room: 'notes', text: 'We keep a logbook of the work in LOGBOOK.md.' },
  { id: 'other', wing: 'w', room: 'notes', text: 'The assessment of the project went well.' },
  { id: 'third', wing: 'w', room: 'notes', text: 'Project notes and the assessment plan.' },
  { id: 'fourth', wing: 'w', room: 'notes', text: 'The assessment and the project are done.' },
  { id: 'fifth', wing: 'w', room: 'notes', text: 'Another assessment of the project.' },
];

test('only words in at most maxDf drawers are expanded, with their related words', async () => {
  const store = await storeOf(drawers);
  const lexicon = () => buildLexicon(fixtureDict());
  const ex = await expandQuery(store, 'where is the diary of the project assessment', ['diari', 'project', 'assess'], {
    maxDf: 3,
    cap: 3,
    lexicon,
  });
  assert.deepEqual(ex.terms, { diary: ['logbook', 'journalize'] }, '"assessment" is in 4 drawers: not expanded');
  assert.ok(ex.tokens.includes('logbook'));
});

test('hybrid search finds a drawer through a related word, shows it, and not with expand: false', async () => {
  const store = await storeOf(drawers);
  const deps = { store, lexicon: () => buildLexicon(fixtureDict()) };
  const q = 'where is the diary of the assessment?';
  const on = await searchHybrid(deps, q);
  assert.equal(on.hits[0]?.id, 'journal');
  assert.deepEqual(on.expansion, { diary: ['logbook', 'journalize'] });
  const off = await searchHybrid(deps, q, { expand: false });
  assert.equal(off.expansion, undefined);
  assert.notEqual(off.hits[0]?.id, 'journal');
  const lexical = await searchHybrid(deps, q, { mode: 'lexical' });
  assert.equal(lexical.expansion, undefined, 'BM25 only stays plain');
});
