/**
 * @module ingest/convos-miner/identity
 * The wing of a conversation, from the project it was held in.
 *
 * Rule (documented choice): the conversation's `cwd` (Claude Code, Codex, `history.jsonl`) names
 * the project. When that folder exists and is inside a git repository, the wing is the name of the
 * repository's **canonical root** (the main worktree, shared by every linked worktree — see
 * memdir's `findGit`); for a main worktree that is also the wing the project miner gives the
 * repository's files, so a project's code and its conversations meet in one wing. Otherwise (not
 * in git, or the folder was deleted or moved) the wing is the cwd's last folder. Claude Code's
 * sanitized project folder name (`-home-me-app`) is never used: it is lossy (`-` and `/` collide,
 * non-ASCII becomes `-`).
 * Conversations without a cwd (ChatGPT, Claude.ai, Slack, Gemini, chat logs) get the fallback
 * wing: the mined folder's wing.
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { findGit } from '../../memdir/index.js';
import { wingName } from '../project-identity.js';

const cache = new Map<string, string>();

/** The wing for a conversation held in `cwd` (see the module comment); null when cwd is empty. Cached per process. */
export function wingForCwd(cwd: string | null | undefined): string | null {
  if (!cwd) return null;
  const hit = cache.get(cwd);
  if (hit !== undefined) return hit;
  const git = existsSync(cwd) ? findGit(cwd, 1500) : undefined;
  const name = git ? basename(git.canonicalRoot) : (cwd.replace(/[\\/]+$/, '').split(/[\\/]/).pop() ?? '');
  const wing = wingName(name || 'root');
  if (cache.size > 10_000) cache.clear();
  cache.set(cwd, wing);
  return wing;
}
