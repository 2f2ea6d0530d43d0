/**
 * @module kg/extract/relations
 * The relation engine: the verbs of the rule table are found by the word scanner; at each hit
 * the engine takes the sentence around it, its subject (`before`) and its object (`after`). Cost
 * grows with the number of verb hits, not with the number of rules. Questions and hedged clauses
 * (if, should, maybe, not…) are skipped.
 */
import type { VerbHit } from './mentions.js';
import type { RawRelation } from './objects.js';
import { AUX_SET, RULES, SUBJECT_BEFORE, type Rule } from './rules.js';

export type { RawRelation } from './objects.js';

/** The relations of one sentence. */
export interface SentenceRelations {
  sentence: string;
  /** Offset of the sentence in the scanned text. */
  start: number;
  /** Spans (`at`, `end`) are relative to the sentence. */
  relations: RawRelation[];
}

const BY_VERB = new Map<string, Rule[]>();
for (const r of RULES) for (const v of r.verbs) BY_VERB.set(v, [...(BY_VERB.get(v) ?? []), r]);

/** Verb phrases by their first word, longest first (for the word scanner). */
export const VERB_INDEX: ReadonlyMap<string, readonly string[]> = (() => {
  const m = new Map<string, string[]>();
  for (const v of BY_VERB.keys()) {
    const first = v.split(' ')[0]!;
    m.set(
      first,
      [...(m.get(first) ?? []), v].sort((a, b) => b.length - a.length),
    );
  }
  return m;
})();

const HEDGE = new RegExp(
  String.raw`\b(?:if|whether|unless|should|could|would|might|maybe|perhaps|let's|wanna|want to|plan to|` +
    String.raw`planning to|thinking about|considering|hope to|hoping to|going to|gonna|won't|didn't|don't|` +
    String.raw`doesn't|never|not)\b`,
  'i',
);
const ABBREVIATIONS = new Set([
  'dr',
  'mr',
  'mrs',
  'ms',
  'mx',
  'prof',
  'st',
  'inc',
  'ltd',
  'co',
  'corp',
  'jr',
  'sr',
  'vs',
  'etc',
  'e.g',
  'i.e',
  'approx',
  'no',
]);
const MAX_SENTENCE = 400;
/** A sentence ending in a question mark. */
export const QUESTION = /\?\s*["”')]*$/;

function isStop(text: string, i: number): boolean {
  const c = text[i];
  if (c !== '.' && c !== '!' && c !== '?') return false;
  const n = text[i + 1];
  if (n !== undefined && n !== ' ' && n !== '\n' && n !== '\t' && n !== '"' && n !== '”' && n !== ')') return false;
  if (c !== '.') return true;
  let w = i;
  while (w > 0 && /[\w.]/.test(text[w - 1]!)) w--;
  return !ABBREVIATIONS.has(text.slice(w, i).toLowerCase());
}

/** The sentence containing offset `i` of `text`, as [start, end): bounded by . ! ? + space, line breaks, 400 chars. */
export function sentenceAround(text: string, i: number): [number, number] {
  let s = i;
  while (s > 0 && i - s < MAX_SENTENCE && text[s - 1] !== '\n' && !isStop(text, s - 1)) s--;
  while (s < i && (text[s] === ' ' || text[s] === '\t')) s++;
  let e = i;
  while (e < text.length && e - i < MAX_SENTENCE && text[e] !== '\n' && !isStop(text, e)) e++;
  if (e < text.length && text[e] !== '\n') e++;
  return [s, e];
}

/**
 * Where a subject can start in `prefix` (which ends with a space before the verb): walks back over
 * allowed auxiliaries to the first other word, which must look like a subject (I, we, @handle,
 * `code`, a capitalised word). Returns -1 when it cannot, so the subject regex is never run.
 */
function subjectStart(prefix: string): number {
  let end = prefix.length - 1;
  for (let words = 0; end > 0 && words < 8; words++) {
    if (prefix.charCodeAt(end) !== 32) return -1;
    let start = end;
    while (start > 0 && prefix.charCodeAt(start - 1) !== 32) start--;
    const word = prefix.slice(start, end);
    if (AUX_SET.has(word)) {
      end = start - 1;
      continue;
    }
    const c = word.charCodeAt(0);
    const subjectLike = (c >= 65 && c <= 90) || c === 64 || c === 96 || c > 127 || /^we(?:['’](?:ve|re))?$/.test(word);
    return subjectLike ? Math.max(0, start - 60) : -1;
  }
  return -1;
}

/** True when the clause before a verb (from the last comma, semicolon, colon or dash) holds a hedge word. */
export function hedged(prefix: string): boolean {
  const cut = Math.max(
    prefix.lastIndexOf(','),
    prefix.lastIndexOf(';'),
    prefix.lastIndexOf(':'),
    prefix.lastIndexOf('—'),
  );
  return HEDGE.test(cut < 0 ? prefix : prefix.slice(cut + 1));
}

/** Runs the rules at the verb hits of `text`; returns the sentences that gave relations, in text order. */
export function relationsAtHits(text: string, hits: readonly VerbHit[]): SentenceRelations[] {
  const out: SentenceRelations[] = [];
  const bySentence = new Map<number, SentenceRelations>();
  let skipUntil = -1;
  for (const hit of hits) {
    if (hit.index < skipUntil) continue;
    const [s, e] = sentenceAround(text, hit.index);
    const sentence = text.slice(s, e);
    if (QUESTION.test(sentence)) {
      skipUntil = e;
      continue;
    }
    const at = hit.index - s;
    const prefix = sentence.slice(0, at);
    if (hedged(prefix)) continue;
    let from = -2;
    for (const rule of BY_VERB.get(hit.phrase) ?? []) {
      let b: RegExpExecArray | null;
      if (rule.before)
        b =
          !rule.quick || rule.quick(prefix)
            ? rule.before.exec(prefix.length > 120 ? prefix.slice(-120) : prefix)
            : null;
      else {
        if (from === -2) from = subjectStart(prefix);
        b = from < 0 ? null : SUBJECT_BEFORE.exec(from > 0 ? prefix.slice(from) : prefix);
      }
      if (!b) continue;
      rule.after.lastIndex = at + hit.phrase.length;
      const a = rule.after.exec(sentence);
      if (!a) continue;
      const made = rule.make(b, a, hit.phrase);
      if (made.length === 0) continue;
      let group = bySentence.get(s);
      if (!group) {
        group = { sentence, start: s, relations: [] };
        bySentence.set(s, group);
        out.push(group);
      }
      const begin = at - b[0].length;
      for (const r of made) group.relations.push({ ...r, at: begin, end: at + hit.phrase.length + a[0].length });
      break;
    }
  }
  return out;
}
