/**
 * @module embed/wordpiece
 * BERT WordPiece tokenization read from a Hugging Face `tokenizer.json`, matching the `tokenizers`
 * library for the components BERT-style sentence-embedding models use:
 * - normalizer: `BertNormalizer` (clean text, CJK ideographs as separate words, strip accents,
 *   lowercase), `Lowercase`, `StripAccents`, `NFD`/`NFC`/`NFKD`/`NFKC`, or a `Sequence` of them;
 * - pre-tokenizer: `BertPreTokenizer` (whitespace + punctuation), `WhitespaceSplit`,
 *   `Punctuation`, or a `Sequence` of them;
 * - model: `WordPiece` (greedy longest match, `##` continuation, `[UNK]` for words longer than
 *   `max_input_chars_per_word`);
 * - post-processor: `TemplateProcessing` or `BertProcessing` (`[CLS] … [SEP]`), with token type ids;
 * - added tokens (`[CLS]`, `[SEP]`, `[MASK]` …) matched verbatim in the input text.
 * Anything else raises TOKENIZER_UNSUPPORTED naming the component.
 */
import { createError } from '../core/errors.js';

/** One tokenized text. */
export interface Encoding {
  /** Token strings, special tokens included. */
  tokens: string[];
  /** Vocabulary ids, same length as `tokens`. */
  ids: number[];
  /** Segment ids (all 0 for a single sentence). */
  typeIds: number[];
}

/** A padded batch ready for an ONNX session: row-major `[batch, seq]` int64 tensors. */
interface EncodedBatch {
  batch: number;
  seq: number;
  inputIds: BigInt64Array;
  attentionMask: BigInt64Array;
  tokenTypeIds: BigInt64Array;
}

/** A loaded WordPiece tokenizer. */
export interface WordPieceTokenizer {
  /** Token limit per text, special tokens included. */
  readonly maxLength: number;
  /** Id used for padding. */
  readonly padId: number;
  /** Tokenizes, adds special tokens and truncates to {@link maxLength}. */
  encode(text: string): Encoding;
  /** Encodes texts and pads them to the longest one (attention mask 0 on padding). */
  encodeBatch(texts: readonly string[]): EncodedBatch;
}

/** Options of {@link loadWordPiece}. */
interface WordPieceOptions {
  /** File the JSON came from, for error messages. */
  path: string;
  /** Overrides `truncation.max_length`. Default: that value, else 256. */
  maxLength?: number | undefined;
  /** Upper bound on the limit (the model's `max_position_embeddings`). Default none. */
  maxPositions?: number | undefined;
}

/** Default token limit when neither the options nor `tokenizer.json` give one. */
const DEFAULT_MAX_LENGTH = 256;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;

