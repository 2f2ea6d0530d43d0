/**
 * @module context/summarise
 * Summarisers for compaction. A summariser is a port: it receives the running summary (if any),
 * only the messages added since the last compaction, and the user's instructions, and returns the
 * merged summary. Two implementations: `llmSummariser` (one `complete()` call on an LLM provider
 * with a compaction prompt, falling back to the extractive one on failure) and
 * `extractiveSummariser` (deterministic, no model: the prompts, the answers' first lines, the tool
 * calls and the persisted paths, within a size limit).
 */
import { createError } from '../core/errors.js';
import type { AgentMessage, LlmProvider } from '../providers/index.js';
import { blocksOf, clip, renderTranscript } from './messages.js';

/** What a summariser is asked. */
export interface SummaryRequest {
  /** The running summary from earlier compactions (merge into it). Undefined at the first compaction. */
  previousSummary?: string;
  /** Only the messages added since the last compaction, oldest first. */
  messages: readonly AgentMessage[];
  /** The user's instructions (`/compact focus on the migration`). */
  instructions?: string;
  /** Full tool outputs on disk that the replaced messages refer to. */
  persistedPaths: readonly string[];
  /**
   * The session's running notes (issue 14's session notes: current state, task, files, errors…),
   * when the host keeps them: where the session left off, kept ahead of the summary's own lines.
   */
  sessionNotes?: string;
  /** Rough size limit of the summary, in tokens. */
  maxTokens: number;
  /** Cancels the call. */
  signal?: AbortSignal;
}

/** What a summariser returns. */
export interface SummaryResult {
  /** The merged summary (plain text or Markdown). */
  text: string;
  /** Which summariser wrote it (`llm`, `extractive`, or a custom name). */
  by: string;
}

/** The summariser port. Must not drop facts of `previousSummary`. */
export type Summariser = (request: SummaryRequest) => Promise<SummaryResult>;

/** The system prompt of the LLM summariser. */
export const COMPACTION_PROMPT = `You compact the history of a coding-agent session so that the agent can continue \
the work with a fraction of the context. Write a summary that lets the agent resume exactly where it left off.

Keep, in this order and under these headings:
1. Primary request and intent — everything the user asked for, in their words where it matters.
2. Key technical concepts — languages, frameworks, commands, conventions in use.
3. Files and code — each file read, created or changed, why, and the important snippets or signatures.
4. Errors and fixes — what broke, how it was fixed, and any feedback the user gave.
5. Decisions and constraints — what was decided, and what the user said not to do.
6. Pending tasks — what was asked and not yet done.
7. Current work — precisely what was being done just before this summary, with file names.
8. Next step — the next action, only if it follows directly from the user's latest request.

Rules:
- When a previous summary is given, merge the new messages into it: keep every fact of it that is still \
true, update what changed, and never drop a pending task unless the messages show it done.
- Keep paths of full tool outputs saved on disk exactly as written, so they can be read again.
- Quote exact names (files, functions, flags, errors); never invent any.
- Write plain Markdown, no preamble, no closing remarks.`;

/** Options of {@link llmSummariser}. */
export interface LlmSummariserOptions {
  /** Characters kept of one block in the transcript sent to the model. Default 4,000; 200 … 1,000,000. */
  maxBlockChars?: number;
  /** Characters of transcript sent in one call (the oldest part is clipped first). Default 400,000. */
  maxInputChars?: number;
  /** Fall back to {@link extractiveSummariser} when the call fails. Default true. */
  fallback?: boolean;
  /** Call timeout in ms. Default: the provider's. */
  timeoutMs?: number;
}

/** The user message sent to the summarising model. */
function compactionRequestText(req: SummaryRequest, options: LlmSummariserOptions = {}): string {
  let transcript = renderTranscript(req.messages, options.maxBlockChars ?? 4_000);
  const maxInput = options.maxInputChars ?? 400_000;
  if (transcript.length > maxInput)
    transcript = `[… ${transcript.length - maxInput} earlier characters clipped]\n` + transcript.slice(-maxInput);
  const parts = [];
  if (req.previousSummary) parts.push(`<previous-summary>\n${req.previousSummary}\n</previous-summary>`);
  if (req.sessionNotes?.trim())
    parts.push(
      `<session-notes>\n${clip(req.sessionNotes.trim(), 48_000)}\n</session-notes>\n` +
        'These running notes say where the session left off: keep their current state, task and errors.',
    );
  parts.push(`<new-messages>\n${transcript}\n</new-messages>`);
  if (req.persistedPaths.length)
    parts.push(`Full tool outputs saved on disk:\n${req.persistedPaths.map((p) => `- ${p}`).join('\n')}`);
  if (req.instructions?.trim()) parts.push(`Additional instructions from the user: ${req.instructions.trim()}`);
  parts.push(`Write the ${req.previousSummary ? 'merged ' : ''}summary now, in at most about ${req.maxTokens} tokens.`);
  return parts.join('\n\n');
}

