/**
 * @module memdir/prompt
 * The memory section of a system prompt, for agents other than Claude Code (which has its own):
 * the four types and when to use each, how to save, what not to save, and the current MEMORY.md
 * index with the load limits applied. The wording is Loci's own, modelled on Claude Code's.
 */
import { loadMemoryIndex, type IndexLimits } from './index-file.js';
import { INDEX_FILE } from './types.js';

/** Options of {@link memorySystemPrompt}. */
interface MemoryPromptOptions {
  /** Limits applied to the injected index. Default 200 lines / 25,000 bytes. */
  limits?: IndexLimits;
  /** Heading of the section. Default `# Memory`. */
  heading?: string;
}

const TYPES = `## Types of memory

- **user**: who the user is: role, expertise, preferences, how they like to work. Save when you
  learn something that should change how you talk to or work with them. Always private.
- **feedback**: corrections and confirmed approaches ("don't mock the database", "yes, keep PRs
  small"). Save when the user corrects you or confirms a non-obvious choice, with the reason.
- **project**: ongoing work, goals, deadlines, decisions and constraints that the code and git
  history do not show. Save when you learn who is doing what, why, or by when.
- **reference**: where information lives outside the repository: trackers, dashboards, runbooks,
  channels. Save when you learn a pointer worth following later.`;

const HOW = `## How to save

- One fact per file, in the memory directory, named \`{type}_{short-slug}.md\`, starting with
  frontmatter:
  \`\`\`
  ---
  name: short-slug
  description: one line that says when this memory is relevant
  metadata:
    type: feedback
  ---
  \`\`\`
- Feedback and project memories state the fact, then a \`**Why:**\` line and a
  \`**How to apply:**\` line.
- Then add one line to ${INDEX_FILE}: \`- [Title](file.md) — short hook\`, under ~150 characters.
  ${INDEX_FILE} is an index, not a memory: never write content or frontmatter into it.
- Update an existing memory instead of writing a duplicate; delete memories that turn out wrong.
- Write absolute dates ("2026-03-05"), never relative ones ("next Thursday").
- Memories can be stale: before relying on a file, function or flag a memory names, check that it
  still exists.`;

const NOT = `## What not to save

- Anything the repository already records: code structure, conventions visible in the code, git
  history, or what CLAUDE.md / AGENTS.md already say.
- Secrets: passwords, API keys, tokens, private keys, connection strings.
- Ephemeral task state (the current step, a temporary workaround) and details of this conversation
  that will not matter next time.`;

/**
 * Returns the memory section for a system prompt, describing the memory directory `dir` and
 * embedding its current index (limits applied, truncation notice included).
 */
export function memorySystemPrompt(dir: string, options: MemoryPromptOptions = {}): string {
  const index = loadMemoryIndex(dir, options.limits);
  const current = index.text
    ? `## Current index (${INDEX_FILE})\n\n${index.text}`
    : `## Current index (${INDEX_FILE})\n\n${INDEX_FILE} is empty: no memories saved yet.`;
  return (
    [
      options.heading ?? '# Memory',
      `You have a persistent, file-based memory at \`${dir}\`. It survives between conversations. ` +
        `Its index, ${INDEX_FILE}, is shown below; topic files are not loaded automatically: read one ` +
        `when its index line says it is relevant to the task.`,
      TYPES,
      HOW,
      NOT,
      current,
    ].join('\n\n') + '\n'
  );
}
