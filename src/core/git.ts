/**
 * @module core/git
 * The one git helper of Loci: just enough git to name a project. The nearest folder holding a
 * `.git` entry (`findGitRoot`, used for wing names and install scopes), the worktree top level and
 * the common git dir shared by all worktrees (`findGit`, used for memory-dir keys and chat wings),
 * the remote URLs and the root commit. Files are read directly (`.git` file or directory,
 * `commondir`, `config`); the git binary is only a fallback, run with `execFileSync` and a short
 * timeout, and its absence is never an error.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { lazyRequire } from './lazy.js';

// Loaded only for the fallback: `node:child_process` pulls in net, dgram and streams (~13 M instructions).
const childProcess = lazyRequire<typeof import('node:child_process')>('node:child_process');

/** What was found about the repository containing a directory. */
export interface GitInfo {
  /** Top level of the worktree containing the directory. */
  topLevel: string;
  /** The git dir of this worktree (`.git`, or `.git/worktrees/<name>` for linked worktrees). */
  gitDir: string;
  /** The common git dir shared by all worktrees (equals gitDir for the main worktree). */
  commonDir: string;
  /**
   * The canonical project root shared by every worktree: the directory holding the common dir when
   * it is named `.git`, else the common dir itself (bare repositories).
   */
  canonicalRoot: string;
  /** How it was found. */
  via: 'files' | 'git';
}

/** Default timeout of git subprocesses, in ms. */
export const GIT_TIMEOUT_MS = 1500;

