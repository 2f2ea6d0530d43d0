/**
 * @module test/helpers/tiny-model
 * Writes a tiny sentence-embedding model folder in Hugging Face layout (config.json,
 * tokenizer.json with a 30-token BERT WordPiece vocabulary, onnx/model.onnx built by
 * {@link buildEmbeddingModel}) into a temp dir, and computes the vectors it must produce.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildEmbeddingModel } from './onnx-builder.js';

/** The vocabulary, by id. */
export const TINY_VOCAB = [
  '[PAD]',
  '[UNK]',
  '[CLS]',
  '[SEP]',
  '[MASK]',
  'the',
  'cat',
  'sat',
  'on',
  'mat',
  'hello',
  'world',
  'un',
  '##believ',
  '##able',
  '##s',
  ',',
  '!',
  '.',
  'cafe',
  'auth',
  '##or',
  'test',
  '我',
  '们',
  'db',
  'run',
  "'",
  '##ing',
  'memory',
] as const;

/** Hidden size of the tiny model. */
export const TINY_DIMS = 4;

/** Token embedding row for id `i` (deterministic, distinct, not normalised). */
export function tinyRow(i: number): number[] {
  return [Math.sin(i + 1), Math.cos(2 * i + 1), (i % 5) - 2, ((i * 7) % 11) / 11];
}

/** Token-type embedding rows used when `withTypeEmbedding` is set. */
export const TINY_TYPE_ROWS = [
  [0.25, -0.25, 0.5, 0],
  [9, 9, 9, 9],
];

/** The mean-pooled, L2-normalised vector the tiny model gives for these token ids (type 0). */
export function expectedVector(ids: number[], withTypeEmbedding = false): number[] {
  const sum = new Array<number>(TINY_DIMS).fill(0);
  for (const id of ids) {
    const row = tinyRow(id);
    for (let h = 0; h < TINY_DIMS; h++) sum[h]! += row[h]! + (withTypeEmbedding ? TINY_TYPE_ROWS[0]![h]! : 0);
  }
  const mean = sum.map((x) => x / ids.length);
  const norm = Math.hypot(...mean);
  return mean.map((x) => x / norm);
}

/** The tokenizer.json of the tiny model, shaped like all-MiniLM-L6-v2's. */
export function tinyTokenizerJson(opts: { maxLength?: number | null } = {}): Record<string, unknown> {
  const vocab = Object.fromEntries(TINY_VOCAB.map((t, i) => [t, i]));
  const special = (id: number) => ({
    id,
    content: TINY_VOCAB[id],
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  const maxLength = opts.maxLength === undefined ? 128 : opts.maxLength;
  return {
    version: '1.0',
    truncation:
      maxLength === null ? null : { direction: 'Right', max_length: maxLength, strategy: 'LongestFirst', stride: 0 },
    padding: {
      strategy: 'BatchLongest',
      direction: 'Right',
      pad_to_multiple_of: null,
      pad_id: 0,
      pad_type_id: 0,
      pad_token: '[PAD]',
    },
    added_tokens: [0, 1, 2, 3, 4].map(special),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab,
    },
  };
}

/** Options of {@link writeTinyModel}. */
export interface TinyModelOptions {
  /** Where the model file goes. Default `onnx/model.onnx`. */
  modelPath?: string;
  /** Files to leave out (`config.json`, `tokenizer.json`, or the model path). */
  omit?: string[];
  /** Add a token-type embedding (and feed token_type_ids into the graph). Default false. */
  withTypeEmbedding?: boolean;
  /** Declared model inputs. Default all three. */
  inputs?: string[];
  /** `truncation.max_length` in tokenizer.json (null: no truncation block). Default 128. */
  maxLength?: number | null;
  /** Replaces tokenizer.json entirely. */
  tokenizer?: unknown;
}

const created: string[] = [];

/** Removes every folder {@link writeTinyModel} created (call from `after`). */
export function removeTinyModels(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Writes the tiny model into a new temp folder and returns its path. */
export function writeTinyModel(opts: TinyModelOptions = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'loci-onnx-'));
  created.push(dir);
  const modelPath = opts.modelPath ?? 'onnx/model.onnx';
  const files: Record<string, string | Uint8Array> = {
    'config.json': JSON.stringify({
      _name_or_path: 'loci-tiny-test-encoder',
      architectures: ['BertModel'],
      model_type: 'bert',
      hidden_size: TINY_DIMS,
      max_position_embeddings: 512,
      vocab_size: TINY_VOCAB.length,
      type_vocab_size: 2,
    }),
    'tokenizer.json': JSON.stringify(opts.tokenizer ?? tinyTokenizerJson({ maxLength: opts.maxLength })),
    [modelPath]: buildEmbeddingModel({
      embedding: TINY_VOCAB.map((_, i) => tinyRow(i)),
      ...(opts.withTypeEmbedding ? { typeEmbedding: TINY_TYPE_ROWS } : {}),
      ...(opts.inputs ? { inputs: opts.inputs } : {}),
    }),
  };
  for (const [name, content] of Object.entries(files)) {
    if (opts.omit?.includes(name)) continue;
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}
