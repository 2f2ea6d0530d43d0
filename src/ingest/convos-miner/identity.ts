/**
 * @module ingest/convos-miner/identity
 * The wing of a conversation: the project it was held in.
 *
 * Rule (documented choice), first answer wins:
 * 1. `--wing` (the forced wing).
 * 2. The conversation's `cwd` (Claude Code, Codex, `history.jsonl`), see `wingForCwd` (`core/project-identity`): when
 *    the folder exists and is inside a git repository, the name of the repository's **canonical
 *    root** (the main worktree, shared by every linked worktree — see `core/git`'s `findGit`), so a
 *    project's code and its conversations meet in one wing; otherwise the cwd's last folder that
 *    names a project — temporary names (`tmp`, `beam_…`, `tmp.XXXX`, long hex or uuid names) are
 *    passed over, and a home folder (`/home/x`, `/Users/x`, `C:\Users\x`, `/root`) or a temp root is
 *    never a project: such sessions go to the wings `home` and `tmp`.
 * 3. A Claude Code transcript without any cwd: its project folder (`~/.claude/projects/-Users-me-app`)
 *    decoded — the existing folder it names, else its name without the home prefix and container
 *    folders (`Code`, `projects`, `src`, …), see {@link wingForClaudeProjectDir}.
 * 4. The mined folder's git repository name when it is inside one (a project keeping its chats).
 * 5. The application: `chatgpt`, `claude-ai`, `slack`, `gemini`, `codex`, `claude-code`, `chats` —
 *    never the export folder that happens to enclose the files.
 * Subagent and compaction files of a Claude Code session join the wing of their parent session
 * (same `sessionId`), see the miner.
 */
import { statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { findGitRoot } from '../../core/git.js';
import { isHome, isTempName, wingForCwd, wingName } from '../../core/project-identity.js';
import type { ConvoFormat } from '../convos/index.js';

export { isTempName, wingForCwd };

const CONTAINERS = new RegExp(
  String.raw`^(?:code|src|source|projects?|repos?|repositories|git|github|gitlab|dev|development|work|` +
    String.raw`workspace|workspaces|documents|desktop|sites|www)$`,
  'i',
);

/** The existing folder a sanitized name (`-`-joined path) stands for, trying `-` as `/`, `-` or `.`. */
function resolveSanitized(segs: readonly string[]): string | null {
  let found: string | null = null;
  let budget = 2000;
  const walk = (i: number, dir: string, cur: string): void => {
    if (found || budget-- <= 0) return;
    if (i === segs.length) {
      const p = `${dir}/${cur}`;
      if (isDir(p)) found = p;
      return;
    }
    const seg = segs[i]!;
    const asDir = `${dir}/${cur}`;
    if (cur !== '' && isDir(asDir)) walk(i + 1, asDir, seg);
    walk(i + 1, dir, cur === '' ? seg : `${cur}-${seg}`);
    if (cur !== '') walk(i + 1, dir, `${cur}.${seg}`);
  };
  if (segs.length > 0 && segs.length <= 24) walk(1, '', segs[0]!);
  return found;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The wing of a Claude Code project folder name (`-Users-me-Code-my-app`), rule 3 of the module
 * comment: the existing folder it stands for, else the name without the home prefix and container
 * folders (`my-app`). Null for a name that is not a Claude Code project folder.
 */
export function wingForClaudeProjectDir(name: string): string | null {
  if (!name.startsWith('-') || name.length < 2) return null;
  const segs = name.slice(1).split('-');
  const onDisk = resolveSanitized(segs);
  if (onDisk) return wingForCwd(onDisk);
  let rest = segs;
  if ((rest[0] === 'Users' || rest[0] === 'home') && rest.length >= 2) rest = rest.slice(2);
  else if (rest[0] === 'root') rest = rest.slice(1);
  // C--Users-me-…
  else if (/^[A-Za-z]$/.test(rest[0] ?? '') && rest[1] === '' && rest[2] === 'Users') rest = rest.slice(4);
  while (rest.length > 1 && CONTAINERS.test(rest[0]!)) rest = rest.slice(1);
  const joined = rest.filter((s) => s !== '').join('-');
  if (!joined) return 'home';
  return wingName(isTempName(joined) ? 'tmp' : joined);
}

/**
 * The Claude Code project folder holding a transcript (`<project>/<session>.jsonl` or
 * `<project>/<session>/subagents/<agent>.jsonl`), or null.
 */
function claudeProjectDirOf(file: string): string | null {
  let dir = dirname(file);
  if (basename(dir) === 'subagents') dir = dirname(dirname(dir));
  const name = basename(dir);
  return name.startsWith('-') ? name : null;
}

const APP_WING: Record<ConvoFormat, string> = {
  'claude-code': 'claude-code',
  'claude-history': 'claude-code',
  chatgpt: 'chatgpt',
  'claude-ai': 'claude-ai',
  slack: 'slack',
  codex: 'codex',
  gemini: 'gemini',
  'chat-text': 'chats',
};

/**
 * The wing of a conversation (rules 2–5 of the module comment; the caller applies `--wing`):
 * `rootProject` is the mined folder's git repository name, if any.
 */
export function conversationWing(o: {
  cwd: string | null;
  format: ConvoFormat;
  file: string;
  rootProject: string | null;
}): string {
  const fromCwd = wingForCwd(o.cwd);
  if (fromCwd) return fromCwd;
  if (o.format === 'claude-code') {
    const dir = claudeProjectDirOf(o.file);
    const w = dir ? wingForClaudeProjectDir(dir) : null;
    if (w) return w;
  }
  return o.rootProject ?? APP_WING[o.format];
}

/** Rule 4: the wing of the git repository holding the mined folder (not one rooted at a home folder), or null. */
export function rootProjectOf(root: string): string | null {
  const g = findGitRoot(root);
  if (!g || isHome(g.replace(/\\/g, '/').replace(/\/+$/, ''))) return null;
  return wingName(basename(g));
}
