/**
 * @module search/time-cues
 * Finds time expressions in a query ("on 8 May, 2023", "in July 2022", "in 2022", "last week",
 * "yesterday") and turns them into intervals, so ranking can favour drawers said then.
 * Absolute forms are read as UTC calendar intervals; relative forms are resolved against `now`.
 */
import { DAY_MS as DAY, MONTH_NAME as MONTH_RE, monthOfPrefix } from '../text/index.js';

/** A time interval named by the query: [start, end) in ms since the epoch (UTC). */
interface TimeCue {
  start: number;
  end: number;
  /** The words of the query that named it. */
  text: string;
}

const month = (m: string) => monthOfPrefix(m) ?? -1;

/** `digits`: the pattern cannot match a query without a digit (skipped then: its regex is not even compiled). */
const PATTERNS: {
  re: RegExp;
  digits?: true;
  make: (m: RegExpExecArray, now: number) => [number, number] | null;
}[] = [
  // 8 May, 2023 / 8th of May 2023
  {
    re: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH_RE}\\.?,?\\s*(\\d{4})\\b`, 'gi'),
    digits: true,
    make: (m) => day(+m[3]!, month(m[2]!), +m[1]!),
  },
  // May 8, 2023
  {
    re: new RegExp(`\\b${MONTH_RE}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s*(\\d{4})\\b`, 'gi'),
    digits: true,
    make: (m) => day(+m[3]!, month(m[1]!), +m[2]!),
  },
  // 2023-05-08
  { re: /\b((?:19|20)\d{2})-(\d{2})-(\d{2})\b/g, digits: true, make: (m) => day(+m[1]!, +m[2]! - 1, +m[3]!) },
  // May 2023
  {
    re: new RegExp(`\\b${MONTH_RE}\\.?,?\\s+(\\d{4})\\b`, 'gi'),
    digits: true,
    make: (m) => [Date.UTC(+m[2]!, month(m[1]!), 1), Date.UTC(+m[2]!, month(m[1]!) + 1, 1)],
  },
  // in 2022 / during 2022
  {
    re: /\b(?:in|during|of|since|from|by)\s+((?:19|20)\d{2})\b/gi,
    digits: true,
    make: (m) => [Date.UTC(+m[1]!, 0, 1), Date.UTC(+m[1]! + 1, 0, 1)],
  },
  // yesterday / today
  { re: /\byesterday\b/gi, make: (_m, now) => dayOf(now - DAY) },
  { re: /\btoday\b/gi, make: (_m, now) => dayOf(now) },
  // last week / last month / last year
  {
    re: /\blast\s+(week|month|year)\b/gi,
    make: (m, now) => {
      const unit = m[1]!.toLowerCase();
      const span = unit === 'week' ? 7 * DAY : unit === 'month' ? 31 * DAY : 366 * DAY;
      return [now - 2 * span, now - span / 2];
    },
  },
  // N days/weeks ago
  {
    re: /\b(\d{1,3})\s+(day|week|month)s?\s+ago\b/gi,
    digits: true,
    make: (m, now) => {
      const span = m[2]!.toLowerCase() === 'day' ? DAY : m[2]!.toLowerCase() === 'week' ? 7 * DAY : 30 * DAY;
      const t = now - +m[1]! * span;
      return [t - span, t + span];
    },
  },
];

function day(y: number, mo: number, d: number): [number, number] | null {
  if (mo < 0 || d < 1 || d > 31) return null;
  const t = Date.UTC(y, mo, d);
  return [t, t + DAY];
}

function dayOf(t: number): [number, number] {
  const s = Math.floor(t / DAY) * DAY;
  return [s, s + DAY];
}

/** Finds time cues in `query` (longest forms first; overlapping matches are ignored). */
export function parseTimeCues(query: string, now: number = Date.now()): TimeCue[] {
  const out: TimeCue[] = [];
  const used: [number, number][] = [];
  const digits = /\d/.test(query);
  for (const p of PATTERNS) {
    if (p.digits && !digits) continue;
    p.re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = p.re.exec(query)) !== null) {
      const a = m.index;
      const b = a + m[0].length;
      if (used.some(([x, y]) => a < y && x < b)) continue;
      const iv = p.make(m, now);
      if (!iv) continue;
      used.push([a, b]);
      out.push({ start: iv[0], end: iv[1], text: m[0] });
    }
  }
  return out;
}

/** The query with the words of its time cues removed (they are matched by date, not by words). */
export function stripTimeCues(query: string, cues: readonly TimeCue[]): string {
  let q = query;
  for (const c of cues) q = q.replace(c.text, ' ');
  return q;
}

/**
 * How close `dateIso` is to the nearest cue: 1 inside an interval, decaying as
 * exp(-distance / tau) outside. 0 when the date is unknown or there are no cues.
 * @param tauDays decay constant in days. Default 10: a drawer said ten days after the named
 *   day keeps ~37 % of the boost (events are often told a few days after they happen).
 */
export function timeProximity(dateIso: string | null, cues: readonly TimeCue[], tauDays = 10): number {
  if (!dateIso || cues.length === 0) return 0;
  const t = Date.parse(dateIso);
  if (Number.isNaN(t)) return 0;
  let best = 0;
  for (const c of cues) {
    const dist = t < c.start ? c.start - t : t >= c.end ? t - c.end : 0;
    best = Math.max(best, Math.exp(-dist / (tauDays * DAY)));
  }
  return best;
}
