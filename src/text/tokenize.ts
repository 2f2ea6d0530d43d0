/**
 * @module text/tokenize
 * The one tokenizer of Loci, used for the full-text index, queries, and every in-memory scorer.
 *
 * Rules (documented in ARCHITECTURE.md, "Tokenisation"):
 * - words are runs of letters, digits and combining marks; everything else separates;
 * - lower-case, Latin diacritics folded (é → e, ß stays ß), NFKC for full-width forms;
 * - identifiers in camelCase / PascalCase also give their parts (`openPalace` → openpalace, open, palace);
 * - Han / Hiragana / Katakana runs go through Intl.Segmenter (dictionary words) **and** Han runs
 *   also give every character bigram, because the segmenter misses words such as 模块;
 * - optional Porter stemming of ASCII words longer than 3 letters (on by default).
 * The output is idempotent: tokenising the joined tokens again gives the same tokens (property-tested).
 */
import { porterStem } from './porter.js';
import { STOPWORDS } from './stopwords.js';

/** Options of {@link tokenize}. */
interface TokenizeOptions {
  /** Porter-stem ASCII words of 4+ letters. Default true. */
  stem?: boolean;
}

/**
 * The patterns with Unicode classes, built on first use: V8 parses a pattern literal when its module
 * loads, ~0.5 ms each for these classes, and ASCII text (most queries) needs none of them (issue 12).
 */
let unicode: { WORD: RegExp; CJK: RegExp; CJK_RUNS: RegExp; HAN: RegExp } | undefined;
const patterns = () =>
  (unicode ??= {
    WORD: new RegExp(String.raw`[\p{L}\p{N}\p{M}]+`, 'gu'),
    CJK: new RegExp(String.raw`[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc]`, 'u'),
    CJK_RUNS: new RegExp(
      String.raw`[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc]+|` +
        String.raw`[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc]+`,
      'gu',
    ),
    HAN: new RegExp(String.raw`\p{Script=Han}`, 'u'),
  });
/** The words of `WORD` in ASCII text: runs of ASCII letters and digits. */
const ASCII_WORD = /[A-Za-z0-9]+/g;
const NON_ASCII = /[^\x00-\x7f]/;
const CAMEL = /[a-z][A-Z]|[A-Z][A-Z][a-z]/;
const CAMEL_PARTS = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g;
const MARKS = /[\u0300-\u036f]/g;

let segmenter: Intl.Segmenter | undefined;
const STEM_CACHE = new Map<string, string>();

function stemCached(w: string): string {
  let s = STEM_CACHE.get(w);
  if (s === undefined) {
    s = porterStem(w);
    if (STEM_CACHE.size > 200_000) STEM_CACHE.clear();
    STEM_CACHE.set(w, s);
  }
  return s;
}

/** Lower-cases and folds Latin diacritics (`Café` → `cafe`). Idempotent. */
function foldWord(w: string): string {
  if (!NON_ASCII.test(w)) return w.toLowerCase();
  return w.normalize('NFKD').replace(MARKS, '').normalize('NFC').toLowerCase();
}

function pushCjk(run: string, out: string[]): void {
  segmenter ??= new Intl.Segmenter('zh', { granularity: 'word' });
  for (const s of segmenter.segment(run)) if (s.isWordLike) out.push(s.segment);
  // Character bigrams over each Han sub-run (kana words are segmented well enough).
  let start = -1;
  const chars = Array.from(run);
  for (let i = 0; i <= chars.length; i++) {
    const isHan = i < chars.length && patterns().HAN.test(chars[i]!);
    if (isHan && start < 0) start = i;
    if (!isHan && start >= 0) {
      for (let j = start; j + 1 < i; j++) out.push(chars[j]! + chars[j + 1]!);
      start = -1;
    }
  }
}

function pushWord(raw: string, out: string[], stem: boolean): void {
  if (NON_ASCII.test(raw) && patterns().CJK.test(raw)) {
    const { WORD, CJK, CJK_RUNS } = patterns();
    for (const m of raw.normalize('NFKC').matchAll(CJK_RUNS)) {
      const part = m[0];
      if (CJK.test(part)) pushCjk(part, out);
      else for (const w of part.matchAll(WORD)) pushWord(w[0], out, stem);
    }
    return;
  }
  const w = foldWord(raw);
  out.push(stem && w.length > 3 ? stemCached(w) : w);
  if (w !== raw && CAMEL.test(raw)) pushCamelParts(raw, out, stem);
}

function pushCamelParts(raw: string, out: string[], stem: boolean): void {
  const parts = raw.match(CAMEL_PARTS);
  if (!parts || parts.length < 2) return;
  for (const p of parts) {
    if (p.length < 2 || (p.charCodeAt(0) >= 48 && p.charCodeAt(0) <= 57)) continue;
    const lp = p.toLowerCase();
    out.push(stem && lp.length > 3 ? stemCached(lp) : lp);
  }
}

/**
 * Fast path: a hand-written scanner over runs of ASCII letters and digits; any run that touches a
 * non-ASCII character goes through the general (Unicode) path, so the output is identical to
 * the general path's for every input.
 */
