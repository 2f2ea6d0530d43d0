/**
 * @module kg/extract/rules
 * The relation rule table. A rule fires on one of its verbs; `before` must match the sentence text
 * up to the verb (by default: a subject and allowed auxiliaries, so negations, modals and futures
 * never match), `after` must match right after it. The table with an example per rule is in
 * ARCHITECTURE.md ("Extraction rules").
 */
import { isTool } from './tokens.js';
import { activity, EVENT_NOUNS, GROUP_NOUNS, nounPhrase, objectOf, rel, type RawRelation } from './objects.js';

const W = "[\\p{Lu}][\\p{L}\\p{M}\\p{N}'’+#-]*";
const NAME = `(?:(?:Dr|Mr|Mrs|Ms|Mx|Prof)\\.? )?${W}(?: ${W}){0,3}`;
const SUBJ = `(?<![\\p{L}\\p{N}'’@\`.])(I|[Ww]e|@[\\w.-]+|\`[^\`\\n]{2,60}\`|(?!(?:I|[Ww]e)['’])${NAME})(?:'ve|’ve|'m|’m|'re|’re|'s|’s)?`;
const AUX_WORDS =
  'have has had just finally recently also now officially already actually eventually then both all is are am was ' +
  'were got been being totally completely fully since gradually';
const AUX = `(?:(?:${AUX_WORDS.replace(/ /g, '|')}) )*`;

/** Auxiliaries and adverbs allowed between a subject and its verb. */
export const AUX_SET: ReadonlySet<string> = new Set(AUX_WORDS.split(' '));
const DET = '(?:(?:the|a|an|our|my|their|his|her|its|this|that|new|latest|local|official) )*';
const OBJ =
  `${DET}(\`[^\`\\n]{1,80}\`|@[\\w.-]+|[\\p{L}\\p{N}_][\\p{L}\\p{M}\\p{N}_'’.+#/@-]*(?: ` +
  `[\\p{Lu}][\\p{L}\\p{M}\\p{N}_'’.+#-]*){0,4})`;
const TAIL = '([^.,;!?\\n]{1,80})';

// A following lower-case word that is not a function word: the object was a modifier.
const MODIFIER = new RegExp(
  String.raw`^ (?!(?:and|or|but|for|to|in|on|with|as|at|by|from|instead|because|since|via|now|too|here|there|` +
    String.raw`which|that|so|under|over|internally|everywhere|throughout|again|already|only|directly|heavily|` +
    String.raw`extensively|exclusively|mostly|today)\b)\p{Ll}`,
  'u',
);

/** Subject and auxiliaries ending right before the verb. */
export const SUBJECT_BEFORE = new RegExp(`${SUBJ} ${AUX}$`, 'u');
const after = (s: string) => new RegExp(s, 'uy');

/** One relation rule. */
export interface Rule {
  /** Lower-case verb phrases that trigger it (matched as whole words). */
  verbs: readonly string[];
  /** Matched against the sentence up to the verb. Default {@link SUBJECT_BEFORE} (group 1: subject). */
  before?: RegExp;
  /** Cheap test of the text before the verb, run before `before`. */
  quick?: (prefix: string) => boolean;
  /** Matched right after the verb (sticky, starts with a space). */
  after: RegExp;
  make(before: RegExpExecArray, after: RegExpExecArray, verb: string): RawRelation[];
}

const POSSESSIONS: Record<string, { predicate: string; literal: boolean }> = {
  role: { predicate: 'role', literal: true },
  title: { predicate: 'role', literal: true },
  'job title': { predicate: 'role', literal: true },
  position: { predicate: 'role', literal: true },
  status: { predicate: 'status', literal: true },
  manager: { predicate: 'reports_to', literal: false },
  boss: { predicate: 'reports_to', literal: false },
  wife: { predicate: 'married_to', literal: false },
  husband: { predicate: 'married_to', literal: false },
  spouse: { predicate: 'married_to', literal: false },
};

