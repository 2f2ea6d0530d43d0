/**
 * @module context/system-prompt
 * The system prompt in two parts split at an explicit boundary: a static part (identity, tool
 * guidance, rules — identical across sessions, so a provider's prompt cache can share it) and a
 * dynamic part (date, git snapshot, CLAUDE.md, memories — fixed for one session). For Anthropic it
 * is emitted as two `SystemPart`s, each ending in a cache breakpoint; for OpenAI-compatible and
 * Ollama servers as one plain text with the boundary marker dropped.
 */
import type { SystemPart } from '../providers/index.js';
import { renderSystemContext, type SystemContext, type UserContext } from './session-context.js';

/** The marker between the static and the dynamic part in the plain-text form's source. */
export const SYSTEM_PROMPT_DYNAMIC_BOUNDARY = '__SYSTEM_PROMPT_DYNAMIC_BOUNDARY__';

/** The default identity line. */
const DEFAULT_IDENTITY =
  'You are a coding agent working in the user’s repository from a terminal. You read and change code with the ' +
  'tools you are given, and you answer concisely.';

/** The default rules. */
const DEFAULT_RULES = `# Rules
- Read files before changing them; make the smallest change that does what was asked.
- Do not invent file names, functions or results: check with the tools.
- Run commands only when needed, and say what a command will do before a destructive one.
- Large tool outputs may be saved to a file; the preview says where. Read that file for the rest.
- Older parts of the conversation may be replaced by a summary; trust the summary for what happened.`;

/** What the static part is made of. */
export interface StaticPromptInput {
  /** Who the agent is. Default: one line naming a terminal coding agent that answers concisely. */
  identity?: string;
  /** How to use the tools (one paragraph or a list). Default: none. */
  toolGuidance?: string;
  /**
   * Rules of conduct. Default: Loci's five rules (read first, check with tools, careful commands,
   * saved outputs, summaries).
   */
  rules?: string;
}

/** What the dynamic part is made of. */
export interface DynamicPromptInput {
  /** The session's system context (date, git). */
  system?: SystemContext;
  /** The session's user context (CLAUDE.md, memory section). */
  user?: UserContext;
  /** Extra text appended to the dynamic part (e.g. a front end's notes). Default: none. */
  extra?: string;
}

/** A built system prompt. */
export interface SystemPrompt {
  /** The static part. */
  readonly staticText: string;
  /** The dynamic part. */
  readonly dynamicText: string;
  /** For Anthropic: `[static, dynamic]`, each with `cache: true` (empty parts omitted). */
  parts(): SystemPart[];
  /** For providers without prompt caching: both parts joined by a blank line. */
  text(): string;
  /** The source form, with {@link SYSTEM_PROMPT_DYNAMIC_BOUNDARY} on its own line between the parts. */
  withBoundary(): string;
}

/** Builds the static part. */
export function buildStaticPrompt(input: StaticPromptInput = {}): string {
  return [input.identity ?? DEFAULT_IDENTITY, input.toolGuidance, input.rules ?? DEFAULT_RULES]
    .filter((s): s is string => !!s && !!s.trim())
    .map((s) => s.trim())
    .join('\n\n');
}

/** Builds the dynamic part. */
export function buildDynamicPrompt(input: DynamicPromptInput = {}): string {
  const pieces: string[] = [];
  if (input.system) pieces.push(`# Environment\n${renderSystemContext(input.system)}`);
  if (input.user?.claudeMd) pieces.push(input.user.claudeMd);
  if (input.user?.memory) pieces.push(input.user.memory.trim());
  if (input.extra?.trim()) pieces.push(input.extra.trim());
  return pieces.join('\n\n');
}

/** Joins a static and a dynamic part into a {@link SystemPrompt}. */
export function systemPrompt(staticText: string, dynamicText: string): SystemPrompt {
  return {
    staticText,
    dynamicText,
    parts: () =>
      [staticText, dynamicText].filter((t) => t.length > 0).map((text) => ({ text, cache: true }) as SystemPart),
    text: () => [staticText, dynamicText].filter((t) => t.length > 0).join('\n\n'),
    withBoundary: () => `${staticText}\n${SYSTEM_PROMPT_DYNAMIC_BOUNDARY}\n${dynamicText}`,
  };
}