function tokenizeFast(text: string, out: string[], stem: boolean): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    while (i < n && !(c >= 128 || (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57)))
      c = ++i < n ? text.charCodeAt(i) : 0; // never past the end (see appendRuns)
    if (i >= n) break;
    const start = i;
    let upper = false;
    let wide = false;
    while (i < n && (c >= 128 || (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57))) {
      if (c >= 128) wide = true;
      else if (c <= 90 && c >= 65) upper = true;
      c = ++i < n ? text.charCodeAt(i) : 0; // never past the end (see appendRuns)
    }
    const raw = text.slice(start, i);
    if (wide) {
      for (const m of raw.matchAll(patterns().WORD)) pushWord(m[0], out, stem);
      continue;
    }
    const w = upper ? raw.toLowerCase() : raw;
    if (stem && w.length > 3) {
      let st = STEM_CACHE.get(w);
      if (st === undefined) st = stemCached(w);
      out.push(st);
    } else out.push(w);
    if (upper && CAMEL.test(raw)) pushCamelParts(raw, out, stem);
  }
}

/** Splits `text` into index tokens (see the module rules). */
export function tokenize(text: string, opts: TokenizeOptions = {}): string[] {
  const stem = opts.stem ?? true;
  const out: string[] = [];
  tokenizeFast(text, out, stem);
  return out;
}

/**
 * Per run of ASCII letters and digits or of non-ASCII characters (what {@link tokenizeFast} visits),
 * its tokens joined by spaces: runs repeat (identifiers, words), tokenising does not. A direct-mapped
 * table indexed by a hash computed while scanning: a hit is checked in place (`startsWith` at the run's
 * offset), so the scan allocates nothing for a run it has seen (a `Map` needed the run sliced out and
 * hashed again). A collision only replaces the slot; the output never depends on the table.
 */
const RUN_SLOTS = 1 << 17;
interface RunTable {
  keys: string[];
  values: string[];
}
const RUN_TABLES: [RunTable | undefined, RunTable | undefined] = [undefined, undefined];

const isRunChar = (c: number): boolean =>
  c >= 128 || (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);

/**
 * The pre-tokenised search column stored in the full-text index: tokens joined by spaces (the same
 * string as `tokenize(text).join(' ')`, built from cached runs: the hot path of mining). An array is
 * read as its pieces joined by `'\n'` (a separator), without building that string: mining passes
 * `[text, indexExtra]` (a concatenation was a rope that the scan had to flatten, a copy of every text).
 */
export function searchColumn(text: string | readonly string[], opts?: TokenizeOptions): string {
  const stem = opts?.stem ?? true;
  const table = (RUN_TABLES[stem ? 1 : 0] ??= {
    keys: new Array<string>(RUN_SLOTS).fill(''),
    values: new Array<string>(RUN_SLOTS).fill(''),
  });
  // Joined once (a flat string); concatenating would build a rope of one node per run.
  const parts: string[] = [];
  if (typeof text === 'string') appendRuns(text, table, stem, parts);
  else for (const piece of text) appendRuns(piece, table, stem, parts);
  return parts.join(' ');
}

/** `text.startsWith(key, at)`, inlined: a run is a few characters; the builtin's call costs more than they do. */
function sameAt(text: string, at: number, key: string): boolean {
  for (let k = 0; k < key.length; k++) if (text.charCodeAt(at + k) !== key.charCodeAt(k)) return false;
  return true;
}

/**
 * Appends the joined tokens of each run of `text` (when not empty) to `parts`. The scan never reads
 * past the end: `charCodeAt` out of range returns NaN, and once V8 has seen that it compiles every
 * call of the loop as a call of the builtin instead of a load (measured: 13 → 8 ns per character).
 */
function appendRuns(text: string, table: RunTable, stem: boolean, parts: string[]): void {
  const { keys, values } = table;
  const n = text.length;
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    while (!isRunChar(c)) {
      if (++i >= n) return;
      c = text.charCodeAt(i);
    }
    const start = i;
    let h = 0x811c9dc5; // FNV-1a over the run's code units
    do {
      h = Math.imul(h ^ c, 16777619);
      if (++i >= n) break;
      c = text.charCodeAt(i);
    } while (isRunChar(c));
    const slot = (h ^ (h >>> 15)) & (RUN_SLOTS - 1);
    const key = keys[slot]!;
    let joined: string;
    if (key.length === i - start && sameAt(text, start, key)) joined = values[slot]!;
    else {
      const run = text.slice(start, i);
      const out: string[] = [];
      tokenizeFast(run, out, stem);
      joined = out.join(' ');
      keys[slot] = run;
      values[slot] = joined;
    }
    if (joined.length !== 0) parts.push(joined);
  }
}

/**
 * Query tokens: the tokenized query with stop-words and question words removed (when that would
 * leave nothing, the stop-words are kept), de-duplicated, in first-seen order.
 */
export function queryTokens(query: string, opts?: TokenizeOptions): string[] {
  const all: string[] = [];
  const kept: string[] = [];
  const stem = opts?.stem ?? true;
  for (const m of query.matchAll(NON_ASCII.test(query) ? patterns().WORD : ASCII_WORD)) {
    const before = all.length;
    pushWord(m[0], all, stem);
    const isStop = STOPWORDS.has(foldWord(m[0]));
    for (let i = before; i < all.length; i++) if (!isStop) kept.push(all[i]!);
  }
  return [...new Set(kept.length ? kept : all)];
}

/** True when `word` (any case) is an English stop-word or question word. */
export function isStopword(word: string): boolean {
  return STOPWORDS.has(foldWord(word));
}