/** The rules, in the order they are tried for a verb. */
export const RULES: readonly Rule[] = [
  {
    // "We switched from npm to pnpm" → uses pnpm, ended uses npm; "I moved to Berlin" → lives_in Berlin
    verbs: ['switched', 'switching', 'migrated', 'migrating', 'moved', 'moving', 'ported', 'porting', 'transitioned'],
    after: after(`(?: (?:everything|it|us|over|back))*(?: from ${OBJ})? to ${OBJ}`),
    make(b, a, verb) {
      const [, from, to] = a;
      const moved = verb.startsWith('mov');
      const tool = objectOf(to!, 'tool', true);
      if (tool && (tool.how === 'code' || !moved)) {
        const out = [rel(b[1]!, 'uses', tool, tool.how === 'code' ? 0.8 : 0.6, { weOk: true })];
        const old = from ? objectOf(from, 'tool', true) : null;
        if (old) out.push(rel(b[1]!, 'uses', old, 0.8, { weOk: true, ends: true, record: true }));
        return out;
      }
      const place = moved ? objectOf(to!, 'place', false) : null;
      if (!place || place.type !== 'place') return [];
      const out = [rel(b[1]!, 'lives_in', place, 0.6, { subjectKind: 'person' })];
      const old = from ? objectOf(from, 'place', false) : null;
      if (old && old.type === 'place')
        out.push(rel(b[1]!, 'lives_in', old, 0.6, { subjectKind: 'person', ends: true, record: true }));
      return out;
    },
  },
  {
    // "We decided on Postgres", "We went with `zod`" → chose
    verbs: [
      'decided on',
      'decided to use',
      'decided to go with',
      'decided to adopt',
      'chose',
      'picked',
      'went with',
      'opted for',
      'settled on',
      'selected',
    ],
    after: after(` ${OBJ}`),
    make: (b, a) => {
      const o = objectOf(a[1]!, 'tool', true);
      return o ? [rel(b[1]!, 'chose', o, 0.7, { weOk: true })] : [];
    },
  },
  {
    // "We use pnpm", "Maya is using Rust", "We rely on SQLite" → uses
    verbs: [
      'use',
      'uses',
      'using',
      'started using',
      'began using',
      'adopted',
      'rely on',
      'relies on',
      'depend on',
      'depends on',
    ],
    after: after(` ${OBJ}`),
    make: (b, a, verb) => {
      // "install Ansible using Chocolatey": a bare participle says nothing about the name before it
      if (
        verb === 'using' &&
        !/\b(?:is|are|am|was|were|been|be)\s+(?:\w+\s+)?$|['’](?:s|re|m)\s+(?:\w+\s+)?$/.test(b[0])
      )
        return [];
      const o = objectOf(a[1]!, 'tool', false);
      // "a SessionStart hook", "Chocolatey modules": the name modifies a following noun
      if (o && !isTool(o.name, true) && !a[1]!.startsWith('`') && MODIFIER.test(a.input.slice(a.index + a[0].length)))
        return [];
      return o ? [rel(b[1]!, 'uses', o, 0.7, { weOk: true })] : [];
    },
  },
  {
    // "We no longer use Redis", "We dropped Webpack" → ends uses
    verbs: [
      'no longer use',
      'no longer uses',
      'no longer rely on',
      'stopped using',
      'dropped',
      'got rid of',
      'removed',
      'ditched',
      'abandoned',
    ],
    after: after(` ${OBJ}`),
    make: (b, a) => {
      const o = objectOf(a[1]!, 'tool', true);
      return o && o.how === 'code' ? [rel(b[1]!, 'uses', o, 0.7, { weOk: true, ends: true })] : [];
    },
  },
  {
    // "Maya works at Acme", "I work for Globex Inc" → works_at
    verbs: ['work', 'works', 'working'],
    after: after(` (?:at|for) ${OBJ}`),
    make: (b, a) => {
      const o = objectOf(a[1]!, 'org', false);
      return o && o.how === 'name' ? [rel(b[1]!, 'works_at', o, 0.75, { subjectKind: 'person' })] : [];
    },
  },
  {
    // "Maya works on auth-migration", "We're working on `memdir`" → works_on
    verbs: ['work', 'works', 'working'],
    after: after(` on ${OBJ}`),
    make: (b, a) => {
      const o = objectOf(a[1]!, 'project', false);
      return o && o.type !== 'person' ? [rel(b[1]!, 'works_on', o, 0.7, { weOk: true })] : [];
    },
  },
  {
    // "I joined Acme Inc" → works_at; "Sam joined the Platform Team", "I joined a mentorship program" → member_of
    verbs: ['joined', 'joins', 'joining'],
    after: after(` ${TAIL}`),
    make: (b, a) => {
      const np = nounPhrase(a[1]!, GROUP_NOUNS);
      if (np) return [rel(b[1]!, 'member_of', { name: np, type: 'group' }, 0.6, { subjectKind: 'person' })];
      const o = objectOf(a[1]!.replace(/^(?:(?:the|a|an|our|my) )+/, '').split(/ (?=\p{Ll})/u)[0]!, 'name', false);
      if (!o || o.how !== 'name') return [];
      if (o.type === 'organisation') return [rel(b[1]!, 'works_at', o, 0.6, { subjectKind: 'person' })];
      return [
        rel(b[1]!, 'member_of', { name: o.name, type: o.type === 'unknown' ? 'group' : o.type }, 0.7, {
          subjectKind: 'person',
        }),
      ];
    },
  },
  {
    // "Maya left Acme" → ends works_at and member_of
    verbs: ['left', 'quit', 'leaves', 'leaving'],
    after: after(` ${OBJ}`),
    make: (b, a) => {
      const o = objectOf(a[1]!, 'org', false);
      if (!o || o.how !== 'name') return [];
      return [
        rel(b[1]!, 'works_at', o, 0.6, { subjectKind: 'person', ends: true }),
        rel(b[1]!, 'member_of', o, 0.6, { subjectKind: 'person', ends: true }),
      ];
    },
  },
  {
    // "Maya was assigned to auth-migration" → assigned_to
    verbs: ['assigned', 'reassigned'],
    after: after(` to ${OBJ}`),
    make: (b, a) => {
      const o = objectOf(a[1]!, 'project', false);
      return o ? [rel(b[1]!, 'assigned_to', o, 0.8, { weOk: true })] : [];
    },
  },
  {
    // "I assigned Maya to billing" → Maya assigned_to billing
    verbs: ['assigned', 'reassigned'],
    before: /$/,
    after: after(` (@[\\w.-]+|${NAME}) to ${OBJ}`),
    make: (_b, a) => {
      const o = objectOf(a[2]!, 'project', false);
      return o ? [rel(a[1]!, 'assigned_to', o, 0.75)] : [];
    },
  },
  {
    // "I live in Lisbon" → lives_in; "Acme is based in Berlin" → located_in
    verbs: ['live', 'lives', 'living', 'based', 'located', 'headquartered'],
    after: after(` in ${OBJ}`),
    make: (b, a, verb) => {
      const o = objectOf(a[1]!, 'place', false);
      if (!o || o.type !== 'place') return [];
      const lives = verb.startsWith('liv');
      return [rel(b[1]!, lives ? 'lives_in' : 'located_in', o, 0.75, lives ? { subjectKind: 'person' } : {})];
    },
  },
  {
    // "Maya's manager is Sam" → reports_to; "My role is tech lead" → role (literal); "Our status is blocked" → status
    verbs: Object.keys(POSSESSIONS),
    quick: (p) => /(?:['’]s|\b[Mm]y|\b[Oo]ur) $/.test(p.slice(-5)),
    before: new RegExp(`(?:(@[\\w.-]+|${NAME})(?:'s|’s)|(?<![\\p{L}])([Mm]y|[Oo]ur)) $`, 'u'),
    after: after(' (?:is|was|has been|is now|became) ([^.,;!?\\n]{1,60})'),
    make: (b, a, verb) => {
      const spec = POSSESSIONS[verb]!;
      const subject = b[1] ?? (b[2]!.toLowerCase() === 'my' ? 'I' : 'we');
      if (spec.literal) {
        const v = a[1]!.replace(/^(?:a|an|the|now) /i, '').trim();
        return v && v.split(' ').length <= 6
          ? [rel(subject, spec.predicate, { literal: v }, 0.7, { weOk: spec.predicate === 'status' })]
          : [];
      }
      const o = objectOf(a[1]!, 'person', false);
      return o && o.type === 'person' ? [rel(subject, spec.predicate, o, 0.7, { subjectKind: 'person' })] : [];
    },
  },
  {
    // "I went to a LGBTQ support group yesterday" → attended "LGBTQ support group"
    verbs: [
      'went to',
      'attended',
      'visited',
      'signed up for',
      'registered for',
      'enrolled in',
      'took part in',
      'participated in',
      'competed in',
      'ran',
    ],
    after: after(` ${TAIL}`),
    make: (b, a) => {
      const np = nounPhrase(a[1]!, EVENT_NOUNS);
      return np ? [rel(b[1]!, 'attended', { name: np, type: 'event' }, 0.6, { subjectKind: 'person' })] : [];
    },
  },
  {
    // "We went camping two weekends ago" → went "camping" (literal)
    verbs: ['went'],
    after: after(' (\\p{Ll}+ing)(?![\\p{L}])'),
    make: (b, a) => {
      const what = activity(a[1]!);
      return what ? [rel(b[1]!, 'went', { literal: what }, 0.6, { subjectKind: 'person' })] : [];
    },
  },
  {
    // "I started playing acoustic guitar five years ago" → started "playing acoustic guitar" (literal)
    verbs: ['started', 'began', 'took up'],
    after: after(" (\\p{Ll}+ing(?: [\\p{L}'’-]+){0,5})"),
    make: (b, a) => {
      const what = activity(a[1]!);
      return what ? [rel(b[1]!, 'started', { literal: what }, 0.6, { subjectKind: 'person' })] : [];
    },
  },
];
