/**
 * @module kg/extract/mentions
 * The mention scanner: one pass over a text finds entity mentions and the verbs of the relation
 * rules. Rules (examples in ARCHITECTURE.md, "Extraction rules"):
 * - `@handle` → person;
 * - `` `token` `` → file (known extension or file name), tool (vocabulary), else identifier (not a
 *   generic programming word such as `limit` or `config`, nor a bare upper-case value like `ALLOW`);
 * - a path with a known extension (`src/kg/index.ts`, `package.json`) → file;
 * - a tool of the vocabulary (`pnpm`, `Postgres`; ambiguous ones only capitalised mid-sentence) → tool;
 * - two or more capitalised words ending in an organisation suffix (`Acme Inc`) → organisation;
 *   after an honorific (`Dr. Chen`) → person; other capitalised runs only when seen `minRepeat` times;
 * - a known person's name (declared speakers, `knownPeople`) → person.
 * Sentence-initial capitalised stop words ("The", "Yesterday") never start a name.
 *
 * The word loop works on character codes and only materialises words that can matter (a
 * three-key filter over first letters and length), which keeps extraction well above mining speed.
 */
import { classifyToken, nameType, trimStops, type Mention } from './tokens.js';
import {
  AMBIGUOUS_TOOLS,
  FILE_EXTENSIONS,
  FILE_NAMES,
  GENERIC_CODE_WORDS,
  HONORIFICS,
  STOP_WORDS,
  TOOLS,
} from './vocabulary.js';

export type { Mention } from './tokens.js';

/** A verb phrase of the relation rules found in text. */
export interface VerbHit {
  index: number;
  phrase: string;
}

/** Options of {@link scanMentions}. */
interface ScanOptions {
  /** Known person names by lower-cased name (speakers, declared people). */
  people: ReadonlyMap<string, string>;
  /** Verb phrases of the relation rules by their first word, longest first; hits go to `hits`. */
  verbs: ReadonlyMap<string, readonly string[]>;
}

/** Counts of capitalised runs of unknown type, shared by the scans of one drawer. */
export type RunCounts = Map<string, { words: string[]; n: number }>;

