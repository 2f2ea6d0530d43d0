/**
 * @module extract/explicit
 * Extraction without a model: only the **explicit cases**, where the person asked for something
 * to be kept — "remember that …", "keep in mind …", "from now on …", "going forward …", "next
 * time …", "don't … again", "stop …ing", "always …" / "never …" said as an instruction, and
 * "remember this" / "keep that in mind" / "make sure you know about it" after the fact itself. Nothing is
 * inferred: a sentence counts only when the cue opens one of its clauses (start of the message or
 * sentence, or after "please", "ok", "yes", "but", "and", "also", a comma). Messages longer than
 * {@link MAX_PROMPT_CHARS} are pasted material (logs, documents, prompts written for another agent),
 * not requests, and are skipped; so are quoted lines and code.
 *
 * Type: about the speaker ("remember that I …", "my …") → `user`; a URL or a named external
 * system (dashboard, tracker, channel, wiki, runbook) → `reference`; an instruction about how to
 * work (from now on, don't … again, always, never, stop) → `feedback`; any other "remember that"
 * → `project`.
 */
import type { MemoryType } from '../memdir/index.js';
import type { Candidate, SessionTurn } from './types.js';

/** Longer user messages are pasted material, not requests (skipped). */
export const MAX_PROMPT_CHARS = 2000;

const LEAD =
  String.raw`(?:^|[.!?;:]\s+|\n\s*|,\s*|` +
  String.raw`\b(?:please|pls|ok(?:ay)?|yes|no|but|and|also|so|oh|hey|just)\b,?\s+)`;
/** Each cue: its pattern (the fact is group `f`) and the memory type it implies (undefined: decided by content). */
const CUES: { re: RegExp; kind: 'remember' | 'rule' }[] = [
  {
    re: new RegExp(
      LEAD +
        String.raw`(?:(?:please\s+)?remember(?:\s+that\b|\s*:)|please\s+remember\b|` +
        String.raw`(?:don'?t|do not) forget(?:\s+that\b|\s*:)|` +
        String.raw`(?:keep|bear) in mind(?:\s+that\b|\s*:)|for future reference\s*[:,]|memori[sz]e(?:\s+that\b|\s*:)|` +
        String.raw`(?:save|add|put) (?:this|that|it) (?:to|in|into) (?:your |the )?memory\b\s*[:,-]?)` +
        String.raw`\s*(?<f>[^\n]{8,400})`,
      'i',
    ),
    kind: 'remember',
  },
  {
    re: new RegExp(
      LEAD +
        String.raw`(?:from now on|going forward|in (?:the )?future|next time|for future sessions)` +
        String.raw`\s*[:,-]?\s+(?<f>[^\n]{6,400})`,
      'i',
    ),
    kind: 'rule',
  },
  {
    re: new RegExp(
      LEAD + String.raw`(?<f>(?:don'?t|do not|never)\s+[^\n.!?]{4,300}?\s+(?:again|anymore|any more)\b[^\n]{0,200})`,
      'i',
    ),
    kind: 'rule',
  },
  {
    re: new RegExp(
      LEAD +
        String.raw`(?<f>(?:always|never)\s+(?:use|run|write|put|keep|add|ask|check|call|make|commit|push|` +
        String.raw`test|do|say|prefer|start|edit|create|touch|include|leave|read|work)\b[^\n]{3,300})`,
      'i',
    ),
    kind: 'rule',
  },
  { re: new RegExp(LEAD + String.raw`(?<f>stop\s+\w+ing\b[^\n]{3,300})`, 'i'), kind: 'rule' },
];

