/**
 * @module search/spelling
 * British spellings in a query, folded to their American forms. Agent transcripts, code and tool
 * output are written almost entirely in American spelling (`color`, `initialize`, `behavior`,
 * `center`, `canceled`), while the person searching may write `colour`, `initialise`,
 * `behaviour`, `centre`, `cancelled`: Porter stemming does not fold these, so the query word
 * matches nothing. {@link americanVariants} rewrites a query with the regular British-to-American
 * patterns; hybrid search adds the rewritten words to the query's own (never replacing them), so a
 * rewrite that is not a real word costs nothing — it simply matches no drawer.
 */

/** Regular British → American patterns, applied to whole words (case kept by lower-casing). */
const RULES: readonly [RegExp, string][] = [
  // colour, behaviour, favourite, honours, neighbouring (at least 3 letters before: not "hour", "four", "tour")
  [/\b([a-z]{3,})our(s|ed|ing|ite|ites|able|ful|less)?\b/g, '$1or$2'],
  // initialise, organised, optimising, normalisation, realiser
  [/\b([a-z]{3,})is(e|es|ed|ing|ation|ations|er|ers)\b/g, '$1iz$2'],
  // analyse, paralysed
  [/\b([a-z]{2,})ys(e|es|ed|ing)\b/g, '$1yz$2'],
  // centre, metres, theatre
  [/\b([a-z]{2,})tre(s)?\b/g, '$1ter$2'],
  // catalogue, dialogues, analogue
  [/\b([a-z]{3,})ogue(s)?\b/g, '$1og$2'],
  // cancelled, labelling, modelled, signalled, traveller (a single vowel e/a before the doubled l)
  [/\b([a-z]+[^aeiou\W][ea])ll(ed|ing|er|ers)\b/g, '$1l$2'],
  // licence, defence, offence (nouns spelled -ce in British English)
  [/\b(licen|defen|offen|preten)ce(s|d)?\b/g, '$1se$2'],
  [/\bgrey(s|ed|ish)?\b/g, 'gray$1'],
  [/\bprogramme(s)?\b/g, 'program$1'],
];

/**
 * The words of `query` whose American spelling differs, rewritten (lower case, space-separated),
 * or '' when there are none. `colour of the centre` → `color center`.
 */
export function americanVariants(query: string): string {
  const out: string[] = [];
  for (const m of query.toLowerCase().matchAll(/[a-z]+/g)) {
    let w = m[0];
    for (const [re, to] of RULES) w = w.replace(re, to);
    if (w !== m[0]) out.push(w);
  }
  return out.join(' ');
}
