/**
 * @module ingest/project/ignore-rules
 * gitignore scoping for the walker. Pattern semantics come from the `ignore` package; this module
 * adds what git does around it: a `.gitignore` in `a/` applies to paths relative to `a/`, deeper
 * files override shallower ones, `.git/info/exclude` has the lowest precedence, and ignore files
 * of the folders between the git root and a walked subfolder still apply.
 *
 * One subtlety: `ignore`'s public `test()` also reports a path as ignored when one of its parent
 * folders matches. The walker never enters an ignored folder, so a folder it is inside was
 * re-included by some level, and git then judges the file by its own path only (e.g. `c/*` in
 * `.git/info/exclude` with `!a/` in `.gitignore`: `c/a/x.txt` is not ignored). Each level therefore
 * tests the path alone through the pinned `ignore` version's rule list, falling back to `test()`
 * should that internal ever change (the differential test against git would then show it).
 */
import ignore from 'ignore';
import { dirname, join, relative, sep } from 'node:path';
import type { Stats } from 'node:fs';

/** Result of testing one path against one level's patterns. */
interface Verdict {
  ignored: boolean;
  unignored: boolean;
}

/** Tests a path against the patterns alone, without looking at its parent folders. */
type PathTest = (path: string) => Verdict;

function ownPathTest(ig: ignore.Ignore): PathTest {
  const rules = (ig as unknown as { _rules?: { test?: (path: string, mode: string) => Verdict } })._rules;
  if (rules !== undefined && typeof rules.test === 'function') return (p) => rules.test!(p, 'regex');
  return (p) => ig.test(p);
}

/** One level of rules: patterns of one folder, tested on paths relative to that folder. */
export interface RuleLevel {
  readonly test: PathTest;
  /** Root-relative folder of the rules, with a trailing '/' ('' for the walked root). */
  readonly base: string;
  /** Prepended to the path below `base` (used for folders above the walked root). */
  readonly prefix: string;
  /** The next level with lower precedence. */
  readonly parent: RuleLevel | undefined;
}

/** Adds a level holding `patterns` (gitignore text) above `parent`, or returns `parent` when there are none. */
export function addLevel(parent: RuleLevel | undefined, patterns: readonly string[], base: string, prefix = ''): RuleLevel | undefined {
  const text = patterns.filter((p) => p.trim() !== '');
  if (text.length === 0) return parent;
  // one string: `add` splits a string on line breaks, but takes each array element as one pattern
  return { test: ownPathTest(ignore().add(text.join('\n'))), base, prefix, parent };
}

/**
 * Whether the root-relative `rel` is ignored. `extra` (caller patterns, root-relative) has the
 * highest precedence, then `levels` from the deepest folder up: the first level whose patterns
 * decide (ignore or re-include with `!`) wins, like git's "last matching pattern" over all files.
 */
export function isIgnored(rel: string, isDir: boolean, levels: RuleLevel | undefined, extra: RuleLevel | undefined): boolean {
  const key = isDir ? `${rel}/` : rel;
  try {
    if (extra !== undefined) {
      const r = extra.test(key);
      if (r.ignored) return true;
      if (r.unignored) return false;
    }
    for (let l = levels; l !== undefined; l = l.parent) {
      const r = l.test(l.prefix + key.slice(l.base.length));
      if (r.ignored) return true;
      if (r.unignored) return false;
    }
  } catch {
    return false; // a name `ignore` cannot test (e.g. "..."): never ignored
  }
  return false;
}

/** The small part of node:fs the rule loader needs. */
export interface RuleFs {
  readFileSync(path: string, encoding: 'utf8'): string;
  statSync(path: string): Stats;
}

function readOptional(fs: RuleFs, path: string): string | undefined {
  try {
    return fs.readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function exists(fs: RuleFs, path: string): Stats | undefined {
  try {
    return fs.statSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Rules that apply to the walked `root` from outside it: the nearest enclosing git working tree's
 * `.git/info/exclude`, and `.gitignore` / `.lociignore` of every folder from the git root down to
 * the parent of `root`. Nothing when `root` is not inside a git working tree, or when one of those
 * rules ignores `root` itself or a folder above it (the caller asked for that folder explicitly).
 * `.git/info/exclude` is read only when `.git` is a folder (not for linked worktrees); the user's
 * global `core.excludesFile` is never read (it is not part of the project).
 */
export function outerLevels(fs: RuleFs, root: string, gitignore: boolean): RuleLevel | undefined {
  let gitRoot: string | undefined;
  for (let d = root; ; d = dirname(d)) {
    if (exists(fs, join(d, '.git')) !== undefined) {
      gitRoot = d;
      break;
    }
    if (dirname(d) === d) break;
  }
  if (gitRoot === undefined) return undefined;
  const prefixOf = (d: string): string => {
    const r = relative(d, root).split(sep).join('/');
    return r === '' ? '' : `${r}/`;
  };
  let levels: RuleLevel | undefined;
  if (gitignore && exists(fs, join(gitRoot, '.git'))?.isDirectory()) {
    const exclude = readOptional(fs, join(gitRoot, '.git', 'info', 'exclude'));
    if (exclude !== undefined) levels = addLevel(levels, [exclude], '', prefixOf(gitRoot));
  }
  const chain: string[] = [];
  for (let d = root; d !== gitRoot; d = dirname(d)) chain.unshift(dirname(d));
  for (const d of chain) {
    const texts: string[] = [];
    if (gitignore) texts.push(readOptional(fs, join(d, '.gitignore')) ?? '');
    texts.push(readOptional(fs, join(d, '.lociignore')) ?? '');
    levels = addLevel(levels, texts, '', prefixOf(d));
  }
  // The user chose this folder: when the outer rules ignore it (or a folder above it) — say, a
  // dotfiles repository in $HOME with `*` in its .gitignore — they are dropped instead of hiding it.
  for (let l = levels; l !== undefined; l = l.parent) {
    const segs = l.prefix.split('/').filter((x) => x !== '');
    for (let k = 1; k <= segs.length; k++) if (l.test(`${segs.slice(0, k).join('/')}/`).ignored) return undefined;
  }
  return levels;
}
