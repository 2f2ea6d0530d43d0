/**
 * @module context/session-context
 * What an agent is told about its surroundings, captured once per session.
 *
 * System context: the date, and for a git worktree the branch, the main branch, `git status`
 * (at most 2,000 characters, with a truncation note) and the recent commits. It is captured at the
 * start of a session and never refreshed: the model sees the repository as it was when the
 * session began. The trade-off is deliberate — refreshing would change the system prompt on every
 * turn and defeat prompt caching, and the agent can run `git status` itself when it needs the
 * present state; the text says it is a snapshot.
 *
 * User context: the CLAUDE.md chain (managed, user, every folder from the root down to the cwd,
 * with imports; `memdir`'s loader) and the memory section (the MEMORY.md index plus how to use
 * memories, with drift protection: memories are snapshots to verify before recommending).
 */
import { findGit, gitOutput } from '../core/git.js';
import { loadClaudeMdChain, memorySystemPrompt } from '../memdir/index.js';
import { clip } from './messages.js';

/** Default cap on the `git status` text: 2,000 characters. */
const GIT_STATUS_MAX_CHARS = 2_000;

/** The system context of a session. */
export interface SystemContext {
  /** When it was captured (ISO-8601). */
  capturedAt: string;
  /** Today's date, `YYYY-MM-DD` (local time of the capture). */
  date: string;
  /** The working directory. */
  cwd: string;
  /** Git facts; absent outside a repository or without the git binary. */
  git?: {
    branch?: string;
    mainBranch?: string;
    /** `git status --short` text, capped, with a note when cut; `(clean)` when empty. */
    status: string;
    /** `git log --oneline -n N`. */
    recentCommits: string;
  };
}

/** Options of {@link captureSystemContext}. */
export interface SystemContextOptions {
  /** The working directory. Required. */
  cwd: string;
  /** The capture time in ms. Default `Date.now()`. */
  now?: number;
  /** Cap on the status text. Default 2,000; 100 … 100,000. */
  maxStatusChars?: number;
  /** Commits listed. Default 5; 0 … 50. */
  recentCommits?: number;
  /** Skip git entirely. Default false. */
  noGit?: boolean;
}

function localDate(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/** Captures the system context (runs up to four short git commands; never throws). */
export function captureSystemContext(options: SystemContextOptions): SystemContext {
  const now = options.now ?? Date.now();
  const out: SystemContext = { capturedAt: new Date(now).toISOString(), date: localDate(now), cwd: options.cwd };
  if (options.noGit || !findGit(options.cwd)) return out;
  const cwd = options.cwd;
  const max = Math.max(100, options.maxStatusChars ?? GIT_STATUS_MAX_CHARS);
  const branch = gitOutput(cwd, ['rev-parse', '--abbrev-ref', 'HEAD']);
  const remoteHead = gitOutput(cwd, ['symbolic-ref', '--short', 'refs/remotes/origin/HEAD']);
  const mainBranch = remoteHead?.replace(/^origin\//, '');
  let status = gitOutput(cwd, ['status', '--short']) ?? '';
  if (status.length > max)
    status =
      status.slice(0, max) +
      `\n… (truncated: ${status.length} characters in all; run \`git status\` for the full list)`;
  const n = Math.min(50, Math.max(0, options.recentCommits ?? 5));
  const log = n ? (gitOutput(cwd, ['log', '--oneline', '-n', String(n)]) ?? '') : '';
  out.git = {
    ...(branch ? { branch } : {}),
    ...(mainBranch ? { mainBranch } : {}),
    status: status.trim() ? status : '(clean)',
    recentCommits: log,
  };
  return out;
}

/** The system context as prompt text. */
export function renderSystemContext(ctx: SystemContext): string {
  const lines = [`Today's date: ${ctx.date}.`, `Working directory: ${ctx.cwd}`];
  if (ctx.git) {
    lines.push(
      '',
      `This is the git status at the start of the session (${ctx.capturedAt}); it is a snapshot and is not ` +
        'updated during the conversation.',
    );
    if (ctx.git.branch) lines.push(`Current branch: ${ctx.git.branch}`);
    if (ctx.git.mainBranch) lines.push(`Main branch (usually the target of pull requests): ${ctx.git.mainBranch}`);
    lines.push('', 'Status:', ctx.git.status);
    if (ctx.git.recentCommits) lines.push('', 'Recent commits:', ctx.git.recentCommits);
  }
  return lines.join('\n');
}

/** The drift-protection rules added to the memory section. */
export const MEMORY_DRIFT_RULES = `## Memories drift

- Memories are snapshots of what was true when they were written; the code and the repository \
may have changed since. Verify a memory against the current code and git before recommending \
anything based on it.
- If a memory names a file, function, flag or command, check that it still exists before relying \
on it. If the current state contradicts a memory, trust what you observe now and update or delete \
the memory.
- Never present a memory as current fact without saying it was remembered.`;

/** The user context of a session. */
export interface UserContext {
  /** The CLAUDE.md chain as prompt text ('' when there is none). */
  claudeMd: string;
  /** Files of the chain that were loaded, in order. */
  claudeMdFiles: string[];
  /** The memory section (index, rules, drift protection); '' without a memory directory. */
  memory: string;
}

/** Options of {@link loadUserContext}. */
export interface UserContextOptions {
  /** The working directory. Required. */
  cwd: string;
  /** The memory directory (MEMORY.md and topic files). Default: none (no memory section). */
  memoryDir?: string;
  /** Load the CLAUDE.md chain. Default true. */
  claudeMd?: boolean;
  /** Passed to the chain loader: the user's home. Default: the environment's. */
  home?: string;
  /** Passed to the chain loader: the managed policy file, `null` to skip it. Default: the platform's. */
  managedPath?: string | null;
  /** Passed to the chain loader: Claude Code's config folder. Default `<home>/.claude`. */
  configDir?: string;
  /** Cap on the CLAUDE.md text, in characters. Default 40,000; 1,000 … 1,000,000. */
  maxClaudeMdChars?: number;
}

/** Loads the CLAUDE.md chain and the memory section (reads files; never throws for missing ones). */
export function loadUserContext(options: UserContextOptions): UserContext {
  let claudeMd = '';
  const files: string[] = [];
  if (options.claudeMd !== false) {
    const chain = loadClaudeMdChain({
      cwd: options.cwd,
      ...(options.home !== undefined ? { home: options.home } : {}),
      ...(options.managedPath !== undefined ? { managedPath: options.managedPath } : {}),
      ...(options.configDir !== undefined ? { configDir: options.configDir } : {}),
    });
    const pieces: string[] = [];
    for (const f of chain.files) {
      if (f.conditional || !f.content.trim()) continue;
      files.push(f.path);
      pieces.push(`Contents of ${f.path}:\n\n${f.content.trim()}`);
    }
    if (pieces.length)
      claudeMd = clip(
        'Instructions from CLAUDE.md files (they override default behaviour; follow them exactly):\n\n' +
          pieces.join('\n\n'),
        options.maxClaudeMdChars ?? 40_000,
      );
  }
  const memory = options.memoryDir ? `${memorySystemPrompt(options.memoryDir).trimEnd()}\n\n${MEMORY_DRIFT_RULES}` : '';
  return { claudeMd, claudeMdFiles: files, memory };
}
