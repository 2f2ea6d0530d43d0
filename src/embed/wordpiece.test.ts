/** @module embed/wordpiece.test — the BERT WordPiece tokenizer against hand-checked encodings. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { isLociError } from '../core/errors.js';
import { TINY_VOCAB, tinyTokenizerJson } from '../../test/helpers/tiny-model.js';
import { loadWordPiece } from './index.js';

const path = '/models/tiny/tokenizer.json';
const tok = (opts: { maxLength?: number | null; over?: Record<string, unknown> } = {}) =>
  loadWordPiece({ ...tinyTokenizerJson({ maxLength: opts.maxLength }), ...opts.over }, { path });
const tokens = (text: string, t = tok()) => t.encode(text).tokens;

describe('WordPiece tokenizer', () => {
  it('adds [CLS]/[SEP], lowercases and isolates punctuation', () => {
    const e = tok().encode('Hello, World!');
    assert.deepEqual(e.tokens, ['[CLS]', 'hello', ',', 'world', '!', '[SEP]']);
    assert.deepEqual(e.ids, [2, 10, 16, 11, 17, 3]);
    assert.deepEqual(e.typeIds, [0, 0, 0, 0, 0, 0]);
  });

  it('splits words greedily into ## continuations', () => {
    assert.deepEqual(tokens('unbelievable cats'), ['[CLS]', 'un', '##believ', '##able', 'cat', '##s', '[SEP]']);
    assert.deepEqual(tokens('authoring'), ['[CLS]', 'auth', '##or', '##ing', '[SEP]']);
  });

  it('maps a word with any unmatched piece to a single [UNK]', () => {
    assert.deepEqual(tokens('catx the zebra'), ['[CLS]', '[UNK]', 'the', '[UNK]', '[SEP]']);
  });

  it('turns words longer than max_input_chars_per_word into [UNK]', () => {
    const ok = `cat${'s'.repeat(97)}`; // 100 chars
    assert.equal(tokens(ok).length, 2 + 1 + 97);
    assert.deepEqual(tokens(`${ok}s`), ['[CLS]', '[UNK]', '[SEP]']);
  });

  it('strips accents, cleans control characters and treats tabs and newlines as spaces', () => {
    assert.deepEqual(tokens('Café'), ['[CLS]', 'cafe', '[SEP]']);
    assert.deepEqual(tokens('hel\u0000lo\tworld\r\nthe\u200bcat'), ['[CLS]', 'hello', 'world', '[UNK]', '[SEP]']);
  });

  it('keeps accents when strip_accents is false', () => {
    const json = tinyTokenizerJson();
    json['normalizer'] = {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: false,
      lowercase: true,
    };
    assert.deepEqual(tokens('café', loadWordPiece(json, { path })), ['[CLS]', '[UNK]', '[SEP]']);
  });

  it('splits CJK ideographs into separate words only when the normalizer says so', () => {
    assert.deepEqual(tokens('我们'), ['[CLS]', '我', '们', '[SEP]']);
    const json = tinyTokenizerJson();
    json['normalizer'] = {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: false,
      strip_accents: null,
      lowercase: true,
    };
    assert.deepEqual(tokens('我们', loadWordPiece(json, { path })), ['[CLS]', '[UNK]', '[SEP]']);
  });

  it('matches special tokens written in the text', () => {
    const e = tok().encode('hello [MASK] world');
    assert.deepEqual(e.tokens, ['[CLS]', 'hello', '[MASK]', 'world', '[SEP]']);
    assert.deepEqual(e.ids, [2, 10, 4, 11, 3]);
  });

  it('truncates to max_length, special tokens included, from the right or the left', () => {
    assert.deepEqual(tokens('the cat sat on the mat', tok({ maxLength: 5 })), ['[CLS]', 'the', 'cat', 'sat', '[SEP]']);
    const json = tinyTokenizerJson({ maxLength: 5 });
    (json['truncation'] as Record<string, unknown>)['direction'] = 'Left';
    assert.deepEqual(tokens('the cat sat on the mat', loadWordPiece(json, { path })), [
      '[CLS]',
      'on',
      'the',
      'mat',
      '[SEP]',
    ]);
  });

  it('takes max_length from options, then tokenizer.json, then 256, capped by max positions', () => {
    assert.equal(tok().maxLength, 128);
    assert.equal(tok({ maxLength: null }).maxLength, 256);
    assert.equal(loadWordPiece(tinyTokenizerJson(), { path, maxLength: 64 }).maxLength, 64);
    assert.equal(loadWordPiece(tinyTokenizerJson({ maxLength: null }), { path, maxPositions: 32 }).maxLength, 32);
  });

  it('supports the older BertProcessing post-processor and sequence components', () => {
    const t = tok({
      over: {
        post_processor: { type: 'BertProcessing', sep: ['[SEP]', 3], cls: ['[CLS]', 2] },
        normalizer: {
          type: 'Sequence',
          normalizers: [{ type: 'NFD' }, { type: 'Lowercase' }, { type: 'StripAccents' }],
        },
        pre_tokenizer: {
          type: 'Sequence',
          pretokenizers: [{ type: 'WhitespaceSplit' }, { type: 'Punctuation', behavior: 'Isolated' }],
        },
      },
    });
    assert.deepEqual(t.encode('Café, hello!').ids, [2, 19, 16, 10, 17, 3]);
  });

  it('pads a batch to its longest text with pad ids and a zero attention mask', () => {
    const b = tok().encodeBatch(['hello world', 'cat']);
    assert.equal(b.batch, 2);
    assert.equal(b.seq, 4);
    assert.deepEqual(Array.from(b.inputIds, Number), [2, 10, 11, 3, 2, 6, 3, 0]);
    assert.deepEqual(Array.from(b.attentionMask, Number), [1, 1, 1, 1, 1, 1, 1, 0]);
    assert.deepEqual(Array.from(b.tokenTypeIds, Number), [0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('refuses tokenizer components it does not implement, naming them', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ model: { type: 'BPE', vocab: {}, merges: [] } }, 'model.type'],
      [{ normalizer: { type: 'Precompiled', precompiled_charsmap: '' } }, 'normalizer.type'],
      [{ pre_tokenizer: { type: 'Metaspace', replacement: '▁' } }, 'pre_tokenizer.type'],
      [{ post_processor: { type: 'RobertaProcessing' } }, 'post_processor.type'],
    ];
    for (const [over, component] of cases) {
      assert.throws(
        () => loadWordPiece({ ...tinyTokenizerJson(), ...over }, { path }),
        (e) => isLociError(e, 'TOKENIZER_UNSUPPORTED') && e.details.component === component && e.message.includes(path),
      );
    }
  });

  it('never exceeds max_length and always frames the text with [CLS] … [SEP] (property)', () => {
    const t = tok({ maxLength: 12 });
    const words = fc.constantFrom(
      ...TINY_VOCAB.filter((w) => !w.startsWith('##') && !w.startsWith('[')),
      'Zebra',
      'CAFÉ',
      '我们',
      '\t',
      '!!',
    );
    fc.assert(
      fc.property(fc.array(words, { maxLength: 30 }), (ws) => {
        const e = t.encode(ws.join(' '));
        return (
          e.ids.length <= 12 &&
          e.ids[0] === 2 &&
          e.ids.at(-1) === 3 &&
          e.ids.every((id) => id >= 0 && id < TINY_VOCAB.length)
        );
      }),
    );
  });
});
