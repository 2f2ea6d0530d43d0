/**
 * @module ingest/convos/chat-lines
 * Line classification of plain-text / markdown chat logs, and the detection rule.
 *
 * A line (after an optional `[timestamp]` / `HH:MM` prefix) is one of:
 * - `speaker`: `Name: text` where Name is 1–3 capitalised words (any script; `'`, `’`, `.`, `-`
 *   allowed inside, optionally `**bold**`), not a common label (see {@link NOT_SPEAKERS});
 *   `Name said, "text"` (also says/asked/replied/wrote); role labels `Human:`, `User:`, `Me:`,
 *   `You:`, `Assistant:`, `AI:`, `Bot:`, `Model:` and AI names (`Claude:`, `ChatGPT:`, `Gemini:`,
 *   `Copilot:`, `GPT-4:`…) → role user/assistant; `You said:` / `ChatGPT said:` with the text on the
 *   following lines;
 * - `quote`: `> text` (MemPalace-style user turns);
 * - `date`: a date header — `# 2023-05-08`, `## May 8, 2023`, `Date: …`, `**8 May 2023**`, or a line
 *   that is only a date (formats in chat-dates);
 * - `heading` (other `#` lines), `separator` (`---`, `***`, `___`), `fence` (```), `blank`, `text`.
 *
 * Detection (`looksLikeChat`, on the first 64 KiB): a chat when either
 * - ≥ 3 runs of `>` lines alternate with ≥ 2 runs of other text (quote style), or
 * - ≥ 2 distinct speakers, ≥ 2 speaker lines, and speaker lines are the majority of the content
 *   lines or of the paragraph-opening lines — or, for role labels (`Human:`/`Assistant:`, `User:`/`AI:`)
 *   with both roles present, at least a quarter of the paragraph-opening lines; with ≥ 4 speaker
 *   lines, at least two speakers must speak twice (a list of `Label: value` lines is not a dialogue).
 * Lines inside code fences are ignored.
 */
import { parseDatePrefix, parseTime, type DateTimeParts } from './chat-dates.js';

/** Words that end with `:` in documents but are not speakers (lower-cased). */
const NOT_SPEAKERS: ReadonlySet<string> = new Set(
  (
    'note notes nb ps warning warnings error errors todo fixme hack example examples usage step date time version ' +
    'author authors ' +
    'title subject from to cc bcc re status summary description type name tags tag source output input result ' +
    'results returns ' +
    'return args arguments parameters params answer question fix bug issue update edit tip important caution info ' +
    'priority ' +
    'owner location attendees agenda action actions decision decisions goal goals context problem solution pros ' +
    'cons link links ' +
    'url email phone address reference references category language license default required optional total price ' +
    'cost ' +
    'duration level mode format path file files command response request body header headers query host port added ' +
    'fixed ' +
    'changed removed deprecated security performance features feature breaking changes change see also done next ' +
    'steps ' +
    'next steps action items key points outcome outcomes risk risks owner due deadline example usage q a'
  )
    .split(' ')
    .filter(Boolean),
);

const USER_LABELS = new Set(['human', 'user', 'me', 'you']);
const ASSISTANT_LABELS = new Set(['assistant', 'ai', 'bot', 'model']);
const AI_NAMES = /^(claude|chatgpt|gpt(?:-?\d[\w.-]*)?|gemini|copilot|llama|mistral|codex)$/i;

const NAME = "[\\p{Lu}][\\p{L}\\p{M}'’.\\-]*(?:\\s[\\p{Lu}][\\p{L}\\p{M}'’.\\-]*){0,2}";
const SPEAKER_RE = new RegExp(`^(?:\\*\\*)?(${NAME}|GPT-[\\w.]+)(?:\\*\\*)?\\s*:(?:\\*\\*)?(?:\\s+(.*))?$`, 'u');
const SAID_RE = new RegExp(
  `^(${NAME})\\s+(?:said|says|asked|asks|replied|replies|wrote|writes)\\s*[,:]?\\s*["“](.*)["”]\\s*$`,
  'u',
);
const SAID_BLOCK_RE = /^(You|ChatGPT|Claude|Gemini|Copilot)\s+said:\s*$/;
const TIME_PREFIX =
  /^\s*(?:\[([^\]\n]{3,40})\]|(\d{1,2}:\d{2}(?::\d{2})?(?:\s?[AaPp]\.?[Mm]\.?)?)(?=\s))\s*(?:[-–—|]\s+)?/;

/** A classified line. */
type ChatLine =
  | { t: 'blank' }
  | { t: 'fence' }
  | { t: 'separator' }
  | { t: 'date'; parts: DateTimeParts }
  | { t: 'heading'; text: string }
  | { t: 'quote'; text: string; stamp: Stamp }
  | { t: 'speaker'; speaker: string; role: 'user' | 'assistant'; text: string; stamp: Stamp }
  | { t: 'text'; stamp: Stamp };

/** A timestamp prefix read from a line: full date-time, a bare time, or nothing. */
export type Stamp = { full?: DateTimeParts; time?: { h: number; mi: number; s?: number }; raw?: string } | null;

function readStamp(line: string): { stamp: Stamp; rest: string } {
  const m = TIME_PREFIX.exec(line);
  if (!m) return { stamp: null, rest: line };
  const raw = (m[1] ?? m[2])!;
  const rest = line.slice(m[0].length);
  const dt = parseDatePrefix(raw);
  if (dt && dt.length >= raw.trim().length - 1) return { stamp: { full: dt.parts, raw: m[0] }, rest };
  const t = parseTime(raw);
  if (t) return { stamp: { time: t, raw: m[0] }, rest };
  return { stamp: null, rest: line };
}