const BARE_CAPS = /^[A-Z]{2,10}$/;
const MENTION = /(?<![\w@.`])@([A-Za-z][\w.-]{0,38}[A-Za-z0-9])(?![\w/@])/g;
const BACKTICK = /`([^`\n]{2,120})`/g;
const EXT = /\.([A-Za-z0-9]{1,10})\b/g;
const PATH_CHAR = /[\w@./~-]/;
const TOOL_SET = TOOLS;
const FILE_NAME_SET = FILE_NAMES;
// Letters outside ASCII (typographic quotes, dashes and emoji do not count).
const NON_LATIN = /[^\x00-\x7f\u00a0-\u00bf\u2000-\u206f\ud800-\udfff]/;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

type Trie = Map<string, Trie> & { end?: boolean };

/** A regex alternation of `words` factored as a trie (irregexp scans it several times faster). */
function trieAlternation(words: Iterable<string>): string {
  const root: Trie = new Map();
  for (const w of words) {
    let n = root;
    for (const ch of w) {
      let c = n.get(ch);
      if (!c) n.set(ch, (c = new Map()));
      n = c;
    }
    n.end = true;
  }
  const emit = (n: Trie): string => {
    const parts = [...n].map(([ch, c]) => escape(ch) + emit(c));
    if (parts.length === 0) return '';
    const body = parts.length === 1 ? parts[0]! : `(?:${parts.join('|')})`;
    return n.end ? `(?:${body})?` : body;
  };
  return emit(root);
}

/**
 * One regex finds every word that can matter: capitalised words, and the lower-case words of the
 * vocabularies (tools, file names, verbs). Irregexp scans for it far faster than a word loop.
 */
interface Scanner {
  ascii: RegExp;
  unicode: RegExp;
}
const scanners = new WeakMap<ReadonlyMap<string, readonly string[]>, Scanner>();
function scannerFor(verbs: ReadonlyMap<string, readonly string[]>): Scanner {
  let sc = scanners.get(verbs);
  if (!sc) {
    const alts = trieAlternation(
      [...new Set([...TOOL_SET, ...FILE_NAME_SET, ...verbs.keys()])].filter((w) => /^[a-z]/.test(w)),
    );
    // Capitalised stop words ("The", "Thanks", "I") never start a name: the regex skips them, so
    // sentence starts cost no JavaScript at all.
    const stops = trieAlternation(
      [...STOP_WORDS].filter((w) => /^[a-z]+$/.test(w)).map((w) => w[0]!.toUpperCase() + w.slice(1)),
    );
    sc = {
      ascii: new RegExp(
        `\\b(?:(?!I['’]|${stops}(?![A-Za-z0-9'’-]))[A-Z][A-Za-z0-9'’+#._-]*|${alts}(?![A-Za-z0-9'’-]))`,
        'g',
      ),
      unicode: new RegExp(
        `(?<![\\p{L}\\p{M}\\p{N}])(?:(?!I['’]|${stops}(?![\\p{L}\\p{M}\\p{N}'’-]))` +
          `\\p{Lu}[\\p{L}\\p{M}\\p{N}'’+#._-]*|` +
          `${alts}(?![\\p{L}\\p{M}\\p{N}'’-]))`,
        'gu',
      ),
    };
    scanners.set(verbs, sc);
  }
  return sc;
}

/** Finds the entity mentions of one text (see the module rules) and pushes verb hits to `hits`. */
export function scanMentions(text: string, opts: ScanOptions, out: Mention[], runs: RunCounts, hits: VerbHit[]): void {
  if (text.includes('@')) for (const m of text.matchAll(MENTION)) out.push({ name: m[1]!, type: 'person' });
  if (text.includes('`')) {
    for (const m of text.matchAll(BACKTICK)) {
      const c = classifyToken(m[1]!.trim(), true, true);
      // a generic word (`limit`, `config`) or a bare upper-case value (`ALLOW`, `REJECT`) is a mention of
      // nothing in particular; a rule may still use it
      if (c && !(c.type === 'identifier' && (GENERIC_CODE_WORDS.has(c.name.toLowerCase()) || BARE_CAPS.test(c.name))))
        out.push(c);
    }
  }
  EXT.lastIndex = 0;
  let e: RegExpExecArray | null;
  while ((e = EXT.exec(text)) !== null) {
    if (!FILE_EXTENSIONS.has(e[1]!.toLowerCase())) continue;
    let s = e.index;
    while (s > 0 && PATH_CHAR.test(text[s - 1]!)) s--;
    const tok = text.slice(s, e.index + e[0].length);
    // after `:` (a URL), a backtick (read above) or `*` (a glob such as `*_test.exs`, no file)
    const prev = text[s - 1];
    if (prev === ':' || prev === '`' || prev === '*' || !/[A-Za-z_-]/.test(text.slice(s, e.index))) continue;
    const tool =
      TOOL_SET.has(tok.toLowerCase()) || (/^[A-Z]/.test(tok) && e[1]!.toLowerCase() === 'js' && !tok.includes('/'));
    out.push({ name: tok, type: tool ? 'tool' : 'file' });
  }
  scanWords(text, opts, out, runs, hits);
}

/** The capitalised runs of unknown type seen at least `minRepeat` times. */
export function repeatedNames(runs: RunCounts, minRepeat: number): Mention[] {
  const out: Mention[] = [];
  for (const { words, n } of runs.values()) if (n >= minRepeat) out.push({ name: words.join(' '), type: 'unknown' });
  return out;
}

/** True when the word at `start` begins a sentence (only spaces and quotes after . ! ? : or a line break). */
function isInitial(text: string, start: number): boolean {
  let i = start - 1;
  while (
    i >= 0 &&
    (text[i] === ' ' || text[i] === '"' || text[i] === '“' || text[i] === '(' || text[i] === '*' || text[i] === '\t')
  )
    i--;
  if (i < 0) return true;
  const c = text[i]!;
  return c === '.' || c === '!' || c === '?' || c === ':' || c === '\n' || c === '-' || c === '>';
}

/**
 * Ends a run of capitalised words: a named organisation/person, a known person, or a counted unknown. Returns a new
 * empty run.
 */
function flushRun(run: string[], people: ReadonlyMap<string, string>, out: Mention[], runs: RunCounts): string[] {
  if (run.length < 2) return [];
  const words = trimStops(run);
  if (words.length < 2 || words.length > 5) return [];
  const name = words.join(' ');
  const lower = name.toLowerCase();
  const person = people.get(lower);
  const type = nameType(words);
  if (person !== undefined) out.push({ name: person, type: 'person' });
  else if (type) out.push({ name, type });
  else {
    const r = runs.get(lower);
    if (r) r.n++;
    else runs.set(lower, { words, n: 1 });
  }
  return [];
}

function verbAt(text: string, start: number, raw: string, phrases: readonly string[]): string | undefined {
  for (const p of phrases) {
    if (p.length === raw.length) return p;
    if (text.startsWith(p, start) && !/[\w'’-]/.test(text[start + p.length] ?? ' ')) return p;
  }
  return undefined;
}

// Flags of capitalised words, one lookup: 1 tool, 2 ambiguous tool, 4 stop word, 8 file name, 16 honorific.
const WORD_FLAGS = new Map<string, number>();
const flag = (words: Iterable<string>, f: number) => {
  for (const w of words) WORD_FLAGS.set(w, (WORD_FLAGS.get(w) ?? 0) | f);
};
const capitalised = (words: Iterable<string>) => [...words].flatMap((w) => [w, w[0]!.toUpperCase() + w.slice(1)]);
flag(capitalised(TOOLS), 1);
flag(capitalised(AMBIGUOUS_TOOLS), 2);
flag(capitalised(STOP_WORDS), 4);
flag(capitalised(FILE_NAMES), 8);
flag(capitalised([...HONORIFICS].filter((h) => !h.endsWith('.'))), 16);

function isTrailing(c: number): boolean {
  return c === 46 || c === 39 || c === 95 || c === 45 || c === 0x2019;
}

function scanWords(text: string, opts: ScanOptions, out: Mention[], runs: RunCounts, hits: VerbHit[]): void {
  const { people, verbs } = opts;
  const sc = scannerFor(verbs);
  const re = NON_LATIN.test(text) ? sc.unicode : sc.ascii;
  re.lastIndex = 0;
  let run: string[] = [];
  let prevEnd = -2;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const start = m.index;
    let raw = m[0];
    const c0 = raw.charCodeAt(0);
    if (c0 >= 97 && c0 <= 122) {
      const before = start > 0 ? text.charCodeAt(start - 1) : 32;
      if (isTrailing(before)) continue;
      if (run.length) run = flushRun(run, people, out, runs);
      const phrases = verbs.get(raw);
      const verb = phrases && verbAt(text, start, raw, phrases);
      if (verb) hits.push({ index: start, phrase: verb });
      if (TOOL_SET.has(raw)) out.push({ name: raw, type: 'tool' });
      else if (FILE_NAME_SET.has(raw)) out.push({ name: raw, type: 'file' });
      continue;
    }
    let len = raw.length;
    while (len > 1 && isTrailing(raw.charCodeAt(len - 1))) len--;
    if (len !== raw.length) raw = raw.slice(0, len);
    const end = start + len;
    if (run.length && !(start === prevEnd + 1 && text.charCodeAt(prevEnd) === 32))
      run = flushRun(run, people, out, runs);
    prevEnd = end;
    if (len === 1) {
      if (run.length) run = flushRun(run, people, out, runs);
      continue;
    }
    const q = raw.charCodeAt(len - 2);
    const possessive = len > 2 && raw.charCodeAt(len - 1) === 115 && (q === 39 || q === 0x2019);
    const word = possessive ? raw.slice(0, -2) : raw;
    let flags = WORD_FLAGS.get(word);
    if (flags === 4 && run.length === 0) continue;
    const lower = word.toLowerCase();
    if (flags === undefined) flags = WORD_FLAGS.get(lower) ?? 0;
    if (flags & 4 && run.length === 0) continue;
    if (flags & 1 || (flags & 2 && !isInitial(text, start))) {
      if (run.length) run = flushRun(run, people, out, runs);
      out.push({ name: word, type: 'tool' });
      continue;
    }
    if (flags & 8) out.push({ name: word, type: 'file' });
    const person = people.get(lower);
    if (person !== undefined) out.push({ name: person, type: 'person' });
    const honorific = (flags & 16) !== 0 && text.charCodeAt(end) === 46;
    run.push(honorific ? word + '.' : word);
    if (honorific) prevEnd = end + 1;
    else if (possessive || text.charCodeAt(end) === 46) run = flushRun(run, people, out, runs);
  }
  flushRun(run, people, out, runs);
}
