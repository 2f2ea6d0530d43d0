/**
 * @module kg/extract/turns
 * Splits a drawer's text into speaker turns, the units in which "I" has one meaning.
 *
 * A line `Name: text` starts a turn of `Name` when the name is a declared speaker (in any case:
 * `jkim:`), or, in a drawer that declares no speakers, when the drawer is a dialogue: two or more
 * distinct non-stop-listed
 * `Name:` prefixes, and with four or more such lines at least two names prefix two lines each (a
 * list of `Label: value` lines or `**Rationale**:` headings is not a dialogue). Declared speakers
 * (a parsed conversation's, even when they are only the `user`/`assistant` roles) are the complete
 * list: any other `Name:` prefix is a label. `Name said, "…"` lines are turns too. `user:` /
 * `assistant:` prefixes are roles (the user may be mapped to a person). Text before the first turn
 * has no speaker. Fenced code blocks are dropped first:
 * they are not prose.
 */
import { ROLES, STOP_WORDS } from './vocabulary.js';

/** One speaker turn: `text.slice(start, end)` of the scanned text. */
export interface Turn {
  /** The person speaking ("I" resolves to them), or null when unknown. */
  speaker: string | null;
  start: number;
  end: number;
}

const SPEAKER_LINE = new RegExp(
  String.raw`^[ \t]*(?:[>*_]+[ \t]*)?(?:\[[^\]\n]{1,40}\][ \t]*)?` +
    String.raw`([\p{Lu}][\p{L}\p{M}'’.-]*(?: [\p{Lu}][\p{L}\p{M}'’.-]*){0,2}|` +
    String.raw`user|assistant|human|ai|system)(?:\*\*|__)?[ \t]*:(?:\*\*|__)?[ \t]+(?=\S)`,
  'u',
);
const SAID_LINE = new RegExp(
  String.raw`^[ \t]*([\p{Lu}][\p{L}\p{M}'’-]*(?: [\p{Lu}][\p{L}\p{M}'’-]*)?) (?:said|says|wrote|writes|replied|` +
    String.raw`asked)[,:]?[ \t]+["“]?(?=\S)`,
  'u',
);
const SAID_HINT = / (?:said|says|wrote|writes|replied|asked)\b/;
const FENCE = /^[ \t]*(```|~~~)[^\n]*\n[\s\S]*?^[ \t]*\1[ \t]*$/gm;

/** Removes fenced code blocks (they are not prose). */
export function stripCode(text: string): string {
  return text.indexOf('```') >= 0 || text.indexOf('~~~') >= 0 ? text.replace(FENCE, '') : text;
}

interface Options {
  /** Declared speakers of the drawer. */
  speakers: readonly string[];
  /** Person the `user` role stands for, if any. */
  userName: string | null;
}

interface Prefixed {
  line: number;
  /** Offset where the turn's text starts (after the prefix). */
  body: number;
  name: string;
}

function firstWord(name: string): string {
  const sp = name.indexOf(' ');
  return (sp < 0 ? name : name.slice(0, sp)).toLowerCase().replace(/[.'’]+$/, '');
}

function speakerOf(
  raw: string,
  declared: ReadonlyMap<string, string>,
  dialogue: boolean,
  userName: string | null,
): string | null | undefined {
  const lower = raw.toLowerCase();
  if (ROLES.has(lower)) return lower === 'user' || lower === 'human' ? userName : null;
  const known = declared.get(lower);
  if (known !== undefined) return known;
  if (dialogue && !STOP_WORDS.has(firstWord(raw))) return raw;
  return undefined;
}

/** Whether undeclared `Name:` prefixes make a dialogue (see the module rules). */
function isDialogue(prefixed: readonly Prefixed[]): boolean {
  const counts = new Map<string, number>();
  for (const p of prefixed)
    if (!ROLES.has(p.name.toLowerCase()) && !STOP_WORDS.has(firstWord(p.name)))
      counts.set(p.name, (counts.get(p.name) ?? 0) + 1);
  let lines = 0;
  let repeaters = 0;
  for (const n of counts.values()) {
    lines += n;
    if (n >= 2) repeaters++;
  }
  return counts.size >= 2 && (lines < 4 || repeaters >= 2);
}

/** Splits text into turns (see the module rules). Turns cover the text after their prefix to the next turn. */
export function splitTurns(text: string, opts: Options): Turn[] {
  const prefixed: Prefixed[] = [];
  const declared = new Map<string, string>();
  for (const s of opts.speakers) declared.set(s.toLowerCase(), s);
  for (let ls = 0; ls < text.length;) {
    let le = text.indexOf('\n', ls);
    if (le < 0) le = text.length;
    const stop = Math.min(le, ls + 80);
    let colon = ls;
    while (colon < stop && text.charCodeAt(colon) !== 58) colon++;
    const line = colon < stop || SAID_HINT.test(text.slice(ls, stop)) ? text.slice(ls, Math.min(le, ls + 120)) : null;
    const m = line === null ? null : colon < stop ? SPEAKER_LINE.exec(line) : SAID_LINE.exec(line);
    if (m) prefixed.push({ line: ls, body: ls + m[0].length, name: m[1]! });
    else if (colon < stop && declared.has(text.slice(ls, colon).toLowerCase()) && text.charCodeAt(colon + 1) === 32)
      // a declared speaker written in lower case (a Slack handle such as `jkim:`)
      prefixed.push({ line: ls, body: colon + 2, name: text.slice(ls, colon) });
    ls = le + 1;
  }
  const dialogue = opts.speakers.length === 0 && isDialogue(prefixed);
  const turns: Turn[] = [];
  let pos = 0;
  let speaker: string | null = null;
  let any = false;
  for (const p of prefixed) {
    const who = speakerOf(p.name, declared, dialogue, opts.userName);
    if (who === undefined) continue;
    if (p.line > pos || turns.length > 0) turns.push({ speaker, start: pos, end: Math.max(pos, p.line - 1) });
    speaker = who;
    pos = p.body;
    any = true;
  }
  turns.push({ speaker, start: pos, end: text.length });
  if (!any && opts.speakers.length === 1) for (const t of turns) t.speaker = opts.speakers[0]!;
  return turns.filter((t) => t.end > t.start);
}
