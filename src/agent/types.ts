/**
 * @module agent/types
 * Vocabulary of the agent loop: tools (their spec and how they run), the events a turn reports as it
 * goes, and what a finished turn returns.
 */
import type { TokenUsage, ToolSpec } from '../providers/index.js';

/** What a tool gets besides its input. */
export interface ToolContext {
  /** The working directory; file tools stay inside it. */
  cwd: string;
  /** Cancels the tool (the turn was aborted). */
  signal: AbortSignal | undefined;
  /**
   * Asks the person before a side effect (the shell tool). Resolves true to go ahead. Without an
   * interactive person, the caller answers from its allow list.
   */
  confirm(request: { tool: string; summary: string }): Promise<boolean>;
}

/** What a tool returned. */
export interface ToolRun {
  /** The result the model sees (large results are persisted by the context, not here). */
  content: string;
  /** True when the tool failed; `content` is then the error message the model sees. */
  isError?: boolean;
  /** Text shown to the person instead of `content` (e.g. the diff of an edit). Default: none. */
  display?: string;
}

/** A tool the agent may call. */
export interface AgentTool {
  spec: ToolSpec;
  /** Runs the tool. Failures the model should see are returned with `isError`, not thrown. */
  run(input: Record<string, unknown>, ctx: ToolContext): Promise<ToolRun>;
}

/** What a turn reports as it goes (for a terminal UI or a log). */
export type AgentEvent =
  | { type: 'text'; text: string }
  | { type: 'tool_call'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; id: string; name: string; content: string; isError: boolean; display?: string }
  | { type: 'memories'; files: string[] }
  | { type: 'compaction'; mode: 'manual' | 'auto'; tokensBefore: number; tokensAfter: number }
  | { type: 'model_call'; usage: TokenUsage | undefined; stopReason: string | undefined }
  | { type: 'notice'; text: string };

/** What one turn (a prompt and every model call it took) returns. */
export interface TurnResult {
  /** The text of the model's last answer (what a person reads). */
  answer: string;
  /** Model calls in this turn (one plus one per round of tool use). */
  modelCalls: number;
  /** Token usage summed over the turn's model calls. */
  usage: TokenUsage;
  /** Compactions during this turn. */
  compactions: number;
  /** Tool results written to disk instead of the context during this turn. */
  persistedResults: number;
  /** Memories injected into this turn by recall. */
  memoriesInjected: number;
  /** The last call's stop reason. */
  stopReason: string | undefined;
  /** True when the turn stopped at the model-call limit while the model still wanted tools. */
  truncated: boolean;
}

/** A usage with every count at 0. */
export function zeroUsage(): TokenUsage {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheCreationTokens: 0 };
}

/** Adds `b` into `a`. */
export function addUsage(a: TokenUsage, b: TokenUsage | undefined): void {
  if (!b) return;
  a.inputTokens += b.inputTokens;
  a.outputTokens += b.outputTokens;
  a.cacheReadTokens += b.cacheReadTokens;
  a.cacheCreationTokens += b.cacheCreationTokens;
}

/** One line of guidance per tool, for the system prompt's tool section. */
const GUIDANCE: Readonly<Record<string, string>> = {
  read: 'read: look at a file before changing it; use offset/limit for long files.',
  list: 'list: find files by glob (`src/**/*.ts`).',
  grep: 'grep: find where a name or text occurs; prefer it to reading whole folders.',
  edit:
    'edit: change a file by replacing an exact piece that occurs once (copy it from read); the person sees ' +
    'the diff. Create a file with an empty old.',
  shell: 'shell: run tests or commands; the person confirms each command, so explain why you need it.',
  memory:
    'memory: list, read or add memory files. Save only durable facts (preferences, decisions and their ' +
    'reasons), never what the code or git already says.',
  search: "search: Loci's palace of mined project files and past conversations; cite what you use.",
};

/** The tool section of the system prompt for `tools` (names without guidance are listed plainly). */
export function toolGuidance(tools: readonly AgentTool[]): string {
  if (tools.length === 0) return '';
  const lines = tools.map((t) => `- ${GUIDANCE[t.spec.name] ?? `${t.spec.name}: ${t.spec.description}`}`);
  return `# Tools\n${lines.join('\n')}`;
}
