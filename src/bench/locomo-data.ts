/**
 * @module bench/locomo-data
 * Reads any file in LoCoMo format (`locomo10.json` and its subsets) and renders sessions the way
 * the benchmark protocol's headline run does: one line per turn, `{speaker} said, "{text}"`.
 */
import { readFileSync } from 'node:fs';
import { createError, fsError } from '../core/errors.js';
import { hour24, monthOfPrefix } from '../text/index.js';

/** One turn of a LoCoMo session. */
interface LocomoTurn {
  speaker: string;
  diaId: string;
  text: string;
  caption?: string;
}

/** One session: its number, date and turns. */
interface LocomoSession {
  n: number;
  /** The session's date as written in the file, e.g. "1:56 pm on 8 May, 2023". */
  dateText: string;
  /** ISO-8601 UTC parse of `dateText`, or null. */
  date: string | null;
  turns: LocomoTurn[];
}

/** One question with its gold sessions. */
interface LocomoQuestion {
  question: string;
  category: number;
  /** Session numbers named by the evidence (protocol rule 3). */
  gold: number[];
}

/** One conversation. */
export interface LocomoConversation {
  id: string;
  sessions: LocomoSession[];
  questions: LocomoQuestion[];
  /** Questions dropped because their evidence names no session. */
  dropped: number;
}

/** Parses "1:56 pm on 8 May, 2023" to ISO-8601 UTC, or null. */
export function parseLocomoDate(s: string): string | null {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i.exec(s);
  if (!m) return null;
  const mo = monthOfPrefix(m[5]!);
  if (mo === undefined) return null;
  const h = hour24(+m[1]! % 12, m[3]);
  return new Date(Date.UTC(+m[6]!, mo, +m[4]!, h, +m[2]!)).toISOString();
}

/** Gold session numbers of an evidence list: split on `[;,\s]+`, match `^D:?(\d+):(\d+)`. */
function goldSessions(evidence: readonly unknown[]): number[] {
  const out = new Set<number>();
  for (const e of evidence) {
    for (const part of String(e).split(/[;,\s]+/)) {
      const m = /^D:?(\d+):(\d+)/.exec(part);
      if (m) out.add(Number(m[1]));
    }
  }
  return [...out];
}

/** Reads a benchmark's `--data` file as JSON: PATH_NOT_FOUND / PERMISSION_DENIED, or INVALID_ARGUMENT. */
export function readDataFile(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code) throw fsError(e, path);
    throw createError('INVALID_ARGUMENT', {
      name: '--data',
      value: path,
      expected: `a JSON file (${(e as Error).message})`,
    });
  }
}

/** A conversation as the LoCoMo JSON file stores it (every field checked or coerced on read). */
interface RawConversation {
  sample_id?: unknown;
  conversation?: Record<string, unknown>;
  qa?: unknown;
}
interface RawTurn {
  speaker?: unknown;
  dia_id?: unknown;
  text?: unknown;
  blip_caption?: unknown;
}
interface RawQuestion {
  question?: unknown;
  category?: unknown;
  evidence?: unknown[];
}

/** Loads a LoCoMo-format file. Throws PATH_NOT_FOUND or INVALID_ARGUMENT with the reason. */
export function loadLocomo(path: string): LocomoConversation[] {
  const raw = readDataFile(path);
  if (!Array.isArray(raw)) {
    throw createError('INVALID_ARGUMENT', {
      name: '--data',
      value: path,
      expected: 'a JSON array of LoCoMo conversations',
    });
  }
  return raw.map((c: RawConversation, i) => {
    const conv = c['conversation'];
    if (!conv || !Array.isArray(c['qa'])) {
      throw createError('INVALID_ARGUMENT', {
        name: '--data',
        value: path,
        expected: `conversation ${i} to have "conversation" and "qa"`,
      });
    }
    const sessions: LocomoSession[] = [];
    for (let n = 1; Array.isArray(conv[`session_${n}`]); n++) {
      const dateText = String(conv[`session_${n}_date_time`] ?? '');
      sessions.push({
        n,
        dateText,
        date: parseLocomoDate(dateText),
        turns: (conv[`session_${n}`] as RawTurn[]).map((t) => ({
          speaker: String(t.speaker),
          diaId: String(t.dia_id),
          text: String(t.text ?? ''),
          ...(t.blip_caption ? { caption: String(t.blip_caption) } : {}),
        })),
      });
    }
    let dropped = 0;
    const questions: LocomoQuestion[] = [];
    for (const q of c['qa'] as RawQuestion[]) {
      const gold = goldSessions(q.evidence ?? []).filter((g) => g >= 1 && g <= sessions.length);
      if (gold.length === 0) {
        dropped++;
        continue;
      }
      questions.push({ question: String(q.question), category: Number(q.category), gold });
    }
    return { id: String(c['sample_id'] ?? `conv-${i + 1}`), sessions, questions, dropped };
  });
}

/** One turn as the protocol renders it. */
function renderTurn(t: LocomoTurn, captions: boolean): string {
  return `${t.speaker} said, "${t.text}"` + (captions && t.caption ? ` [shared a photo: ${t.caption}]` : '');
}

/** The session document (turns only) used by the baseline and as the body of the mined file. */
export function renderSession(s: LocomoSession, captions: boolean): string {
  return s.turns.map((t) => renderTurn(t, captions)).join('\n');
}
