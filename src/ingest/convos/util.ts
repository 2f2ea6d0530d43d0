/**
 * @module ingest/convos/util
 * Small shared helpers of the conversation parsers: timestamps, truncation, warnings, JSON access.
 */
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import type { ParseOptions } from './types.js';

/** A JSON object. */
export type Json = Record<string, unknown>;

/** True for a plain JSON object (not an array, not null). */
export function isObj(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `v` when it is a non-empty string, else undefined. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

const MIN_MS = Date.UTC(1990, 0, 1);
const MAX_MS = Date.UTC(2200, 0, 1);
// Canonical UTC with a day that exists in every month (29–31 and other forms take the general path).
const CANONICAL = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|1\d|2[0-8])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;

/** ISO-8601 UTC for epoch milliseconds, or null when out of a plausible range (1990–2200). */
function isoFromMs(ms: number | undefined): string | null {
  if (ms === undefined || !Number.isFinite(ms) || ms < MIN_MS || ms > MAX_MS) return null;
  return new Date(ms).toISOString();
}

/** ISO-8601 for epoch seconds (fractions allowed, e.g. ChatGPT `create_time`, Slack `ts`). */
export function isoFromSeconds(s: number | string | undefined): string | null {
  const n = typeof s === 'string' ? Number(s) : s;
  if (n === undefined || !Number.isFinite(n)) return null;
  return isoFromMs(Math.floor(n * 1000));
}

/**
 * Normalises a timestamp of unknown shape: ISO strings (re-emitted in UTC `Z` form), epoch numbers
 * (seconds below 1e11, else milliseconds). Strings without a zone are read as UTC.
 */
export function normIso(v: unknown): string | null {
  if (typeof v === 'number') return v < 1e11 ? isoFromSeconds(v) : isoFromMs(v);
  if (typeof v !== 'string' || v.length < 8) return null;
  // Fast path: already canonical (`2025-06-12T09:30:07.000Z`, what most agent logs write).
  if (v.length === 24 && CANONICAL.test(v)) {
    const ms = Date.parse(v);
    return ms >= MIN_MS && ms <= MAX_MS ? v : null;
  }
  if (/^\d+(\.\d+)?$/.test(v)) return normIso(Number(v));
  const hasZone = /(?:Z|[+-]\d{2}:?\d{2})$/i.test(v);
  const withZone = hasZone || !/T|\d \d/.test(v) ? v : `${v.replace(' ', 'T')}Z`;
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(withZone) ? `${withZone}T00:00:00Z` : withZone);
  return Number.isNaN(ms) ? null : isoFromMs(ms);
}

/**
 * Cuts `s` to at most `n` characters, never splitting a surrogate pair, appending `…` when cut.
 * `n <= 0` gives ''.
 */
export function truncate(s: string, n: number): string {
  if (n <= 0) return '';
  if (s.length <= n) return s;
  let end = n;
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return `${s.slice(0, end)}…`;
}

/** Collapses line breaks (with their surrounding blanks) into ` ⏎ ` so a rendering stays on one line. */
export function oneLine(s: string): string {
  return s.replace(/[ \t]*\r?\n[ \t\r\n]*/g, ' ⏎ ').trim();
}

/** First 16 hex chars of SHA-256 of `s` (ids derived from paths or content). */
export function shortHash(s: string): string {
  return createHash('sha256').update(s).digest('hex').slice(0, 16);
}

/** File name without directory and (last) extension. */
export function stem(path: string): string {
  return basename(path).replace(/\.[^.]+$/, '');
}

/** Longest warning kept, in characters (a longer one is cut and ends with "…"). */
const WARNING_CHARS = 500;

/** A warning as one line of at most {@link WARNING_CHARS} characters: parser messages may quote raw input. */
function oneLineWarning(msg: string): string {
  const s = msg.replace(/[\r\n\u2028\u2029]+/g, ' ');
  return s.length > WARNING_CHARS ? `${s.slice(0, WARNING_CHARS - 1)}…` : s;
}

/** Collects warnings, listing the first `max` and counting the rest. */
export class Warnings {
  readonly list: string[] = [];
  private dropped = 0;
  private readonly counts = new Map<string, number>();
  constructor(private readonly max = 50) {}
  /** Adds one warning (made one line, see {@link oneLineWarning}). */
  add(msg: string): void {
    if (this.list.length < this.max) this.list.push(oneLineWarning(msg));
    else this.dropped++;
  }
  /** Counts an occurrence of a repeated condition, reported once by `finish` (e.g. an unknown type). */
  count(key: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
  /** The final list. */
  finish(): string[] {
    const out = [...this.list];
    for (const [k, n] of this.counts) out.push(`${oneLineWarning(k)} (${n}×)`);
    if (this.dropped > 0) out.push(`… and ${this.dropped} more warnings`);
    return out;
  }
}

/** Resolved parse options with defaults applied. */
export interface Resolved {
  toolResultChars: number;
  toolInputChars: number;
  includeBranches: boolean;
  firstLine: number;
  resolveSidecar: ((name: string) => string | undefined) | undefined;
  resolveSlackUser: ((id: string) => string | undefined) | undefined;
  maxWarnings: number;
}

function clamp(v: number | undefined, def: number, lo: number, hi: number): number {
  if (v === undefined || !Number.isFinite(v)) return def;
  return Math.min(hi, Math.max(lo, Math.floor(v)));
}

/** Applies defaults (and clamps ranges) of {@link ParseOptions}. */
export function resolveOptions(o: ParseOptions | undefined): Resolved {
  return {
    toolResultChars: clamp(o?.toolResultChars, 300, 0, 100_000),
    toolInputChars: clamp(o?.toolInputChars, 200, 20, 100_000),
    includeBranches: o?.includeBranches ?? true,
    firstLine: clamp(o?.firstLine, 1, 1, Number.MAX_SAFE_INTEGER),
    resolveSidecar: o?.resolveSidecar,
    resolveSlackUser: o?.resolveSlackUser,
    maxWarnings: clamp(o?.maxWarnings, 50, 0, 100_000),
  };
}

/**
 * The list of conversations of an export file: a JSON array, `{ conversations: [...] }`, or a single
 * object (a one-element list). Invalid JSON gives null and a warning.
 */
export function exportList(content: string, w: Warnings): unknown[] | null {
  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch (e) {
    w.add(`not valid JSON (${(e as Error).message}) — a truncated export? nothing read`);
    return null;
  }
  if (Array.isArray(data)) return data;
  if (isObj(data) && Array.isArray(data.conversations)) return data.conversations;
  return [data];
}

/** Parses JSON, returning undefined instead of throwing. */
export function tryJson(s: string): unknown {
  try {
    return JSON.parse(s) as unknown;
  } catch {
    return undefined;
  }
}

/** The text of a string, or of an array of `{type:'text', text}` blocks / strings, joined by newlines. */
export function textOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) {
    const parts: string[] = [];
    for (const b of v) {
      if (typeof b === 'string') parts.push(b);
      else if (isObj(b) && typeof b.text === 'string') parts.push(b.text);
    }
    return parts.join('\n');
  }
  if (isObj(v) && typeof v.text === 'string') return v.text;
  return '';
}
