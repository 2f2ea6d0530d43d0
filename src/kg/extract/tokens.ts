/**
 * @module kg/extract/tokens
 * Classification of single tokens and capitalised names, shared by the mention scanner and the
 * relation rules: files (known extension or file name, never a URL), tools (vocabulary; ambiguous
 * names only when the caller allows), code identifiers (kebab, snake, camelCase, dotted), and the
 * type of a capitalised name by its edges (organisation suffix, honorific).
 */
import {
  AMBIGUOUS_TOOLS,
  FILE_EXTENSIONS,
  FILE_NAMES,
  HONORIFICS,
  ORG_SUFFIXES,
  STOP_WORDS,
  TOOLS,
} from './vocabulary.js';

/** A recognised entity name with its type. */
export interface Mention {
  name: string;
  type: string;
}

const KEYWORDS = new Set([
  'true',
  'false',
  'null',
  'undefined',
  'none',
  'nil',
  'const',
  'let',
  'var',
  'function',
  'return',
  'async',
  'await',
  'this',
  'self',
  'new',
  'import',
  'export',
  'if',
  'else',
  'for',
  'while',
]);
const TOKEN = /^[@\w][\w@./#+:-]*$/;
// Not names: a URL, a fragment cut at a separator (`agent-`, `file://`), a path of one- or
// two-character segments (`e/e0`, `4/4f/`), a commit hash, a long unbroken random-looking string
// (a browser extension id, a token), or a placeholder (`agent-xxx`).
const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;
const FRAGMENT = /[-_:.@]$/;
const SHORT_SEGMENTS = /^(?:[^/]{1,2}\/)+[^/]{1,2}\/?$/;
const HEX_HASH = /^(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,64}$/;
const LONG_RUN = /^[a-z]{24,}$|^[A-Za-z0-9]{32,}$/;
// a placeholder: `agent-xxx`, `sk-XXXX`, `<name>`
const PLACEHOLDER = /(?:^|[-_./:])(?:x{3,}|X{3,})(?:$|[-_./:])/;

const NOT_NAMES: readonly RegExp[] = [URL_LIKE, FRAGMENT, SHORT_SEGMENTS, HEX_HASH, LONG_RUN, PLACEHOLDER];

/** True when a token is a URL or a fragment, hash, random string or placeholder rather than a name (see above). */
function notAName(tok: string): boolean {
  return NOT_NAMES.some((re) => re.test(tok));
}
const IDENTIFIER = /^(?:[a-z0-9]+(?:[-_][a-z0-9]+)+|[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*)$/;

/** True when `tok` looks like a file: a known extension or file name, not a URL. */
export function isFilePath(tok: string): boolean {
  if (tok.includes('://')) return false;
  const base = tok.slice(tok.lastIndexOf('/') + 1).toLowerCase();
  if (FILE_NAMES.has(base)) return true;
  const dot = base.lastIndexOf('.');
  return (
    dot > 0 && dot < base.length - 1 && FILE_EXTENSIONS.has(base.slice(dot + 1)) && /[a-z_-]/i.test(base.slice(0, dot))
  );
}

/** Tool vocabulary lookup; `ambiguousOk` admits names that are also common words. */
export function isTool(word: string, ambiguousOk: boolean): boolean {
  const w = word.toLowerCase();
  return TOOLS.has(w) || (ambiguousOk && AMBIGUOUS_TOOLS.has(w));
}

/**
 * Classifies a code-ish token (backtick content, relation object): file, tool, identifier, or null.
 * `quoted` (backtick content) admits any plain word of 3+ characters as an identifier.
 */
export function classifyToken(raw: string, ambiguousOk = true, quoted = false): Mention | null {
  const tok = raw.replace(/\(\)$/, '').replace(/[.,;:!?]+$/, '');
  if (tok.length < 2 || tok.length > 120 || !TOKEN.test(tok) || !/[a-z]/i.test(tok) || KEYWORDS.has(tok)) return null;
  if (notAName(tok)) return null;
  if (isFilePath(tok)) return { name: tok, type: 'file' };
  if (isTool(tok, ambiguousOk)) return { name: tok, type: 'tool' };
  if (tok.startsWith('@') && !tok.includes('/')) return { name: tok.slice(1), type: 'person' };
  if (IDENTIFIER.test(tok) || /[./#:]/.test(tok) || tok.startsWith('@') || (quoted && tok.length >= 3))
    return { name: tok, type: 'identifier' };
  return null;
}

/** Strips leading and trailing stop words from a run of capitalised words. */
export function trimStops(words: string[]): string[] {
  let a = 0;
  let b = words.length;
  while (a < b && isStopWord(words[a]!)) a++;
  while (b > a && isStopWord(words[b - 1]!)) b--;
  return a === 0 && b === words.length ? words : words.slice(a, b);
}

/** True for a stop-listed word ("The", "Yesterday", "Dr." is not one). */
export function isStopWord(w: string): boolean {
  return STOP_WORDS.has(w.toLowerCase().replace(/[.'’]+$/, ''));
}

/** Type of a capitalised multi-word name by its edges, or null when only context can tell. */
export function nameType(words: readonly string[]): 'organisation' | 'person' | null {
  if (words.length >= 2 && ORG_SUFFIXES.has(words[words.length - 1]!.toLowerCase())) return 'organisation';
  if (words.length >= 2 && HONORIFICS.has(words[0]!.toLowerCase())) return 'person';
  return null;
}
