/**
 * @module core/project-identity
 * Finds the project a path belongs to (its git root, or the folder itself) and names its wing:
 * {@link defaultWing} for a mined path, {@link wingForCwd} for a conversation held in a folder
 * (rule 2 of `ingest/convos-miner/identity`), {@link projectWing} for "the project of this cwd"
 * (recall, wake-up, the hooks). Leaf module: node built-ins and `core/git` only.
 */
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, resolve } from 'node:path';
import { findGit, findGitRoot } from './git.js';

/** Normalises a name into a wing: lower-case, runs of other characters → `-`, at most 64 chars. */
export function wingName(raw: string): string {
  const w = raw
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_.-]+/gu, '-')
    .replace(/-+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 64);
  return w || 'default';
}

/**
 * The default wing of a mined path: the name of its git root, else of the folder itself
 * (for a file: its folder).
 */
export function defaultWing(path: string): string {
  const root = findGitRoot(path);
  if (root) return wingName(basename(root));
  let dir = resolve(path);
  try {
    if (!statSync(dir).isDirectory()) dir = dirname(dir);
  } catch {
    /* keep */
  }
  return wingName(basename(dir) || 'root');
}

const cache = new Map<string, string>();

/** A folder name that is a temporary or generated name, never a project's. */
export function isTempName(name: string): boolean {
  return (
    /^(?:tmp|temp|T)$/i.test(name) ||
    /^(?:beam|tmp|temp)[._-]/i.test(name) ||
    /^[0-9a-f]{16,}$/i.test(name) ||
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(name)
  );
}

const HOME_RE = [
  /^\/home\/[^/]+$/,
  /^\/Users\/[^/]+$/,
  /^\/root$/,
  /^\/var\/home\/[^/]+$/,
  /^[A-Za-z]:\/Users\/[^/]+$/i,
];
const TEMP_ROOT_RE = [
  /^\/tmp$/,
  /^\/var\/tmp$/,
  /^\/private\/tmp$/,
  /^(?:\/private)?\/var\/folders(?:\/.*)?$/,
  /^[A-Za-z]:\/Windows\/Temp$/i,
];

/**
 * True for a home folder (`/home/x`, `/Users/x`, `C:/Users/x`, `/root`), `/` or ''; `p` uses `/`, no trailing slash.
 */
export function isHome(p: string): boolean {
  let h: string | undefined;
  try {
    h = homedir().replace(/\\/g, '/').replace(/\/+$/, '');
  } catch {
    h = undefined;
  }
  return p === '' || p === '/' || p === h || HOME_RE.some((re) => re.test(p));
}

/** The project name a path names without looking at the disk, or `home` / `tmp` when it names none. */
function nameOf(path: string): string {
  let p = path.replace(/\\/g, '/').replace(/\/+$/, '');
  for (;;) {
    if (isHome(p)) return 'home';
    if (TEMP_ROOT_RE.some((re) => re.test(p))) return 'tmp';
    const name = p.slice(p.lastIndexOf('/') + 1);
    if (name && !isTempName(name)) return name;
    const up = p.slice(0, Math.max(0, p.lastIndexOf('/')));
    if (up === p) return 'home';
    p = up;
  }
}

/**
 * The wing for a conversation held in `cwd` (rule 2 of `ingest/convos-miner/identity`): the name of
 * the canonical git root when `cwd` is inside a repository (not one rooted at a home folder), else
 * the cwd's last folder that names a project (`home` / `tmp` when none does); null when cwd is
 * empty. Cached per process.
 */
export function wingForCwd(cwd: string | null | undefined): string | null {
  if (!cwd) return null;
  const hit = cache.get(cwd);
  if (hit !== undefined) return hit;
  const git = existsSync(cwd) ? findGit(cwd, 1500) : undefined;
  // a repository rooted at a home folder (dotfiles) is not the project of everything below it
  const root = git && !isHome(git.canonicalRoot.replace(/\\/g, '/').replace(/\/+$/, '')) ? git.canonicalRoot : null;
  const wing = wingName(root ? basename(root) : nameOf(cwd));
  if (cache.size > 10_000) cache.clear();
  cache.set(cwd, wing);
  return wing;
}

/** The project (wing) of a working directory: {@link wingForCwd}, else {@link defaultWing}. */
export function projectWing(cwd: string): string {
  return wingForCwd(cwd) ?? defaultWing(cwd);
}
