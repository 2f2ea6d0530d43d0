/**
 * @module kg/extract/turns
 * Splits a drawer's text into speaker turns and sentences, the units the extraction rules see.
 *
 * A line `Name: text` starts a turn of `Name` when the name is a declared speaker, or when the
 * drawer is a dialogue (two or more distinct non-stop-listed `Name:` prefixes). `Name said, "…"`
 * lines are turns too. `user:` / `assistant:` prefixes are roles (the user may be mapped to a
 * person). Fenced code blocks are dropped: they are not prose.
 */
import { entityKey } from '../normalize.js';
import { ROLES, STOP_WORDS } from './vocabulary.js';

/** One speaker turn. */
export interface Turn {
  /** The person speaking ("I" resolves to them), or null when unknown. */
  speaker: string | null;
  text: string;
}

const SPEAKER_LINE = /^[ \t]*(?:[>*_]+[ \t]*)?(?:\[[^\]\n]{1,40}\][ \t]*)?([\p{Lu}][\p{L}\p{M}'’.-]*(?: [\p{Lu}][\p{L}\p{M}'’.-]*){0,2}|user|assistant|human|ai|system)(?:\*\*|__)?[ \t]*:(?:\*\*|__)?[ \t]+(\S.*)$/u;
const SAID_LINE = /^[ \t]*([\p{Lu}][\p{L}\p{M}'’-]*(?: [\p{Lu}][\p{L}\p{M}'’-]*)?) (?:said|says|wrote|writes|replied|asked)[,:]?[ \t]+["“]?(\S.*?)["”]?[ \t]*$/u;
const FENCE = /^[ \t]*(```|~~~)[^\n]*\n[\s\S]*?^[ \t]*\1[ \t]*$/gm;

/** Removes fenced code blocks (they are not prose). */
export function stripCode(text: string): string {
  return text.includes('```') || text.includes('~~~') ? text.replace(FENCE, '') : text;
}

interface Options {
  /** Declared speakers of the drawer. */
  speakers: readonly string[];
  /** Person the `user` role stands for, if any. */
  userName: string | null;
}

const firstWord = (name: string) => name.split(' ')[0]!.toLowerCase().replace(/[.'’]+$/, '');

/** Splits text into turns (see the module rules). */
export function splitTurns(text: string, opts: Options): Turn[] {
  const declared = new Map(opts.speakers.map((s) => [entityKey(s), s] as const));
  const lines = text.split('\n');
  const prefixed: (RegExpExecArray | null)[] = lines.map((l) => (l.includes(':') || l.includes(' sa') || l.includes(' wr') ? SPEAKER_LINE.exec(l) ?? SAID_LINE.exec(l) : null));
  const distinct = new Set<string>();
  for (const m of prefixed) if (m && !ROLES.has(m[1]!.toLowerCase()) && !STOP_WORDS.has(firstWord(m[1]!))) distinct.add(entityKey(m[1]!));
  const dialogue = distinct.size >= 2;
  const speakerOf = (raw: string): string | null | undefined => {
    const role = raw.toLowerCase();
    if (ROLES.has(role)) return role === 'user' || role === 'human' ? opts.userName : null;
    const known = declared.get(entityKey(raw));
    if (known) return known;
    if (dialogue && !STOP_WORDS.has(firstWord(raw))) return raw;
    return undefined;
  };
  const turns: Turn[] = [];
  let current: Turn | null = null;
  let any = false;
  for (let i = 0; i < lines.length; i++) {
    const m = prefixed[i];
    const who = m ? speakerOf(m[1]!) : undefined;
    if (m && who !== undefined) {
      any = true;
      current = { speaker: who, text: m[2]! };
      turns.push(current);
    } else if (current) current.text += '\n' + lines[i];
    else {
      current = { speaker: null, text: lines[i]! };
      turns.push(current);
    }
  }
  if (!any && opts.speakers.length === 1) for (const t of turns) t.speaker = opts.speakers[0]!;
  return turns;
}

const ABBREVIATIONS = new Set(['dr', 'mr', 'mrs', 'ms', 'mx', 'prof', 'st', 'inc', 'ltd', 'co', 'corp', 'jr', 'sr', 'vs', 'etc', 'e.g', 'i.e', 'approx', 'no', 'fig', 'vol', 'ca']);
const BOUNDARY = /[.!?]+["”')\]]*\s+|\n\s*/g;

/** Splits prose into sentences at `.`/`!`/`?` + space and at line breaks, not after abbreviations. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  BOUNDARY.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = BOUNDARY.exec(text)) !== null) {
    if (m[0][0] === '.') {
      let w = m.index;
      while (w > start && /[\w.]/.test(text[w - 1]!)) w--;
      if (ABBREVIATIONS.has(text.slice(w, m.index).toLowerCase())) continue;
    }
    const s = text.slice(start, m.index + (m[0][0] === '\n' ? 0 : m[0].trimEnd().length)).trim();
    if (s) out.push(s);
    start = m.index + m[0].length;
  }
  const last = text.slice(start).trim();
  if (last) out.push(last);
  return out;
}