const URL = /\bhttps?:\/\/\S+/i;
const EXTERNAL = new RegExp(
  String.raw`\b(?:dashboard|tracker|jira|linear|grafana|datadog|sentry|slack channel|channel|wiki|runbook|notion` +
    String.raw`|confluence|board)\b`,
  'i',
);
const ABOUT_ME = /^(?:that\s+)?(?:i\b|i'm\b|i've\b|my\b|me\b)/i;
const PRONOUN_ONLY = /^(?:don'?t|do not|never)\s+(?:do\s+)?(?:that|this|it|so)\s+(?:again|anymore)\b/i;

function classify(kind: 'remember' | 'rule', fact: string): MemoryType {
  if (ABOUT_ME.test(fact.trim())) return 'user';
  if (URL.test(fact) || (kind === 'remember' && EXTERNAL.test(fact))) return 'reference';
  return kind === 'rule' ? 'feedback' : 'project';
}

function cleanFact(f: string): string {
  let s = f.trim().replace(/\s+/g, ' ');
  // One sentence: cut at the first sentence end that is not inside a URL or a version number.
  const end = /[.!?](?=\s|$)/.exec(s);
  if (end) s = s.slice(0, end.index + 1);
  return s.replace(/^[,:;-]\s*/, '').replace(/\s*[,;:-]$/, '');
}

function contentWords(s: string): number {
  return s
    .split(/\W+/)
    .filter((w) => w.length > 2 && !/^(?:that|this|the|and|you|again|anymore|don|not|never)$/i.test(w)).length;
}

/** A title of at most six words from the fact. */
function titleOf(fact: string): string {
  const words = fact
    .replace(/https?:\/\/\S+/g, '')
    .replace(/[`*_"'()[\]{}<>]/g, '')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 6);
  return words.join(' ').replace(/[.,;:!?]+$/, '') || 'note';
}

function proseLines(text: string): string {
  return text
    .replace(/```[\s\S]*?(?:```|$)/g, '\n')
    .split('\n')
    .filter((l) => !/^\s*(?:>|\$ |#!|\||\t| {4})/.test(l))
    .join('\n');
}

/**
 * "Remember this", "keep that in mind", "make sure you know about it next time": the request
 * points back at the sentence before it, which is the fact.
 */
const BACK_REFERENCE = new RegExp(
  String.raw`^(?:(?:ok(?:ay)?|and|also|so|please)[,\s]+)*` +
    String.raw`(?:make sure (?:you|to) (?:know|remember)(?: about)? (?:this|that|it)|remember (?:this|that)|` +
    String.raw`(?:keep|bear) (?:this|that|it) in mind|(?:don'?t|do not) forget (?:this|that|it))\b`,
  'i',
);
const RULE_WORDS = /\b(?:don'?t|do not|never|always|can'?t|cannot|instead|use|stop|must)\b/i;

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((x) => x.trim())
    .filter(Boolean);
}

/** Facts that a back-reference request points at: `[request sentence, fact sentence]`. */
function backReferences(text: string): [string, string][] {
  const out: [string, string][] = [];
  const list = sentences(text);
  for (let i = 1; i < list.length; i++) {
    if (BACK_REFERENCE.test(list[i]!) && contentWords(list[i - 1]!) >= 2) out.push([list[i]!, list[i - 1]!]);
  }
  return out;
}

/**
 * The explicit requests in the user turns of `turns` (see the module comment), one candidate per
 * request, in order. Pure: no model, no I/O.
 */
export function explicitCandidates(turns: readonly SessionTurn[]): Candidate[] {
  const out: Candidate[] = [];
  for (const t of turns) {
    if (t.role !== 'user' || t.text.length > MAX_PROMPT_CHARS) continue;
    const text = proseLines(t.text);
    const seen = new Set<string>();
    const found: { kind: 'remember' | 'rule'; raw: string; quote: string }[] = [];
    for (const cue of CUES) {
      const m = cue.re.exec(text);
      if (m?.groups?.['f']) found.push({ kind: cue.kind, raw: m.groups['f'], quote: m[0] });
    }
    for (const [request, fact] of backReferences(text)) {
      found.push({ kind: RULE_WORDS.test(fact) ? 'rule' : 'remember', raw: fact, quote: `${fact} ${request}` });
    }
    for (const f of found) {
      const fact = cleanFact(f.raw);
      if (PRONOUN_ONLY.test(fact) || contentWords(fact) < 2 || seen.has(fact.toLowerCase())) continue;
      seen.add(fact.toLowerCase());
      const type = classify(f.kind, fact);
      const quote = f.quote
        .replace(/^[\s.!?;:,]+/, '')
        .trim()
        .replace(/\s+/g, ' ')
        .slice(0, 160);
      const when = t.at ? ` on ${t.at.slice(0, 10)}` : '';
      const upper = fact[0]!.toUpperCase() + fact.slice(1);
      out.push({
        type,
        name: titleOf(fact),
        description: upper.length > 140 ? `${upper.slice(0, 139)}…` : upper,
        body: upper,
        ...(type === 'feedback' || type === 'project'
          ? {
              why: `The user asked for it explicitly${when}: "${quote}"`,
              how:
                type === 'feedback'
                  ? 'Follow it in every later session of this project unless the user says otherwise.'
                  : 'Take it into account when planning or deciding in this project.',
            }
          : {}),
        turn: t.index,
        reason: `explicit request (no model): "${quote}"`,
      });
    }
  }
  return out;
}
