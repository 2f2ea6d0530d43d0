/**
 * @module hooks/protocol
 * Claude Code's hook protocol as Loci uses it (reference: claude-code-interop.md A6): the events
 * Loci handles, tolerant parsing of the JSON Claude Code writes on stdin, and the JSON answers
 * written on stdout. Pure functions, node built-ins only (this module is on the hook fast path).
 */
import { countWords, createError, isSmallTalk } from './light-core.js';

/** The hook events Loci handles, as `loci hook <event>` spells them. */
export const HOOK_EVENTS = [
  'session-start',
  'user-prompt-submit',
  'stop',
  'pre-compact',
  'post-compact',
  'session-end',
] as const;

/** One of {@link HOOK_EVENTS}. */
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** Claude Code's name of each event (the settings key and `hookEventName`). */
export const HOOK_EVENT_NAMES: Readonly<Record<HookEvent, string>> = {
  'session-start': 'SessionStart',
  'user-prompt-submit': 'UserPromptSubmit',
  stop: 'Stop',
  'pre-compact': 'PreCompact',
  'post-compact': 'PostCompact',
  'session-end': 'SessionEnd',
};

/** Claude Code caps every hook output string at this many characters (A6 "Limits"). */
export const HOOK_OUTPUT_CHARS = 10_000;

/** True when `v` is one of {@link HOOK_EVENTS}. */
function isHookEvent(v: unknown): v is HookEvent {
  return typeof v === 'string' && (HOOK_EVENTS as readonly string[]).includes(v);
}

/** The event named `raw`, or throws HOOK_EVENT_UNKNOWN. Accepts Claude Code's names too (`SessionStart`). */
export function parseHookEvent(raw: string): HookEvent {
  if (isHookEvent(raw)) return raw;
  const byName = HOOK_EVENTS.find((e) => HOOK_EVENT_NAMES[e].toLowerCase() === raw.toLowerCase());
  if (byName) return byName;
  throw createError('HOOK_EVENT_UNKNOWN', { event: raw, expected: HOOK_EVENTS.join(', ') });
}

/**
 * What Loci reads from a hook's stdin. Every field is optional: a field that is missing or of the
 * wrong type is `undefined` (booleans: false), and unknown fields are ignored.
 */
export interface HookInput {
  /** `session_id`. */
  sessionId?: string;
  /** `transcript_path`: the session's JSONL transcript. */
  transcriptPath?: string;
  /** `cwd`: the working directory of the session. */
  cwd?: string;
  /** `hook_event_name`. */
  eventName?: string;
  /** SessionStart `source`: startup | resume | clear | compact | fork. */
  source?: string;
  /** UserPromptSubmit `prompt`. */
  prompt?: string;
  /** Stop `stop_hook_active`: true when the model is already continuing because of a Stop hook. */
  stopHookActive: boolean;
  /** PreCompact / PostCompact `trigger`: manual | auto. */
  trigger?: string;
  /** PostCompact `compact_summary`. */
  compactSummary?: string;
  /** SessionEnd `reason`. */
  reason?: string;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * Parses a hook's stdin. Tolerates a BOM, surrounding whitespace, and fields of unexpected types
 * (ignored); throws HOOK_INPUT_INVALID when the text is not a JSON object.
 */
export function parseHookInput(event: HookEvent, text: string): HookInput {
  const t = text.replace(/^\uFEFF/, '').trim();
  if (t === '') throw createError('HOOK_INPUT_INVALID', { event, reason: 'stdin was empty' });
  let j: unknown;
  try {
    j = JSON.parse(t);
  } catch (e) {
    // JSON.parse quotes the input: keep the reason one line and short.
    const reason = (e as Error).message.replace(/[\r\n\u2028\u2029]+/g, ' ');
    throw createError('HOOK_INPUT_INVALID', {
      event,
      reason: reason.length > 200 ? `${reason.slice(0, 199)}…` : reason,
    });
  }
  if (!j || typeof j !== 'object' || Array.isArray(j))
    throw createError('HOOK_INPUT_INVALID', { event, reason: `got ${Array.isArray(j) ? 'an array' : typeof j}` });
  const o = j as Record<string, unknown>;
  const input: HookInput = { stopHookActive: o['stop_hook_active'] === true || o['stop_hook_active'] === 'true' };
  const fields: [keyof HookInput, string][] = [
    ['sessionId', 'session_id'],
    ['transcriptPath', 'transcript_path'],
    ['cwd', 'cwd'],
    ['eventName', 'hook_event_name'],
    ['source', 'source'],
    ['prompt', 'prompt'],
    ['trigger', 'trigger'],
    ['compactSummary', 'compact_summary'],
    ['reason', 'reason'],
  ];
  for (const [key, wire] of fields) {
    const v = str(o[wire]);
    if (v !== undefined) (input as unknown as Record<string, unknown>)[key] = v;
  }
  return input;
}

/**
 * The session a `SessionStart` continues (`source` resume or compact): its own state is already in
 * the agent's context, so the wake-up leaves it out. Undefined for a new session (startup, clear).
 */
export function continuedSession(input: HookInput): string | undefined {
  return input.source === 'resume' || input.source === 'compact' ? input.sessionId : undefined;
}

/**
 * The stdout of a hook that adds context: `{"hookSpecificOutput":{"hookEventName":…,
 * "additionalContext":…}}`. Valid for SessionStart, UserPromptSubmit and Stop (A6); never for
 * PreCompact. Returns '' when `text` is empty (no output is the "nothing to add" answer).
 */
export function contextAnswer(event: 'session-start' | 'user-prompt-submit' | 'stop', text: string): string {
  if (!text) return '';
  return JSON.stringify({ hookSpecificOutput: { hookEventName: HOOK_EVENT_NAMES[event], additionalContext: text } });
}

/**
 * True for prompts recall skips: empty, slash commands (`/clear`, `/compact …`), shell escapes
 * (`!ls`), memory shortcuts (`#…`), one-word prompts ("thanks", "continue", "yes", "好的") —
 * words counted in any script (`countWords`: a Chinese or Japanese prompt without spaces is not
 * one word) — and small talk that names no topic ("ok thanks", "sounds good, go ahead", "what's
 * next?": `isSmallTalk`), for which a search finds only noise.
 */
export function isTrivialPrompt(prompt: string | undefined): boolean {
  const p = (prompt ?? '').trim();
  if (p === '') return true;
  if (/^[/!#]/.test(p)) return true;
  return countWords(p) < 2 || isSmallTalk(p);
}
