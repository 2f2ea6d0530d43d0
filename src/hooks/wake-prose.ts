/**
 * @module hooks/wake-prose
 * What of a stored conversation is worth reading at session start: the words people said, not the
 * tools' output. Pure functions over drawer text as the conversation miner writes it
 * (`User: …` / `Assistant: …` turns, tool calls as `[Bash] …` / `[Read path]`, tool results as
 * `→ …`, see `ingest/convos/tool-lines.ts`).
 *
 * - {@link proseLines}: the lines a person or the assistant wrote — tool calls, tool results,
 *   numbered file dumps (`12→…`), JSON records, fenced code and markup are dropped.
 * - {@link decisionSentences}: sentences that state a decision or a standing preference, chosen
 *   conservatively (strong first-person phrasing only: "we decided", "let's go with", "I prefer",
 *   "always use", "from now on"); a preference must come from the user, and a sentence must look
 *   like it is about the work (a technical cue: a code span, a path, a tool or programming word).
 *   A poem about curry is not a preference of a coding project.
 * - {@link isBoilerplate}: compaction preambles and templates that describe the format, not the work;
 *   a text holding one gives no decision at all.
 */

/** A line of prose and who said it. */
export interface ProseLine {
  speaker: 'user' | 'assistant' | null;
  text: string;
}

const TOOL_CALL = /^\[[A-Z][\w.:-]*(?:\]| [^\]]*\])/;
const NUMBERED_DUMP = /^\s*\d+\s*(?:→|\t|:)/;
const JSONISH = /^\s*[{[]\s*["{[]/;
const MARKUP = /^\s*<\/?[a-z][\w-]*[\s>]/i;

/**
 * The prose lines of a drawer's text, speaker prefixes removed. `speaker` is who talks at the start
 * (a continuation part of an exchange starts mid-turn).
 */
export function proseLines(text: string, speaker: ProseLine['speaker'] = null): ProseLine[] {
  const out: ProseLine[] = [];
  let who = speaker;
  let fenced = false;
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    let line = raw.trimEnd();
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    const m = /^(User|Human|Assistant|AI|Model|Gemini|Codex):\s?(.*)$/.exec(line);
    if (m) {
      who = /^(User|Human)$/.test(m[1]!) ? 'user' : 'assistant';
      line = m[2]!;
    }
    const t = line.trim();
    if (!t) continue;
    if (t.startsWith('→') || TOOL_CALL.test(t) || NUMBERED_DUMP.test(t) || JSONISH.test(t) || MARKUP.test(t)) continue;
    if (/^[-=*_|:\s]{3,}$/.test(t)) continue; // rules and table separators
    out.push({ speaker: who, text: t });
  }
  return out;
}

/** Boilerplate of compaction summaries and prompt templates (format, not content). */
const BOILERPLATE = [
  /^(summary:\s*)?this session is being continued from a previous conversation/i,
  /^if you need specific details from before compaction/i,
  /^please continue the conversation from where we left/i,
  /^your task is to create a detailed summary/i,
  /^(analysis|summary):\s*$/i,
  /^let me chronologically analy[sz]e/i,
];

/** True for a line that is compaction or prompt-template boilerplate. */
export function isBoilerplate(line: string): boolean {
  const t = line.trim();
  return BOILERPLATE.some((r) => r.test(t));
}

/** Splits prose into sentences (Latin and CJK end marks). */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?。！？])\s+|(?<=[。！？])/u)
    .map((s) => s.trim())
    .filter(Boolean);
}

const DECISION = [
  /\b(we|i|they|the team)( have|'ve)? (decided|agreed|chose|settled on|went with|are going with|will go with)\b/i,
  /\blet'?s (go with|use|stick with|keep|switch to|drop)\b/i,
  /\b(decision|decided)\s*[:—-]/i,
  /\bwe('ll| will) (use|go with|keep|switch to)\b/i,
];
const PREFERENCE = [
  /\bi('d| would) rather\b/i,
  /\bi (really )?(prefer|want you to|don't want|do not want|like it when)\b/i,
  /\b(always|never) (use|run|commit|push|write|add|put|call)\b/i,
  /\b(don't|do not) (use|add|commit|push|run)\b/i,
  /\bfrom now on\b/i,
];
/** A cue that a sentence is about software work. */
const TECHNICAL =
  /`[^`]+`|[\w-]+\/[\w./-]+|\.\w{1,5}\b|\b(code|test|tests|commit|branch|repo|build|deploy|api|server|client|database|db|schema|config|file|folder|function|class|module|package|library|dependency|script|command|cli|hook|docker|git|npm|pnpm|yarn|pip|cargo|mix|python|typescript|javascript|rust|elixir|go|sql|css|html|ui|endpoint|plugin|env|port|bug|error|log|lint|type|types|component|service|connector|model|prompt|agent|mcp|docs?)\b/i;

/** A sentence stating a decision or preference, with its kind. */
export interface DecisionSentence {
  kind: 'decision' | 'preference';
  speaker: ProseLine['speaker'];
  text: string;
}

/**
 * Decision and preference sentences of prose lines (see the module comment): at most `max`, each
 * 20–300 characters, in order of appearance.
 */
export function decisionSentences(lines: readonly ProseLine[], max = 3): DecisionSentence[] {
  const out: DecisionSentence[] = [];
  if (lines.some((l) => isBoilerplate(l.text))) return out; // a template or a compaction preamble
  for (const l of lines) {
    for (const s of sentences(l.text)) {
      if (s.length < 20 || s.length > 300 || s.endsWith('?')) continue;
      if (!TECHNICAL.test(s)) continue;
      const kind = DECISION.some((r) => r.test(s)) ? 'decision' : l.speaker === 'user' && PREFERENCE.some((r) => r.test(s)) ? 'preference' : null;
      if (!kind) continue;
      out.push({ kind, speaker: l.speaker, text: s });
      if (out.length >= max) return out;
    }
  }
  return out;
}

/** Joins prose lines into one paragraph of at most `max` characters, cut at a word. */
export function joinProse(lines: readonly ProseLine[], max: number): string {
  const text = lines.map((l) => l.text).join(' ').replace(/\s+/g, ' ').trim();
  if (text.length <= max) return text;
  const slice = text.slice(0, Math.max(1, max - 1));
  const sp = slice.lastIndexOf(' ');
  return `${(sp > max / 2 ? slice.slice(0, sp) : slice).trimEnd()}…`;
}

/**
 * The prose of a final turn within `max` characters: whole when it fits, else its opening (the
 * gist, about a third) and its end (whole sentences: results, questions, next steps).
 */
export function finalProse(lines: readonly ProseLine[], max: number): string {
  const text = lines.map((l) => l.text).join(' ').replace(/\s+/g, ' ').trim();
  if (text.length <= max) return text;
  const head = joinProse(lines, Math.floor(max / 3));
  return `${head.replace(/…$/, '')} …${tailProse(lines, max - head.length - 2).replace(/^…/, '')}`;
}

/** The last prose of a turn, up to `max` characters (whole sentences from the end when possible). */
export function tailProse(lines: readonly ProseLine[], max: number): string {
  const text = lines.map((l) => l.text).join(' ').replace(/\s+/g, ' ').trim();
  if (text.length <= max) return text;
  const parts = sentences(text);
  let out = '';
  for (let i = parts.length - 1; i >= 0; i--) {
    const next = out ? `${parts[i]} ${out}` : parts[i]!;
    if (next.length + 1 > max) break;
    out = next;
  }
  return out ? `…${out}` : `…${text.slice(text.length - max + 1).replace(/^\S*\s/, '')}`;
}