function readText(p: string): string | undefined {
  try {
    return readFileSync(p, 'utf8');
  } catch {
    return undefined;
  }
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function canonicalOf(commonDir: string): string {
  return (basename(commonDir) === '.git' ? dirname(commonDir) : commonDir).normalize('NFC');
}

/**
 * The nearest ancestor of `path` (inclusive; a file starts at its folder) that holds a `.git` entry
 * (folder or worktree file, readable or not), or null outside any repository. No git binary.
 */
export function findGitRoot(path: string): string | null {
  let dir = resolve(path);
  for (;;) {
    if (existsSync(join(dir, '.git'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** Reads `.git` files and `commondir` walking up from `start`. Returns undefined outside git. */
export function findGitByFiles(start: string): GitInfo | undefined {
  const dir = findGitRoot(start);
  if (dir === null) return undefined;
  const dotGit = join(dir, '.git');
  let gitDir: string | undefined;
  if (isDir(dotGit)) gitDir = dotGit;
  else {
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(readText(dotGit) ?? '');
    if (m) gitDir = resolve(dir, m[1]!);
  }
  if (gitDir && isDir(gitDir)) {
    const cd = readText(join(gitDir, 'commondir'))?.trim();
    const commonDir = cd ? resolve(gitDir, cd) : gitDir;
    if (isDir(commonDir)) {
      // Linked worktrees (and submodules) have a `.git` file; only worktrees have `commondir`.
      return {
        topLevel: dir.normalize('NFC'),
        gitDir,
        commonDir,
        canonicalRoot: cd ? canonicalOf(commonDir) : dir.normalize('NFC'),
        via: 'files',
      };
    }
  }
  return undefined; // a broken .git: let the git fallback decide
}

function git(cwd: string, args: string[], timeoutMs: number): string | undefined {
  try {
    return childProcess()
      .execFileSync('git', args, {
        cwd,
        timeout: timeoutMs,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        windowsHide: true,
      })
      .trimEnd();
  } catch {
    return undefined;
  }
}

/**
 * Runs `git <args>` in `cwd` and returns its stdout without trailing whitespace, or undefined when git is missing,
 * fails or times out (default {@link GIT_TIMEOUT_MS}). Never throws.
 */
export function gitOutput(cwd: string, args: string[], timeoutMs = GIT_TIMEOUT_MS): string | undefined {
  return git(cwd, args, timeoutMs);
}

/** Asks the git binary (`git rev-parse --git-common-dir --git-dir --show-toplevel`). */
export function findGitByBinary(start: string, timeoutMs = GIT_TIMEOUT_MS): GitInfo | undefined {
  const out = git(
    start,
    ['rev-parse', '--path-format=absolute', '--git-common-dir', '--git-dir', '--show-toplevel'],
    timeoutMs,
  );
  if (!out) return undefined;
  const [common, gitDir, top] = out.split('\n');
  if (!common || !gitDir) return undefined;
  const commonDir = resolve(start, common);
  const topLevel = top ? resolve(top) : dirname(commonDir);
  return { topLevel, gitDir: resolve(start, gitDir), commonDir, canonicalRoot: canonicalOf(commonDir), via: 'git' };
}

/**
 * Finds the repository containing `start`: by reading files first (no git binary needed), then
 * by asking git when a `.git` exists but could not be read. Undefined outside any repository.
 */
export function findGit(start: string, timeoutMs = GIT_TIMEOUT_MS): GitInfo | undefined {
  const byFiles = findGitByFiles(start);
  if (byFiles) return byFiles;
  return findGitRoot(start) === null ? undefined : findGitByBinary(start, timeoutMs);
}

/** Remote name → URL from a git config file's `[remote "…"]` sections, in file order. */
export function parseRemotes(configText: string): { name: string; url: string }[] {
  const out: { name: string; url: string }[] = [];
  let current: string | undefined;
  for (const raw of configText.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      const m = /^\[\s*remote\s+"((?:[^"\\]|\\.)*)"\s*\]/i.exec(line);
      current = m ? m[1]!.replace(/\\(.)/g, '$1') : undefined;
      continue;
    }
    if (current === undefined) continue;
    const kv = /^url\s*=\s*(.*)$/i.exec(line);
    if (!kv) continue;
    let v = kv[1]!.replace(/\s[#;].*$/, '').trim();
    if (v.startsWith('"') && v.endsWith('"') && v.length >= 2) v = v.slice(1, -1);
    if (v && !out.some((r) => r.name === current)) out.push({ name: current, url: v });
  }
  return out;
}

/** The preferred remote URL: `origin`, else the first remote; from the config file, else git. */
export function preferredRemoteUrl(info: GitInfo, timeoutMs = GIT_TIMEOUT_MS): string | undefined {
  let remotes = parseRemotes(readText(join(info.commonDir, 'config')) ?? '');
  if (remotes.length === 0 && info.via === 'git') {
    const out = git(info.topLevel, ['config', '--get-regexp', '^remote\\..*\\.url$'], timeoutMs) ?? '';
    remotes = out
      .split('\n')
      .map((l) => /^remote\.(.+)\.url\s+(.+)$/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => ({ name: m[1]!, url: m[2]! }));
  }
  return (remotes.find((r) => r.name === 'origin') ?? remotes[0])?.url;
}

/**
 * The root commit of HEAD (the lexicographically smallest when history has several roots), or
 * undefined without git, without commits or on timeout.
 */
export function rootCommit(info: GitInfo, timeoutMs = GIT_TIMEOUT_MS): string | undefined {
  const out = git(info.topLevel, ['rev-list', '--max-parents=0', 'HEAD'], timeoutMs);
  const roots = (out ?? '')
    .split('\n')
    .filter((l) => /^[0-9a-f]{40,64}$/.test(l))
    .sort();
  return roots[0];
}

/**
 * Normalises a remote URL so that every spelling of one repository gives one key:
 * `git@host:a/b.git`, `ssh://git@host:22/a/b`, `https://user:token@Host/a/b.git/` all become
 * `host/a/b`. Credentials, scheme, port, `.git` and trailing slashes are dropped; the result is
 * lower-cased (hosts are case-insensitive and most forges treat paths so too).
 */
export function normalizeRemoteUrl(url: string): string {
  let u = url.trim();
  let host = '';
  let path = u;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/i.exec(u);
  if (scheme) {
    const rest = scheme[2]!;
    const slash = rest.indexOf('/');
    const authority = slash < 0 ? rest : rest.slice(0, slash);
    path = slash < 0 ? '' : rest.slice(slash);
    host = authority.replace(/^.*@/, '').replace(/:\d*$/, '');
  } else {
    const scp = /^(?:[^@/]+@)?([^:/]+):(?!\/)(.*)$/.exec(u);
    if (scp && !isAbsolute(u) && !/^[a-z]:[\\/]/i.test(u)) {
      host = scp[1]!;
      path = scp[2]!;
    }
  }
  path = path
    .replace(/\\/g, '/')
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '')
    .replace(/\/+$/, '')
    .replace(/^\/+/, '');
  u = host ? `${host}/${path}` : path;
  return u.toLowerCase();
}