/** A summariser that asks an LLM provider (one `complete()` call). */
export function llmSummariser(provider: LlmProvider, options: LlmSummariserOptions = {}): Summariser {
  const fallback = options.fallback ?? true;
  return async (req) => {
    try {
      const r = await provider.complete({
        system: COMPACTION_PROMPT,
        messages: [{ role: 'user', content: compactionRequestText(req, options) }],
        maxTokens: Math.max(256, Math.min(req.maxTokens * 2, 32_000)),
        temperature: 0,
        ...(req.signal ? { signal: req.signal } : {}),
        ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      });
      const text = r.text.trim();
      if (!text) throw new Error('the model returned an empty summary');
      return { text, by: 'llm' };
    } catch (e) {
      if (!fallback || req.signal?.aborted) throw e;
      const r = await extractiveSummariser(req);
      return { text: r.text, by: 'extractive (llm failed)' };
    }
  };
}

/**
 * A deterministic summariser without a model: the previous summary, then one line per user prompt,
 * the first line of each answer, each tool call with its arguments clipped, and the persisted
 * paths. When over `maxTokens × 4` characters, the oldest new lines are dropped first (the previous
 * summary is clipped last).
 */
export const extractiveSummariser: Summariser = async (req) => {
  const lines: string[] = [];
  for (const m of req.messages) {
    for (const b of blocksOf(m)) {
      if (b.type === 'text') {
        const first = b.text.trim().split('\n')[0] ?? '';
        if (!first) continue;
        lines.push(m.role === 'user' ? `- User asked: ${clip(first, 300)}` : `- Assistant: ${clip(first, 200)}`);
      } else if (b.type === 'tool_use') lines.push(`- Tool ${b.name} ${clip(JSON.stringify(b.input), 160)}`);
      else if (b.isError) lines.push(`- Tool error: ${clip(b.content.split('\n')[0] ?? '', 160)}`);
    }
  }
  if (req.instructions?.trim()) lines.unshift(`Focus (from the user): ${clip(req.instructions.trim(), 300)}`);
  const budget = Math.max(400, req.maxTokens * 4);
  const paths = req.persistedPaths.length
    ? `\nFull tool outputs on disk:\n${req.persistedPaths.map((p) => `- ${p}`).join('\n')}`
    : '';
  const notes = req.sessionNotes?.trim()
    ? `Where we left off (session notes):\n${clip(req.sessionNotes.trim(), Math.floor(budget / 3))}\n\n`
    : '';
  // An earlier compaction's notes block is replaced by the current notes, not repeated.
  const earlier = req.previousSummary?.replace(/^Where we left off \(session notes\):\n[\s\S]*?\n\n/, '');
  const prev = earlier ? clip(earlier, Math.floor(budget / 2)) + '\n\n' : '';
  let room = budget - notes.length - prev.length - paths.length;
  const kept: string[] = [];
  for (let i = lines.length - 1; i >= 0 && room > 0; i--) {
    room -= lines[i]!.length + 1;
    if (room >= 0) kept.unshift(lines[i]!);
  }
  const dropped = lines.length - kept.length;
  const head = dropped ? `(${dropped} older lines omitted; the full messages are in the palace archive)\n` : '';
  return { text: `${notes}${prev}${head}${kept.join('\n')}${paths}`.trim(), by: 'extractive' };
};

/** Runs a summariser, turning its failure into `CONTEXT_SUMMARY_FAILED`. */
export async function runSummariser(s: Summariser, req: SummaryRequest): Promise<SummaryResult> {
  try {
    const r = await s(req);
    if (!r || typeof r.text !== 'string' || !r.text.trim()) throw new Error('the summariser returned no text');
    return r;
  } catch (e) {
    throw createError('CONTEXT_SUMMARY_FAILED', { reason: e instanceof Error ? e.message : String(e) }, e);
  }
}
