/**
 * @module ingest/project/ignore-rules
 * gitignore scoping for the walker. Pattern semantics come from the `ignore` package; this module
 * adds what git does around it: a `.gitignore` in `a/` applies to paths relative to `a/`, deeper
 * files override shallower ones, `.git/info/exclude` has the lowest precedence; ignore files of
 * folders above the walked root are never read (see {@link outerLevels}).
 *
 * One subtlety: `ignore`'s public `test()` also reports a path as ignored when one of its parent
 * folders matches. The walker never enters an ignored folder, so a folder it is inside was
 * re-included by some level, and git then judges the file by its own path only (e.g. `c/*` in
 * `.git/info/exclude` with `!a/` in `.gitignore`: `c/a/x.txt` is not ignored). Each level therefore
 * tests the path alone, through `ignore`'s public API only: a path at depth k is tested against the
 * level's patterns followed by k − 1 anchored re-inclusions (`!/` then one `*` and a slash per level,
 * for levels 1 … k − 1). They match every parent folder of the path and never the path itself, so no
 * parent is ever ignored and the verdict is the path's own (the differential test against git
 * checks it).
 */
import type Ignore from 'ignore';
import { join } from 'node:path';
import type { Stats } from 'node:fs';
import { lazyRequire } from '../../core/lazy.js';

/**
 * The `ignore` package, loaded where a folder has rules: a tree without ignore files never needs it (50 KB of
 * code: ~15 M instructions of a re-mine to parse and run, issue 12).
 */
const loadIgnore = lazyRequire<typeof Ignore>('ignore');

/** Result of testing one path against one level's patterns. */
interface Verdict {
  ignored: boolean;
  unignored: boolean;
}

/** Tests a path against the patterns alone, without looking at its parent folders. */
type PathTest = (path: string) => Verdict;

function ownPathTest(patterns: string): PathTest {
  /** By depth: the patterns, then a re-inclusion of every folder shallower than that depth. */
  const byDepth: Ignore.Ignore[] = [];
  return (p) => {
    const depth = p.replace(/\/$/, '').split('/').length;
    let ig = byDepth[depth];
    if (ig === undefined) {
      const parents = Array.from({ length: depth - 1 }, (_, i) => `!/${'*/'.repeat(i + 1)}`);
      ig = byDepth[depth] = loadIgnore()().add([patterns, ...parents].join('\n'));
    }
    return ig.test(p);
  };
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
export function addLevel(
  parent: RuleLevel | undefined,
  patterns: readonly string[],
  base: string,
  prefix = '',
): RuleLevel | undefined {
  const text = patterns.filter((p) => p.trim() !== '');
  if (text.length === 0) return parent;
  // one string: `add` splits a string on line breaks, but takes each array element as one pattern
  return { test: ownPathTest(text.join('\n')), base, prefix, parent };
}

/**
 * Whether the root-relative `rel` is ignored. `extra` (caller patterns, root-relative) has the
 * highest precedence, then `levels` from the deepest folder up: the first level whose patterns
 * decide (ignore or re-include with `!`) wins, like git's "last matching pattern" over all files.
 */
export function isIgnored(
  rel: string,
  isDir: boolean,
  levels: RuleLevel | undefined,
  extra: RuleLevel | undefined,
): boolean {
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
interface RuleFs {
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
 * Rules read for the walked `root` beyond its own ignore files: only the `.git/info/exclude` of a
 * repository rooted at `root` itself (its `.git` folder sits inside the named path). Ignore files of
 * folders **above** `root` are never consulted: the user named this path, so a parent repository's
 * `.gitignore` (say, one excluding exported chats) must not hide it; the rules inside it apply.
 * `.git/info/exclude` is read only when `.git` is a folder (not for linked worktrees); the user's
 * global `core.excludesFile` is never read (it is not part of the project).
 */
export function outerLevels(fs: RuleFs, root: string, gitignore: boolean): RuleLevel | undefined {
  if (!gitignore || !exists(fs, join(root, '.git'))?.isDirectory()) return undefined;
  const exclude = readOptional(fs, join(root, '.git', 'info', 'exclude'));
  return exclude === undefined ? undefined : addLevel(undefined, [exclude], '');
}
