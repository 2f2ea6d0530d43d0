/**
 * @module ingest/convos/phrases
 * Whole-word phrase matching for the hall and room rules: the text is lower-cased and split once
 * into word tokens (letters/digits, with `'` contractions such as `don't` and ISO dates kept whole),
 * and each rule is a list of word sequences looked up by their first word. A phrase can therefore
 * never match inside a word ("art" never matches "start", "test" never matches "latest"), and the
 * cost is one pass over the text whatever the number of rules.
 *
 * Phrase syntax: words separated by spaces; `{a|b c}` is a choice (alternatives may be several
 * words), `[a|b]` an optional choice; `#date` matches an ISO date token, `#month` a month name or
 * abbreviation, `#day` a day number 1–31 (optionally 1st/2nd/3rd/…th), `#weekday` a weekday name.
 */

// Word characters: ASCII letters and digits plus the letter blocks of other scripts (Latin-1 and
// Latin Extended letters, Greek … CJK, Hangul, compatibility forms); punctuation, symbols and
// arrows (U+2000–U+2BFF) separate words. A plain class is ~4× faster than \p{L}.
const W = 'a-z0-9\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u1fff\u2c00-\ud7ff\uf900-\ufdff\ufe70-\uffef';
const TOKEN = new RegExp(`\\d{4}-\\d{2}-\\d{2}|[${W}]+(?:['’][${W}]+)?`, 'g');

/** Lower-cased word tokens of the first `max` characters of `text` (curly apostrophes folded). */
export function wordTokens(text: string, max = 5000): string[] {
  const t = (text.length > max ? text.slice(0, max) : text).toLowerCase();
  const out = t.match(TOKEN) ?? [];
  if (t.includes('’'))
    for (let i = 0; i < out.length; i++) if (out[i]!.includes('’')) out[i] = out[i]!.replace('’', "'");
  return out;
}

const MONTHS = new Set([
  'jan',
  'january',
  'feb',
  'february',
  'mar',
  'march',
  'apr',
  'april',
  'may',
  'jun',
  'june',
  'jul',
  'july',
  'aug',
  'august',
  'sep',
  'sept',
  'september',
  'oct',
  'october',
  'nov',
  'november',
  'dec',
  'december',
]);
const WEEKDAYS = new Set(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
const CLASSES = ['#date', '#month', '#day', '#weekday'] as const;
type WordClass = (typeof CLASSES)[number];

/** The word class of a token, if any (a token is in at most one). Cheap: digits and set lookups. */
function classOf(w: string): WordClass | null {
  const c = w.charCodeAt(0);
  if (c >= 48 && c <= 57) {
    if (w.length === 10 && /^\d{4}-\d{2}-\d{2}$/.test(w)) return '#date';
    if (w.length > 4) return null;
    const m = /^(\d{1,2})(?:st|nd|rd|th)?$/.exec(w);
    return m && Number(m[1]) >= 1 && Number(m[1]) <= 31 ? '#day' : null;
  }
  if (MONTHS.has(w)) return '#month';
  return WEEKDAYS.has(w) ? '#weekday' : null;
}

function isClass(w: string): w is WordClass {
  return (CLASSES as readonly string[]).includes(w);
}

/** Expands one phrase of the syntax above into its word sequences. */
export function expandPhrase(phrase: string): string[][] {
  const slots: string[][][] = [];
  for (const part of phrase.match(/\{[^}]*\}|\[[^\]]*\]|\S+/g) ?? []) {
    const optional = part.startsWith('[');
    const choice = part.startsWith('{') || optional;
    const alts = (choice ? part.slice(1, -1).split('|') : [part]).map((a) => a.trim().split(/\s+/).filter(Boolean));
    slots.push(optional ? [...alts, []] : alts);
  }
  let seqs: string[][] = [[]];
  for (const alts of slots) seqs = seqs.flatMap((s) => alts.map((a) => [...s, ...a]));
  return seqs.filter((s) => s.length > 0);
}

interface Entry {
  words: string[];
  rule: number;
}

/** Counts, per rule, how often any of its phrases occurs in a text (at most `cap` per rule). */
export class PhraseMatcher {
  /** Entries by first word (a literal word or a word class). */
  private readonly byFirst = new Map<string, Entry[]>();

  /**
   * Entries to try at a token that does not start with a digit: its literal entries, then those
   * of its word class (month or weekday names) — one lookup per token on the hot path.
   */
  private readonly byWord = new Map<string, Entry[]>();

  /** `rules[i]` is the phrase list of rule i. */
  constructor(rules: readonly (readonly string[])[]) {
    rules.forEach((phrases, rule) => {
      for (const p of phrases) {
        for (const words of expandPhrase(p)) {
          const list = this.byFirst.get(words[0]!) ?? [];
          list.push({ words, rule });
          this.byFirst.set(words[0]!, list);
        }
      }
    });
    for (const [w, list] of this.byFirst) if (!isClass(w)) this.byWord.set(w, list);
    for (const w of [...MONTHS, ...WEEKDAYS]) {
      const cls = this.byFirst.get(classOf(w)!);
      if (cls) this.byWord.set(w, [...(this.byFirst.get(w) ?? []), ...cls]);
    }
  }

  /**
   * Match counts per rule over `tokens` (from {@link wordTokens}), each capped at `cap`. A rule
   * counts at most once per starting token.
   */
  count(tokens: readonly string[], ruleCount: number, cap = 3): number[] {
    const counts = new Array<number>(ruleCount).fill(0);
    const lastAt = new Array<number>(ruleCount).fill(-1);
    const matches = (e: Entry, i: number): boolean => {
      for (let k = 1; k < e.words.length; k++) {
        const w = e.words[k]!;
        const tok = tokens[i + k];
        if (tok === undefined) return false;
        if (isClass(w) ? classOf(tok) !== w : tok !== w) return false;
      }
      return true;
    };
    const tryAll = (list: readonly Entry[] | undefined, i: number) => {
      if (!list) return;
      for (const e of list) {
        if (lastAt[e.rule] === i || counts[e.rule]! >= cap) continue;
        if (matches(e, i)) {
          counts[e.rule]!++;
          lastAt[e.rule] = i;
        }
      }
    };
    for (let i = 0; i < tokens.length; i++) {
      const tok = tokens[i]!;
      const c0 = tok.charCodeAt(0);
      if (c0 >= 48 && c0 <= 57) {
        tryAll(this.byFirst.get(tok), i);
        const c = classOf(tok);
        if (c) tryAll(this.byFirst.get(c), i);
      } else {
        tryAll(this.byWord.get(tok), i);
      }
    }
    return counts;
  }
}
