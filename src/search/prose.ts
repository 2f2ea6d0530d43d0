/**
 * @module search/prose
 * Prose versus tool text in conversation drawers. Agent transcripts store tool calls as one-line
 * `[Name] …` / `[Name args]` strings and tool results as `→ …` lines (see
 * `ingest/convos/tool-lines`). A query word found only in a file dump or a command's output is
 * weaker evidence that the exchange is about it than the same word said by the user or the
 * assistant: {@link proseShare} measures how much of a drawer's match comes from prose, so that
 * hybrid search can discount the rest.
 */
import { tokenize } from '../text/index.js';

/** A tool call line (`[Bash] npm test`, `[Read src/a.ts]`) or result line (`→ …`), after an optional speaker label. */
const TOOL_LINE =
  /^(?:(?:User|Assistant|Human|AI|Model|Gemini|Codex|Claude): )?(?:→|\[[A-Za-z][\w.:-]{0,40}(?:\]| [^\]\n]{0,300}\]))/;

/** Splits a drawer's text into its prose and its tool lines; `tool` is '' when there are none. */
export function splitProse(text: string): { prose: string; tool: string } {
  if (!text.includes('→') && !text.includes('[')) return { prose: text, tool: '' };
  const prose: string[] = [];
  const tool: string[] = [];
  for (const line of text.split('\n')) (TOOL_LINE.test(line) ? tool : prose).push(line);
  return { prose: prose.join('\n'), tool: tool.join('\n') };
}

const K1 = 1.2;
const sat = (tf: number) => tf / (tf + K1);

/**
 * The share of a drawer's match on `tokens` that a reader would keep if words in tool lines
 * counted `toolWeight` times as much as words in prose: Σ idf·sat(tf_prose + w·tf_tool) /
 * Σ idf·sat(tf_prose + tf_tool), in [toolWeight, 1] (1 for a drawer without tool lines or
 * without matches). `idf` weighs the query tokens (missing ones weigh 1).
 */
export function proseShare(
  text: string,
  tokens: readonly string[],
  idf: ReadonlyMap<string, number>,
  toolWeight: number,
): number {
  return matchProfile(text, tokens, idf, toolWeight, false).share;
}

/**
 * {@link proseShare} and the coverage of the query: the idf-weighted share of the query tokens
 * the drawer contains at all (words in tool lines count `toolWeight` of a word in prose).
 */
export function matchProfile(
  text: string,
  tokens: readonly string[],
  idf: ReadonlyMap<string, number>,
  toolWeight: number,
  withCoverage = true,
): { share: number; coverage: number } {
  const { prose, tool } = toolWeight >= 1 ? { prose: text, tool: '' } : splitProse(text);
  // Without tool lines the share is 1: tokenise only when coverage is asked for.
  if (tool === '' && !withCoverage) return { share: 1, coverage: 1 };
  const want = new Set(tokens);
  const count = (s: string) => {
    const m = new Map<string, number>();
    for (const t of tokenize(s)) if (want.has(t)) m.set(t, (m.get(t) ?? 0) + 1);
    return m;
  };
  const p = count(prose);
  const q = tool === '' ? new Map<string, number>() : count(tool);
  let full = 0;
  let kept = 0;
  let all = 0;
  let covered = 0;
  for (const t of want) {
    const w = idf.get(t) ?? 1;
    all += w;
    const a = p.get(t) ?? 0;
    const b = q.get(t) ?? 0;
    if (a + b === 0) continue;
    covered += w * (a > 0 ? 1 : toolWeight);
    full += w * sat(a + b);
    kept += w * sat(a + toolWeight * b);
  }
  return { share: full > 0 ? kept / full : 1, coverage: all > 0 ? covered / all : 1 };
}

/** A question asking for a reason ("why …", "how come …", "what was the reason …"). */
const WHY_QUERY = /\b(?:why|how come|what (?:was|is|were) the (?:reason|cause)|reasons? (?:for|behind))\b/i;
/** Words that introduce an explanation in English prose. */
const EXPLANATION = new RegExp(
  String.raw`\b(?:because|since|so that|due to|the reason|that's why|which is why|in order to|otherwise|` +
    String.raw`caused by|the (?:issue|problem|cause) (?:is|was)|this means|means that|rather than|instead of)\b`,
  'i',
);

/** Whether `query` asks why. */
export function asksWhy(query: string): boolean {
  return WHY_QUERY.test(query);
}

/** Whether the prose of a drawer (tool lines left out) gives a reason. */
export function explains(text: string): boolean {
  return EXPLANATION.test(splitProse(text).prose);
}
