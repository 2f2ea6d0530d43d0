/**
 * @module ingest/convos/hall
 * The hall of a drawer: a weights-free, rule-based label of what kind of content it is.
 *
 * Every rule is a whole-word, case-insensitive regex (`\b…\b`: "art" never matches "start") with a
 * weight; a hall's score is Σ weight × min(matches, 3) over the first 5,000 characters. The
 * highest score wins; a tie for first place, or no match at all, gives `general`.
 *
 * | hall         | rules (weight)                                                                                 |
 * | ------------ | ---------------------------------------------------------------------------------------------- |
 * | facts        | "we/I/they decided/agreed/chose/settled on/went with" (3); decided, decision, chose, chosen,    |
 * |              | agreed, opted for, settled on, went with (2); "is defined as", "refers to", "stands for",       |
 * |              | "means that", "is called", "consists of" (2); "is/are a/an/the/our/my/not/always/never/called/  |
 * |              | used/located/based" statements (1)                                                              |
 * | events       | ISO dates, "May 8", "8 May" (2); yesterday, today, tonight, tomorrow, "last/next week/month/…",  |
 * |              | "this morning", "ago" (2); weekdays (1); went to, visited, attended, "met with", meeting,         |
 * |              | conference, trip, party, wedding, birthday, happened, "took place", released, launched,          |
 * |              | shipped, deployed, graduated, "moved to" (1.5)                                                   |
 * | discoveries  | "found out", "turns/turned out", realised/realized, discovered, noticed, "figured out",         |
 * |              | learned/learnt, TIL, apparently, "root cause", "the bug/issue/problem/culprit/cause was/is" (2)  |
 * | preferences  | "I (really) prefer/like/love/enjoy/hate/dislike/want", "I'd/would rather" (3); prefer,           |
 * |              | preferred, preference, favourite/favorite, "rather than" (2); "always/never use/do/want/put/     |
 * |              | write/run" (2); "don't/do not use/like/want/add" (1.5); "my/our style/convention/habit" (1.5)    |
 * | advice       | "you should/could/might want to/may want to/need to/must/ought to" (3); recommend(ed),          |
 * |              | suggest(ion), advice, advise, "best practice", tip (2); "make sure", "be sure to", "don't        |
 * |              | forget", "remember to", consider, try, avoid, "instead of" (1.5); "it's better/best/safer/a good |
 * |              | idea to" (2)                                                                                     |
 */

/** The halls. */
export type Hall = 'facts' | 'events' | 'discoveries' | 'preferences' | 'advice' | 'general';

interface Rule {
  re: RegExp;
  w: number;
}

const r = (src: string, w: number): Rule => ({ re: new RegExp(`\\b(?:${src})\\b`, 'gi'), w });
const MONTH = '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';

/** The rule table (see the module comment). */
export const HALL_RULES: Readonly<Record<Exclude<Hall, 'general'>, readonly Rule[]>> = {
  facts: [
    r("(?:we|i|they|the team)\\s+(?:have\\s+|'ve\\s+)?(?:decided|agreed|chose|settled on|went with)", 3),
    r('decided|decision|chose|chosen|agreed|opted for|settled on|went with', 2),
    r('is defined as|refers to|stands for|means that|is called|consists of', 2),
    r('(?:is|are)\\s+(?:a|an|the|our|my|not|always|never|called|used|located|based)', 1),
  ],
  events: [
    r(`\\d{4}-\\d{2}-\\d{2}|${MONTH}\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?|\\d{1,2}(?:st|nd|rd|th)?\\s+${MONTH}`, 2),
    r('yesterday|today|tonight|tomorrow|(?:last|next)\\s+(?:week|night|month|year|weekend|time)|this morning|ago', 2),
    r('monday|tuesday|wednesday|thursday|friday|saturday|sunday', 1),
    r('went to|visited|attended|met with|meeting|conference|trip|party|wedding|birthday|happened|took place|released|launched|shipped|deployed|graduated|moved to', 1.5),
  ],
  discoveries: [
    r('found out|turns out|turned out|realised|realized|discovered|noticed|figured out|learned|learnt|TIL|apparently|root cause|the (?:bug|issue|problem|culprit|cause) (?:was|is)', 2),
  ],
  preferences: [
    r("i (?:really )?(?:prefer|like|love|enjoy|hate|dislike|want)|i'd rather|i would rather", 3),
    r('prefer|preferred|preference|favou?rite|rather than', 2),
    r('(?:always|never) (?:use|do|want|put|write|run)', 2),
    r("(?:don't|do not) (?:use|like|want|add)", 1.5),
    r('(?:my|our) (?:style|convention|habit)', 1.5),
  ],
  advice: [
    r('you (?:should|could|might want to|may want to|need to|must|ought to)', 3),
    r('recommend|recommended|suggest|suggestion|advice|advise|best practice|tip', 2),
    r("make sure|be sure to|don't forget|remember to|consider|try|avoid|instead of", 1.5),
    r("(?:it's|it is) (?:better|best|safer|a good idea) to", 2),
  ],
};

/** Scores of every hall for `text` (for tests and explanations). */
export function hallScores(text: string): Record<Exclude<Hall, 'general'>, number> {
  const t = text.length > 5000 ? text.slice(0, 5000) : text;
  const out = { facts: 0, events: 0, discoveries: 0, preferences: 0, advice: 0 };
  for (const hall of Object.keys(HALL_RULES) as (keyof typeof HALL_RULES)[]) {
    let s = 0;
    for (const { re, w } of HALL_RULES[hall]) {
      re.lastIndex = 0;
      let n = 0;
      while (n < 3 && re.exec(t) !== null) n++;
      s += w * n;
    }
    out[hall] = s;
  }
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
