/**
 * @module ingest/convos/hall
 * The hall of a drawer: a weights-free, rule-based label of what kind of content it is.
 *
 * Every rule is a list of whole-word phrases (case-insensitive; see phrases — "art" never matches
 * "start") with a weight; a hall's score is Σ weight × min(matches, 3) over the first 5,000
 * characters. The highest score wins; a tie for first place, or no match at all, gives `general`.
 * Phrase syntax: `{a|b}` choice, `[a]` optional, `#date`/`#month`/`#day`/`#weekday` word classes.
 *
 * | hall        | weight | phrases                                                                              |
 * | ----------- | ------ | ------------------------------------------------------------------------------------ |
 * | facts       | 3      | {we/I/they/the team} [have/has] {decided/agreed/chose/settled on/went with}; we've/I've… |
 * |             | 2      | decided, decision, chose, chosen, agreed, opted for, settled on, went with           |
 * |             | 2      | is defined as, refers to, stands for, means that, is called, consists of              |
 * |             | 1      | {is/are} {a/an/the/our/my/not/always/never/called/used/located/based}                 |
 * | events      | 2      | ISO date, "May 8", "8 May" (#month #day, #day #month)                                |
 * |             | 2      | yesterday, today, tonight, tomorrow, this morning, ago                               |
 * |             | 2      | {last/next} {week/night/month/year/weekend/time}                                     |
 * |             | 1      | weekday names                                                                        |
 * |             | 1.5    | went to, visited, attended, met with, meeting, conference, trip, party, wedding      |
 * |             | 1.5    | birthday, happened, took place, released, launched, shipped, deployed, graduated     |
 * |             | 1.5    | moved to                                                                             |
 * | discoveries | 2      | found out, turns out, turned out, realised, realized, discovered, noticed            |
 * |             | 2      | figured out, learned, learnt, TIL, apparently, root cause                            |
 * |             | 2      | the {bug/issue/problem/culprit/cause} {was/is}                                       |
 * | preferences | 3      | I [really] {prefer/like/love/enjoy/hate/dislike/want}, I'd rather, I would rather     |
 * |             | 2      | prefer, preferred, preference, favourite, favorite, rather than                       |
 * |             | 2      | {always/never} {use/do/want/put/write/run}                                            |
 * |             | 1.5    | {don't/do not} {use/like/want/add}                                                    |
 * |             | 1.5    | {my/our} {style/convention/habit}                                                     |
 * | advice      | 3      | you {should/could/need to/must/ought to}, you {might/may} want to                     |
 * |             | 2      | recommend, recommended, suggest, suggestion, advice, advise, best practice, tip       |
 * |             | 1.5    | make sure, be sure to, don't forget, remember to, consider, try, avoid, instead of    |
 * |             | 2      | {it's/it is} {better/best/safer} to, {it's/it is} a good idea to                      |
 */
import { PhraseMatcher, wordTokens } from './phrases.js';

/** The halls. */
type Hall = 'facts' | 'events' | 'discoveries' | 'preferences' | 'advice' | 'general';

/** One rule: whole-word phrases and their weight. */
interface HallRule {
  hall: Exclude<Hall, 'general'>;
  weight: number;
  phrases: readonly string[];
}

const DECIDE = '{decided|agreed|chose|settled on|went with}';

/** The rule table (see the module comment). */
const HALL_RULES: readonly HallRule[] = [
  {
    hall: 'facts',
    weight: 3,
    phrases: [`{we|i|they} [have] ${DECIDE}`, `{we've|i've|they've} ${DECIDE}`, `the team [has|have] ${DECIDE}`],
  },
  {
    hall: 'facts',
    weight: 2,
    phrases: ['decided', 'decision', 'chose', 'chosen', 'agreed', 'opted for', 'settled on', 'went with'],
  },
  {
    hall: 'facts',
    weight: 2,
    phrases: ['is defined as', 'refers to', 'stands for', 'means that', 'is called', 'consists of'],
  },
  { hall: 'facts', weight: 1, phrases: ['{is|are} {a|an|the|our|my|not|always|never|called|used|located|based}'] },
  { hall: 'events', weight: 2, phrases: ['#date', '#month #day', '#day #month'] },
  {
    hall: 'events',
    weight: 2,
    phrases: [
      'yesterday',
      'today',
      'tonight',
      'tomorrow',
      '{last|next} {week|night|month|year|weekend|time}',
      'this morning',
      'ago',
    ],
  },
  { hall: 'events', weight: 1, phrases: ['#weekday'] },
  {
    hall: 'events',
    weight: 1.5,
    phrases: [
      'went to',
      'visited',
      'attended',
      'met with',
      'meeting',
      'conference',
      'trip',
      'party',
      'wedding',
      'birthday',
      'happened',
      'took place',
      'released',
      'launched',
      'shipped',
      'deployed',
      'graduated',
      'moved to',
    ],
  },
  {
    hall: 'discoveries',
    weight: 2,
    phrases: [
      'found out',
      'turns out',
      'turned out',
      'realised',
      'realized',
      'discovered',
      'noticed',
      'figured out',
      'learned',
      'learnt',
      'til',
      'apparently',
      'root cause',
      'the {bug|issue|problem|culprit|cause} {was|is}',
    ],
  },
  {
    hall: 'preferences',
    weight: 3,
    phrases: ['i [really] {prefer|like|love|enjoy|hate|dislike|want}', "i'd rather", 'i would rather'],
  },
  {
    hall: 'preferences',
    weight: 2,
    phrases: ['prefer', 'preferred', 'preference', 'favourite', 'favorite', 'rather than'],
  },
  { hall: 'preferences', weight: 2, phrases: ['{always|never} {use|do|want|put|write|run}'] },
  { hall: 'preferences', weight: 1.5, phrases: ["{don't|do not} {use|like|want|add}"] },
  { hall: 'preferences', weight: 1.5, phrases: ['{my|our} {style|convention|habit}'] },
  { hall: 'advice', weight: 3, phrases: ['you {should|could|need to|must|ought to}', 'you {might|may} want to'] },
  {
    hall: 'advice',
    weight: 2,
    phrases: ['recommend', 'recommended', 'suggest', 'suggestion', 'advice', 'advise', 'best practice', 'tip'],
  },
  {
    hall: 'advice',
    weight: 1.5,
    phrases: ['make sure', 'be sure to', "don't forget", 'remember to', 'consider', 'try', 'avoid', 'instead of'],
  },
  { hall: 'advice', weight: 2, phrases: ["{it's|it is} {better|best|safer} to", "{it's|it is} a good idea to"] },
];

const MATCHER = new PhraseMatcher(HALL_RULES.map((r) => r.phrases));

/** Scores of every hall for `text` (for tests and explanations). */
export function hallScores(text: string): Record<Exclude<Hall, 'general'>, number> {
  const counts = MATCHER.count(wordTokens(text), HALL_RULES.length, 3);
  const out = { facts: 0, events: 0, discoveries: 0, preferences: 0, advice: 0 };
  HALL_RULES.forEach((r, i) => (out[r.hall] += r.weight * counts[i]!));
  return out;
}

/** The hall of `text` (see the module comment); ties and no match give `general`. */
export function classifyHall(text: string): Hall {
  const scores = hallScores(text);
  let best: Hall = 'general';
  let top = 0;
  let tie = false;
  for (const [hall, s] of Object.entries(scores) as [Exclude<Hall, 'general'>, number][]) {
    if (s > top) {
      best = hall;
      top = s;
      tie = false;
    } else if (s === top && s > 0) tie = true;
  }
  return tie || top === 0 ? 'general' : best;
}