const CJK: readonly [number, number][] = [
  [0x4e00, 0x9fff],
  [0x3400, 0x4dbf],
  [0x20000, 0x2a6df],
  [0x2a700, 0x2b73f],
  [0x2b740, 0x2b81f],
  [0x2b820, 0x2ceaf],
  [0xf900, 0xfaff],
  [0x2f800, 0x2fa1f],
];
const isCjk = (cp: number): boolean => CJK.some(([a, b]) => cp >= a && cp <= b);
const isControl = (c: string): boolean => c !== '\t' && c !== '\n' && c !== '\r' && /\p{C}/u.test(c);
const isWhitespace = (c: string): boolean => /\s/u.test(c);
/** ASCII punctuation (as Rust's `is_ascii_punctuation`, symbols included) or Unicode P*. */
const isPunct = (c: string): boolean => /[!-/:-@[-`{-~]/.test(c) || /\p{P}/u.test(c);
const stripAccents = (s: string): string => s.normalize('NFD').replace(/\p{Mn}/gu, '');

type Step = (s: string) => string;

function bertNormalizer(n: Obj): Step {
  const clean = n['clean_text'] !== false;
  const chinese = n['handle_chinese_chars'] !== false;
  const lower = n['lowercase'] !== false;
  const strip = typeof n['strip_accents'] === 'boolean' ? n['strip_accents'] : lower;
  return (s) => {
    let out = '';
    for (const c of s) {
      const cp = c.codePointAt(0)!;
      if (clean) {
        if (cp === 0 || cp === 0xfffd || isControl(c)) continue;
        if (isWhitespace(c)) {
          out += ' ';
          continue;
        }
      }
      out += chinese && isCjk(cp) ? ` ${c} ` : c;
    }
    if (strip) out = stripAccents(out);
    return lower ? out.toLowerCase() : out;
  };
}

function normalizer(n: unknown, path: string): Step {
  if (n === null || n === undefined) return (s) => s;
  const o = obj(n);
  const type = String(o?.['type']);
  switch (type) {
    case 'BertNormalizer':
      return bertNormalizer(o!);
    case 'Lowercase':
      return (s) => s.toLowerCase();
    case 'StripAccents':
      return (s) => s.replace(/\p{Mn}/gu, '');
    case 'NFD':
    case 'NFC':
    case 'NFKD':
    case 'NFKC':
      return (s) => s.normalize(type);
    case 'Sequence': {
      const steps = (Array.isArray(o?.['normalizers']) ? (o['normalizers'] as unknown[]) : []).map((x) =>
        normalizer(x, path),
      );
      return (s) => steps.reduce((acc, f) => f(acc), s);
    }
    default:
      throw createError('TOKENIZER_UNSUPPORTED', { path, component: 'normalizer.type', value: type });
  }
}

type Split = (words: string[]) => string[];

function splitBy(pred: (c: string) => boolean, keep: boolean): Split {
  return (words) => {
    const out: string[] = [];
    for (const w of words) {
      let cur = '';
      for (const c of w) {
        if (!pred(c)) {
          cur += c;
          continue;
        }
        if (cur) out.push(cur);
        cur = '';
        if (keep) out.push(c);
      }
      if (cur) out.push(cur);
    }
    return out;
  };
}

function preTokenizer(p: unknown, path: string): Split {
  if (p === null || p === undefined) return (words) => words.filter((w) => w.length > 0);
  const o = obj(p);
  const type = String(o?.['type']);
  const whitespace = splitBy(isWhitespace, false);
  const punct = splitBy(isPunct, true);
  switch (type) {
    case 'BertPreTokenizer':
      return (words) => punct(whitespace(words));
    case 'WhitespaceSplit':
      return whitespace;
    case 'Punctuation':
      if (o?.['behavior'] !== undefined && o['behavior'] !== 'Isolated') {
        throw createError('TOKENIZER_UNSUPPORTED', {
          path,
          component: 'pre_tokenizer.behavior',
          value: String(o['behavior']),
        });
      }
      return punct;
    case 'Sequence': {
      const steps = (Array.isArray(o?.['pretokenizers']) ? (o['pretokenizers'] as unknown[]) : []).map((x) =>
        preTokenizer(x, path),
      );
      return (words) => steps.reduce((acc, f) => f(acc), words);
    }
    default:
      throw createError('TOKENIZER_UNSUPPORTED', { path, component: 'pre_tokenizer.type', value: type });
  }
}

/** One piece of the single-sentence template: a special token or the sequence itself. */
type TemplatePiece = { special: string; id: number; typeId: number } | { sequence: true; typeId: number };

function template(p: unknown, path: string, vocab: Map<string, number>): TemplatePiece[] {
  const seq: TemplatePiece = { sequence: true, typeId: 0 };
  if (p === null || p === undefined) return [seq];
  const o = obj(p);
  const type = String(o?.['type']);
  if (type === 'BertProcessing') {
    const cls = o?.['cls'] as [string, number] | undefined;
    const sep = o?.['sep'] as [string, number] | undefined;
    const piece = (t: [string, number] | undefined, d: string) => ({
      special: t?.[0] ?? d,
      id: t?.[1] ?? vocab.get(d) ?? 0,
      typeId: 0,
    });
    return [piece(cls, '[CLS]'), seq, piece(sep, '[SEP]')];
  }
  if (type !== 'TemplateProcessing') {
    throw createError('TOKENIZER_UNSUPPORTED', { path, component: 'post_processor.type', value: type });
  }
  const specials = obj(o?.['special_tokens']) ?? {};
  const single = Array.isArray(o?.['single']) ? (o['single'] as unknown[]) : [];
  return single.map((item): TemplatePiece => {
    const s = obj(obj(item)?.['SpecialToken']);
    if (s) {
      const name = String(s['id']);
      const ids = obj(specials[name])?.['ids'];
      const id = Array.isArray(ids) && typeof ids[0] === 'number' ? ids[0] : vocab.get(name);
      if (id === undefined)
        throw createError('TOKENIZER_UNSUPPORTED', { path, component: 'post_processor.special_tokens', value: name });
      return { special: name, id, typeId: Number(s['type_id'] ?? 0) };
    }
    return { sequence: true, typeId: Number(obj(obj(item)?.['Sequence'])?.['type_id'] ?? 0) };
  });
}

/**
 * Builds a tokenizer from the parsed contents of `tokenizer.json`.
 * Throws TOKENIZER_UNSUPPORTED for components it does not implement.
 */
export function loadWordPiece(json: unknown, opts: WordPieceOptions): WordPieceTokenizer {
  const { path } = opts;
  const root = obj(json);
  const model = obj(root?.['model']);
  const modelType = String(model?.['type'] ?? 'missing');
  if (modelType !== 'WordPiece')
    throw createError('TOKENIZER_UNSUPPORTED', { path, component: 'model.type', value: modelType });
  const rawVocab = obj(model?.['vocab']);
  if (!rawVocab) throw createError('TOKENIZER_UNSUPPORTED', { path, component: 'model.vocab', value: 'missing' });
  const vocab = new Map<string, number>();
  for (const [k, v] of Object.entries(rawVocab)) if (typeof v === 'number') vocab.set(k, v);
  const unkToken = String(model?.['unk_token'] ?? '[UNK]');
  const unkId = vocab.get(unkToken);
  if (unkId === undefined)
    throw createError('TOKENIZER_UNSUPPORTED', { path, component: 'model.unk_token', value: unkToken });
  const prefix = String(model?.['continuing_subword_prefix'] ?? '##');
  const maxChars = Number(model?.['max_input_chars_per_word'] ?? 100);

  const normalize = normalizer(root?.['normalizer'], path);
  const preTokenize = preTokenizer(root?.['pre_tokenizer'], path);
  const pieces = template(root?.['post_processor'], path, vocab);
  const specialCount = pieces.filter((p) => !('sequence' in p)).length;
  const seqType = pieces.find((p): p is { sequence: true; typeId: number } => 'sequence' in p)?.typeId ?? 0;

  const truncation = obj(root?.['truncation']);
  const declared = typeof truncation?.['max_length'] === 'number' ? (truncation['max_length'] as number) : undefined;
  let maxLength = opts.maxLength ?? declared ?? DEFAULT_MAX_LENGTH;
  if (opts.maxPositions !== undefined) maxLength = Math.min(maxLength, opts.maxPositions);
  maxLength = Math.max(maxLength, specialCount + 1);
  const truncateLeft = truncation?.['direction'] === 'Left';

  const padding = obj(root?.['padding']);
  const padId = typeof padding?.['pad_id'] === 'number' ? (padding['pad_id'] as number) : (vocab.get('[PAD]') ?? 0);

  const added = (Array.isArray(root?.['added_tokens']) ? (root['added_tokens'] as unknown[]) : [])
    .map((t) => obj(t))
    .filter(
      (t): t is Obj => !!t && typeof t['content'] === 'string' && t['content'] !== '' && typeof t['id'] === 'number',
    );
  const addedIds = new Map(added.map((t) => [t['content'] as string, t['id'] as number]));
  const addedRe = added.length
    ? new RegExp(
        `(${[...addedIds.keys()]
          .sort((a, b) => b.length - a.length)
          .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('|')})`,
      )
    : undefined;

  const wordPiece = (word: string, out: string[]): void => {
    const chars = Array.from(word);
    if (chars.length > maxChars) {
      out.push(unkToken);
      return;
    }
    const pieces: string[] = [];
    for (let start = 0; start < chars.length;) {
      let end = chars.length;
      let found: string | undefined;
      for (; end > start; end--) {
        const sub = (start > 0 ? prefix : '') + chars.slice(start, end).join('');
        if (vocab.has(sub)) {
          found = sub;
          break;
        }
      }
      if (found === undefined) {
        out.push(unkToken);
        return;
      }
      pieces.push(found);
      start = end;
    }
    out.push(...pieces);
  };

  const tokenize = (text: string): string[] => {
    const out: string[] = [];
    const parts = addedRe ? text.split(addedRe) : [text];
    parts.forEach((part, i) => {
      if (addedRe && i % 2 === 1) out.push(part);
      else for (const w of preTokenize([normalize(part)])) wordPiece(w, out);
    });
    return out;
  };
  const idOf = (t: string): number => addedIds.get(t) ?? vocab.get(t) ?? unkId;

  const encode = (text: string): Encoding => {
    let body = tokenize(text);
    const room = maxLength - specialCount;
    if (body.length > room) body = truncateLeft ? body.slice(body.length - room) : body.slice(0, room);
    const tokens: string[] = [];
    const ids: number[] = [];
    const typeIds: number[] = [];
    for (const p of pieces) {
      if ('sequence' in p) {
        for (const t of body) {
          tokens.push(t);
          ids.push(idOf(t));
          typeIds.push(seqType);
        }
      } else {
        tokens.push(p.special);
        ids.push(p.id);
        typeIds.push(p.typeId);
      }
    }
    return { tokens, ids, typeIds };
  };

  const encodeBatch = (texts: readonly string[]): EncodedBatch => padBatch(texts.map(encode), padId);

  return { maxLength, padId, encode, encodeBatch };
}

/** Pads encodings to the longest one: `[batch, seq]` int64 tensors, attention mask 0 on padding. */
export function padBatch(encs: readonly Encoding[], padId: number): EncodedBatch {
  const seq = Math.max(1, ...encs.map((e) => e.ids.length));
  const n = encs.length * seq;
  const inputIds = new BigInt64Array(n).fill(BigInt(padId));
  const attentionMask = new BigInt64Array(n);
  const tokenTypeIds = new BigInt64Array(n);
  encs.forEach((e, row) => {
    for (let j = 0; j < e.ids.length; j++) {
      inputIds[row * seq + j] = BigInt(e.ids[j]!);
      attentionMask[row * seq + j] = 1n;
      tokenTypeIds[row * seq + j] = BigInt(e.typeIds[j]!);
    }
  });
  return { batch: encs.length, seq, inputIds, attentionMask, tokenTypeIds };
}