function speakerOf(label: string): { speaker: string; role: 'user' | 'assistant' } | null {
  const clean = label.trim();
  const low = clean.toLowerCase();
  if (USER_LABELS.has(low)) return { speaker: 'user', role: 'user' };
  if (ASSISTANT_LABELS.has(low)) return { speaker: 'assistant', role: 'assistant' };
  if (AI_NAMES.test(clean)) return { speaker: clean, role: 'assistant' };
  if (NOT_SPEAKERS.has(low)) return null;
  return { speaker: clean, role: 'user' };
}

function dateHeader(s: string): DateTimeParts | null {
  let body = s.trim();
  const h = /^#{1,6}\s+(.*)$/.exec(body);
  const label = /^(?:date|session date|when|day)\s*:\s*(.*)$/i.exec(body);
  const bold = /^\*\*(.+?)\*\*:?$/.exec(body);
  const marked = Boolean(h || label || bold);
  if (h) body = h[1]!;
  else if (label) body = label[1]!;
  else if (bold) body = bold[1]!;
  body = body.replace(/^\*\*|\*\*$/g, '').trim();
  const dt = parseDatePrefix(body);
  if (!dt) return null;
  const rest = body.slice(dt.length).trim();
  // A marked header may carry a short trailing label ("# 2023-05-08 standup"); a bare line must be only a date.
  if (rest && (!marked || rest.length > 60)) return null;
  return dt.parts;
}

/** Classifies one line (outside code fences). */
function classifyLine(line: string): ChatLine {
  if (line.trim() === '') return { t: 'blank' };
  if (/^\s*```/.test(line)) return { t: 'fence' };
  if (/^\s*(?:-{3,}|\*{3,}|_{3,})\s*$/.test(line)) return { t: 'separator' };
  const date = dateHeader(line);
  if (date) return { t: 'date', parts: date };
  const h = /^#{1,6}\s+(.*)$/.exec(line);
  if (h) return { t: 'heading', text: h[1]!.trim() };
  const { stamp, rest } = readStamp(line);
  const q = /^>\s?(.*)$/.exec(rest);
  if (q) return { t: 'quote', text: q[1]!, stamp };
  const block = SAID_BLOCK_RE.exec(rest);
  if (block) {
    const sp = speakerOf(block[1]!)!;
    return { t: 'speaker', ...sp, text: '', stamp };
  }
  const said = SAID_RE.exec(rest);
  if (said) {
    const sp = speakerOf(said[1]!);
    if (sp) return { t: 'speaker', ...sp, text: said[2]!, stamp };
  }
  const s = SPEAKER_RE.exec(rest);
  if (s && (s[2] ?? '').trim() !== '') {
    const sp = speakerOf(s[1]!);
    if (sp) return { t: 'speaker', ...sp, text: s[2]!.trim(), stamp };
  }
  return { t: 'text', stamp };
}

/** Classifies every line, marking lines inside code fences as plain text. */
export function classifyLines(lines: readonly string[]): ChatLine[] {
  const out: ChatLine[] = [];
  let fence = false;
  for (const l of lines) {
    const c = classifyLine(l);
    if (c.t === 'fence') {
      fence = !fence;
      out.push(c);
    } else out.push(fence ? { t: 'text', stamp: null } : c);
  }
  return out;
}

/** Detection statistics and verdict. */
interface ChatVerdict {
  chat: boolean;
  style: 'quote' | 'labels';
}

/** The detection rule of the module comment. */
export function looksLikeChat(lines: readonly string[]): ChatVerdict {
  const cls = classifyLines(lines);
  let content = 0;
  let speakerLines = 0;
  let paraStarts = 0;
  let paraSpeaker = 0;
  let quoteRuns = 0;
  let textRuns = 0;
  let prev: ChatLine['t'] | null = null;
  let fence = false;
  const speakers = new Map<string, number>();
  const roles = { user: 0, assistant: 0 };
  for (const c of cls) {
    if (c.t === 'fence') fence = !fence;
    if (fence || c.t === 'fence') {
      prev = 'text';
      continue;
    }
    if (c.t === 'blank' || c.t === 'separator' || c.t === 'date' || c.t === 'heading') {
      prev = c.t === 'blank' || c.t === 'separator' ? 'blank' : c.t;
      continue;
    }
    content++;
    const starts = prev === null || prev === 'blank' || prev === 'date' || prev === 'heading';
    if (starts) paraStarts++;
    if (c.t === 'speaker') {
      speakerLines++;
      if (starts) paraSpeaker++;
      speakers.set(c.speaker, (speakers.get(c.speaker) ?? 0) + 1);
      if (c.speaker === 'user' || c.speaker === 'assistant') roles[c.speaker]++;
    }
    if (c.t === 'quote' && prev !== 'quote') quoteRuns++;
    if (c.t !== 'quote' && (prev === 'quote' || (prev === 'blank' && quoteRuns > 0))) textRuns++;
    prev = c.t === 'quote' ? 'quote' : 'text';
  }
  if (quoteRuns >= 3 && textRuns >= 2 && quoteRuns * 2 >= speakerLines) return { chat: true, style: 'quote' };
  const repeaters = [...speakers.values()].filter((n) => n >= 2).length;
  const majority = speakerLines * 2 > content || (paraStarts > 0 && paraSpeaker * 2 > paraStarts);
  // Role labels (Human:/Assistant:, User:/AI:) are strong evidence: both roles and a quarter of the paragraphs suffice.
  const roleChat = roles.user > 0 && roles.assistant > 0 && (roles.user + roles.assistant) * 4 >= paraStarts;
  const chat =
    speakers.size >= 2 && speakerLines >= 2 && (majority || roleChat) && (speakerLines < 4 || repeaters >= 2);
  return { chat, style: 'labels' };
}
