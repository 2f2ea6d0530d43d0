/**
 * @module kg/extract/objects
 * What a relation rule emits, and the checks its objects must pass: a code-shaped token or a
 * vocabulary tool, a capitalised name, or (for a few rules) a noun phrase whose head noun is in a
 * closed list. Anything else is rejected: precision over recall.
 */
import { classifyToken, isTool, nameType, trimStops } from './tokens.js';
import { STOP_WORDS } from './vocabulary.js';

/** What a rule produced, before subject resolution. */
export interface RawRelation {
  /** `I`, `we`, a name, `@handle` or a backticked token, as written. */
  subject: string;
  /** `person`: the subject must be a person (works_at, lives_in…). */
  subjectKind: 'person' | 'any';
  predicate: string;
  object: { name: string; type: string } | { literal: string };
  confidence: number;
  /** Close instead of open: the fact ended at the sentence's date. */
  ends?: boolean;
  /** With `ends`: record the ended fact if it was never stored ("switched from npm"). */
  record?: boolean;
  /** May `we` stand for the wing in this rule? */
  weOk: boolean;
  /** Span of the match in its sentence. */
  at: number;
  end: number;
}

/** Builds a {@link RawRelation} (span filled in by the engine). */
export function rel(
  subject: string,
  predicate: string,
  object: RawRelation['object'],
  confidence: number,
  extra: Partial<RawRelation> = {},
): RawRelation {
  return { subject, subjectKind: 'any', predicate, object, confidence, weOk: false, at: 0, end: 0, ...extra };
}

/** A validated relation object; `how` says whether code shape/vocabulary or only capitalisation vouched for it. */
interface ObjectMatch {
  name: string;
  type: string;
  how: 'code' | 'name';
}

/** The kind of object a rule wants; it also types capitalised names. */
type ObjectKind = 'tool' | 'project' | 'org' | 'place' | 'person' | 'name';

const KIND_TYPE: Record<ObjectKind, string> = {
  tool: 'tool',
  project: 'project',
  org: 'organisation',
  place: 'place',
  person: 'person',
  name: 'unknown',
};

function codeType(type: string, kind: ObjectKind): string {
  return type === 'identifier' ? (kind === 'tool' ? 'tool' : 'project') : type;
}

/** Validates an object phrase for a kind of rule; null rejects the match. */
export function objectOf(raw: string, kind: ObjectKind, ambiguousOk: boolean): ObjectMatch | null {
  const t = raw.replace(/[.,;:!?'’)"”]+$/, '').trim();
  if (!t) return null;
  if (t.startsWith('`')) {
    const c = classifyToken(t.slice(1, -1).trim(), true, true);
    return c ? { name: c.name, type: codeType(c.type, kind), how: 'code' } : null;
  }
  if (t.startsWith('@'))
    return kind === 'person' || kind === 'name' || kind === 'project'
      ? { name: t.slice(1), type: 'person', how: 'code' }
      : null;
  const parts = t.split(' ');
  const first = parts[0]!;
  if (kind !== 'person' && kind !== 'place' && isTool(first, ambiguousOk && parts.length === 1))
    return { name: first, type: 'tool', how: 'code' };
  const lower = first[0] === first[0]!.toLowerCase();
  if (lower) {
    const token = kind === 'tool' || kind === 'project' || kind === 'name' ? classifyToken(first, false) : null;
    return token ? { name: token.name, type: codeType(token.type, kind), how: 'code' } : null;
  }
  const words = trimStops(parts);
  if (words.length === 0) return null;
  const name = words.join(' ');
  return { name, type: nameType(words) ?? KIND_TYPE[kind], how: 'name' };
}

const NP_STOP = new Set(
  `and or but with for to at in on from about by of into onto over out up how here there yesterday today tomorrow last
next this that which who where when because since after before while so then it was were is are be been ago recently
lately again too as like just really more some another one two three four five six seven eight nine ten few couple
years months weeks days`.split(/\s+/),
);

/** Head nouns of events one attends ("a pottery workshop", "the pride parade"). */
export const EVENT_NOUNS = new Set(
  `group meeting parade conference workshop class concert show festival reading party camp session seminar talk meetup
game match race retreat ceremony wedding fair exhibition gala protest rally lecture course council hackathon summit
webinar standup demo recital marathon tournament convention expo screening`.split(/\s+/),
);

/** Head nouns of groups one joins ("a mentorship program", "the platform team"). */
export const GROUP_NOUNS = new Set(
  `program programme group club team community organisation organization company startup band choir league committee
council network initiative guild society union association collective squad crew`.split(/\s+/),
);

/**
 * A noun phrase cut at the first function word, trimmed back to a head noun in `heads`; at least
 * two words (a bare "group" says nothing). "a LGBTQ support group yesterday" → "LGBTQ support group".
 */
export function nounPhrase(raw: string, heads: ReadonlySet<string>): string | null {
  const out: string[] = [];
  for (const w of raw.replace(/^(?:(?:the|a|an|our|my|their|his|her|this|that|new|local) )+/i, '').split(' ')) {
    const clean = w.replace(/[.,;:!?'’)"”]+$/, '');
    if (!clean || NP_STOP.has(clean.toLowerCase())) break;
    out.push(clean);
    if (clean !== w || out.length > 6) break;
  }
  while (out.length && !isHead(out[out.length - 1]!.toLowerCase(), heads)) out.pop();
  return out.length >= 2 && out.length <= 5 ? out.join(' ') : null;
}

function isHead(w: string, heads: ReadonlySet<string>): boolean {
  return (
    heads.has(w) || (w.endsWith('s') && heads.has(w.slice(0, -1))) || (w.endsWith('es') && heads.has(w.slice(0, -2)))
  );
}

const LIGHT_GERUNDS = new Set(
  'using working thinking feeling getting going doing looking caring trying having being taking learning helping'.split(
    ' ',
  ),
);

/** "playing acoustic guitar about five years ago" → "playing acoustic guitar"; light verbs alone are rejected. */
export function activity(raw: string): string | null {
  const words: string[] = [];
  for (const w of raw.split(' ')) {
    const clean = w.replace(/[.,;:!?'’)"”]+$/, '');
    if (!clean || NP_STOP.has(clean.toLowerCase()) || STOP_WORDS.has(clean.toLowerCase())) break;
    words.push(clean);
    if (clean !== w || words.length >= 4) break;
  }
  if (words.length === 0 || (words.length === 1 && LIGHT_GERUNDS.has(words[0]!))) return null;
  return words.join(' ');
}
