import { test } from 'node:test';
import assert from 'node:assert/strict';
import { porterStem } from './porter.js';

test('porter stems the classic examples from the paper', () => {
  const cases: Record<string, string> = {
    caresses: 'caress', ponies: 'poni', ties: 'ti', caress: 'caress', cats: 'cat',
    feed: 'feed', agreed: 'agre', plastered: 'plaster', bled: 'bled', motoring: 'motor', sing: 'sing',
    conflated: 'conflat', troubled: 'troubl', sized: 'size', hopping: 'hop', tanned: 'tan',
    falling: 'fall', hissing: 'hiss', fizzed: 'fizz', failing: 'fail', filing: 'file',
    happy: 'happi', sky: 'sky', relational: 'relat', conditional: 'condit', rational: 'ration',
    valenci: 'valenc', digitizer: 'digit', conformabli: 'conform', radicalli: 'radic',
    differentli: 'differ', vileli: 'vile', analogousli: 'analog', vietnamization: 'vietnam',
    predication: 'predic', operator: 'oper', feudalism: 'feudal', decisiveness: 'decis',
    hopefulness: 'hope', callousness: 'callous', formaliti: 'formal', sensitiviti: 'sensit',
    sensibiliti: 'sensibl', triplicate: 'triplic', formative: 'form', formalize: 'formal',
    electriciti: 'electr', electrical: 'electr', hopeful: 'hope', goodness: 'good',
    revival: 'reviv', allowance: 'allow', inference: 'infer', airliner: 'airlin',
    gyroscopic: 'gyroscop', adjustable: 'adjust', defensible: 'defens', irritant: 'irrit',
    replacement: 'replac', adjustment: 'adjust', dependent: 'depend', adoption: 'adopt',
    homologou: 'homolog', communism: 'commun', activate: 'activ', angulariti: 'angular',
    homologous: 'homolog', effective: 'effect', bowdlerize: 'bowdler', probate: 'probat',
    rate: 'rate', cease: 'ceas', controll: 'control', roll: 'roll',
    running: 'run', painting: 'paint', camping: 'camp', meetings: 'meet', researched: 'research',
  };
  for (const [w, s] of Object.entries(cases)) assert.equal(porterStem(w), s, w);
});

test('porter leaves short and non-ascii words alone', () => {
  assert.equal(porterStem('is'), 'is');
  assert.equal(porterStem('café'), 'café');
  assert.equal(porterStem('oauth2'), 'oauth2');
});
