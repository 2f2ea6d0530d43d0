/**
 * @module ingest/project/walk
 * Lists the files of a project folder to mine: synchronous, sorted, never follows symlinks, prunes
 * skipped and ignored folders without entering them, and reports every file it will not hand over
 * (too large, binary, unreadable, symlink, special) instead of throwing.
 */
import * as nodeFs from 'node:fs';
import type { Dirent, Stats } from 'node:fs';
import { basename, resolve } from 'node:path';
import { createError, fsError } from '../../core/errors.js';
import { binaryPathReason } from './binary.js';
import { addLevel, isIgnored, outerLevels, type RuleLevel } from './ignore-rules.js';

/**
 * Folder names never entered (at any depth), unless the caller passes its own `skipDirs`:
 * VCS metadata (`.git .hg .svn .jj .bzr _darcs`), dependencies (`node_modules bower_components
 * vendor .yarn .pnpm-store`), build output (`dist build out target .next .nuxt .svelte-kit .turbo
 * .parcel-cache .angular .docusaurus .expo .serverless`), Python environments and caches (`.venv
 * venv env __pycache__ .mypy_cache .pytest_cache .ruff_cache .tox .nox .eggs .ipynb_checkpoints`,
 * and `*.egg-info`), other caches and reports (`.cache coverage htmlcov .nyc_output .gradle
 * .terraform .dart_tool elm-stuff .stack-work zig-cache zig-out DerivedData Pods`), editor settings
 * (`.idea .vscode`), and Loci's own home (`.loci`).
 * An entry starting with `*` matches by suffix. Files are never matched by this list (a script named
 * `build` is mined); OS metadata files such as `.DS_Store` are skipped as binary by name instead.
 */
const DEFAULT_SKIP_DIRS: readonly string[] = Object.freeze([
  '.git',
  '.hg',
  '.svn',
  '.jj',
  '.bzr',
  '_darcs',
  'node_modules',
  'bower_components',
  'vendor',
  '.yarn',
  '.pnpm-store',
  'dist',
  'build',
  'out',
  'target',
  '.next',
  '.nuxt',
  '.svelte-kit',
  '.turbo',
  '.parcel-cache',
  '.angular',
  '.docusaurus',
  '.expo',
  '.serverless',
  '.venv',
  'venv',
  'env',
  '__pycache__',
  '.mypy_cache',
  '.pytest_cache',
  '.ruff_cache',
  '.tox',
  '.nox',
  '.eggs',
  '.ipynb_checkpoints',
  '*.egg-info',
  '.cache',
  'coverage',
  'htmlcov',
  '.nyc_output',
  '.gradle',
  '.terraform',
  '.dart_tool',
  'elm-stuff',
  '.stack-work',
  'zig-cache',
  'zig-out',
  'DerivedData',
  'Pods',
  '.idea',
  '.vscode',
  '.loci',
]);

/** Default of {@link WalkOptions.maxFileBytes}: 2 MiB. */
export const DEFAULT_MAX_FILE_BYTES = 2 * 1024 * 1024;

/** The part of node:fs the walker uses; tests may pass a wrapper to simulate failures. */
export interface WalkFs {
  readdirSync(path: string, options: { withFileTypes: true }): Dirent[];
  lstatSync(path: string): Stats;
  statSync(path: string): Stats;
  readFileSync(path: string, encoding: 'utf8'): string;
  accessSync(path: string, mode?: number): void;
  readlinkSync(path: string): string;
}

/** Options of {@link walkProject}. */
export interface WalkOptions {
  /** Folder to walk (absolute; a relative path is resolved against the working directory), or a single file. */
  root: string;
  /** Files larger than this are yielded as skipped 'too-large'. Default 2 MiB; integer >= 0. */
  maxFileBytes?: number;
  /**
   * Honour `.gitignore` files at every level (scoped to their folder), `.git/info/exclude`, and the
   * ignore files of folders above `root` up to its git root. Default true. `.lociignore` files (same
   * syntax, same scoping) always apply.
   */
  respectGitignore?: boolean;
  /** gitignore-syntax patterns relative to `root`, with the highest precedence. Default none. */
  extraIgnores?: readonly string[];
  /** Folder names never entered; replaces {@link DEFAULT_SKIP_DIRS} when given. */
  skipDirs?: readonly string[];
  /**
   * Called for each folder or file left out silently (skip list or ignore rules), e.g. for `--verbose`. Default none.
   */
  onPrune?: (rel: string, why: 'skip-dir' | 'ignored') => void;
  /** File-system functions. Default node:fs. */
  fs?: WalkFs;
}

/** One entry reported by {@link walkProject}: a file to mine, or a file left out with its reason. */
export type WalkItem =
  | { kind: 'file'; path: string; rel: string; size: number; mtimeMs: number }
  | {
      kind: 'skipped';
      path: string;
      rel: string;
      reason: 'too-large' | 'binary' | 'unreadable' | 'symlink' | 'special';
      /**
       * too-large: "<size> bytes > <max>"; binary: why (extension .png, lockfile…); unreadable: errno code; symlink:
       * target; special: fifo/socket/device.
       */
      detail?: string;
    };

type EntryType = 'file' | 'dir' | 'symlink' | 'special';

interface Entry {
  name: string;
  key: string; // sort key: name, plus '/' for folders, so the walk order is the sorted order of paths
  type: EntryType;
}

interface Frame {
  abs: string;
  rel: string;
  entries: Entry[];
  i: number;
  rules: RuleLevel | undefined;
  unreadableRules: Map<string, string> | undefined;
}

function typeOf(d: Dirent | Stats): EntryType | undefined {
  if (d.isFile()) return 'file';
  if (d.isDirectory()) return 'dir';
  if (d.isSymbolicLink()) return 'symlink';
  if (d.isFIFO() || d.isSocket() || d.isCharacterDevice() || d.isBlockDevice()) return 'special';
  return undefined;
}

function specialKind(s: Stats): string {
  if (s.isFIFO()) return 'fifo';
  if (s.isSocket()) return 'socket';
  if (s.isCharacterDevice()) return 'char-device';
  if (s.isBlockDevice()) return 'block-device';
  return 'not a regular file';
}

/** `dir/name` (no doubled slash when dir is the file-system root). */
const childPath = (dir: string, name: string): string => (dir.endsWith('/') ? dir + name : `${dir}/${name}`);

const errno = (e: unknown): string =>
  (e as NodeJS.ErrnoException | undefined)?.code ?? String((e as Error)?.message ?? e);

function rootError(e: unknown, path: string): Error {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return createError('PATH_NOT_FOUND', { path }, e);
  return fsError(e, path, 'read');
}

/**
 * Walks a project folder and yields, in sorted path order (code-unit order, folders compared as
 * `name/`), every regular file to mine and every file left out for a reason the user should see.
 *
 * Left out silently (see `onPrune`): folders in `skipDirs` (never entered), paths matched by the
 * ignore rules (ignored folders are never entered, so `!` cannot re-include a file inside one — as in
 * git), and `.git` pointer files. Reported as 'skipped': symlinks (never followed), sockets/FIFOs/
 * devices ('special'), binary or generated files by name ({@link isBinaryPath}), files over
 * `maxFileBytes`, and entries the OS refuses to list or read ('unreadable', errno in `detail`).
 * File contents are never read here (except ignore files): content sniffing is the caller's job
 * ({@link looksBinary}). `rel` always uses `/`.
 *
 * When `root` is a file, it is yielded alone (ignore rules do not apply to an explicit file).
 * Validation and the root check run at call time, before the first `next()`.
 *
 * @throws LociError PATH_NOT_FOUND when root does not exist, PERMISSION_DENIED when it cannot be
 *   listed, INVALID_ARGUMENT for a bad option. Never for a single bad entry below root.
 */
export function walkProject(opts: WalkOptions): Generator<WalkItem> {
  const fs = opts.fs ?? (nodeFs as WalkFs);
  const maxBytes = opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  if (!Number.isInteger(maxBytes) || maxBytes < 0) {
    throw createError('INVALID_ARGUMENT', { name: 'maxFileBytes', value: maxBytes, expected: 'an integer >= 0' });
  }
  if (typeof opts.root !== 'string' || opts.root === '') {
    throw createError('INVALID_ARGUMENT', { name: 'root', value: opts.root, expected: 'a folder or file path' });
  }
  const root = resolve(opts.root);
  let st: Stats;
  try {
    st = fs.statSync(root);
  } catch (e) {
    throw rootError(e, root);
  }
  const ctx: Ctx = {
    fs,
    realFs: opts.fs === undefined,
    maxBytes,
    gitignore: opts.respectGitignore ?? true,
    skip: new Set((opts.skipDirs ?? DEFAULT_SKIP_DIRS).filter((s) => !s.startsWith('*'))),
    skipSuffixes: (opts.skipDirs ?? DEFAULT_SKIP_DIRS).filter((s) => s.startsWith('*')).map((s) => s.slice(1)),
    extra: addLevel(undefined, opts.extraIgnores ?? [], ''),
    onPrune: opts.onPrune,
  };
  if (!st.isDirectory()) return walkSingle(ctx, root, st);
  let dirents: Dirent[];
  try {
    dirents = fs.readdirSync(root, { withFileTypes: true });
  } catch (e) {
    throw rootError(e, root);
  }
  return walkTree(ctx, root, dirents, outerLevels(fs, root, ctx.gitignore));
}

interface Ctx {
  fs: WalkFs;
  /** `fs` is Node's own (an injected one answers `accessSync` itself). */
  realFs: boolean;
  maxBytes: number;
  gitignore: boolean;
  skip: Set<string>;
  skipSuffixes: string[];
  extra: RuleLevel | undefined;
  onPrune: WalkOptions['onPrune'];
}

function* walkSingle(ctx: Ctx, path: string, st: Stats): Generator<WalkItem> {
  const rel = basename(path);
  if (!st.isFile()) {
    yield { kind: 'skipped', path, rel, reason: 'special', detail: specialKind(st) };
    return;
  }
  yield fileItem(ctx, path, rel, st);
}

/** The item for a regular file whose stat is known (`named`: its name was checked by `binaryPathReason` already). */
function fileItem(ctx: Ctx, path: string, rel: string, st: Stats, named = false): WalkItem {
  const why = named ? null : binaryPathReason(rel);
  if (why !== null) return { kind: 'skipped', path, rel, reason: 'binary', detail: why };
  if (st.size > ctx.maxBytes)
    return { kind: 'skipped', path, rel, reason: 'too-large', detail: `${st.size} bytes > ${ctx.maxBytes}` };
  if (!(ctx.realFs && readableByMode(st))) {
    try {
      ctx.fs.accessSync(path, nodeFs.constants.R_OK);
    } catch (e) {
      return { kind: 'skipped', path, rel, reason: 'unreadable', detail: errno(e) };
    }
  }
  return { kind: 'file', path, rel, size: st.size, mtimeMs: st.mtimeMs };
}

const UID = process.getuid?.();
const GIDS = new Set(process.getgroups?.() ?? []);
if (process.getgid) GIDS.add(process.getgid());

/**
 * True when the stat's owner and permission bits let this process read the file — the answer of
 * `access(R_OK)` without one system call per file (which a re-mine of an unchanged tree paid for every
 * file). False when they cannot tell (no POSIX ids, e.g. Windows) or deny: then `access` decides and
 * names the error. A file an ACL denies is reported when reading it fails.
 */
function readableByMode(st: Stats): boolean {
  if (UID === undefined) return false;
  if (UID === 0) return true;
  if (st.uid === UID) return (st.mode & 0o400) !== 0;
  if (GIDS.has(st.gid)) return (st.mode & 0o040) !== 0;
  return (st.mode & 0o004) !== 0;
}

/** Builds a folder's frame: sorted entries, and its ignore files read into a new rule level. */
function openFrame(ctx: Ctx, abs: string, rel: string, dirents: Dirent[], parentRules: RuleLevel | undefined): Frame {
  const entries: Entry[] = [];
  let hasGitignore = false;
  let hasLociignore = false;
  for (const d of dirents) {
    const name = d.name;
    let type = typeOf(d);
    if (type === undefined) {
      try {
        type = typeOf(ctx.fs.lstatSync(childPath(abs, name))) ?? 'special';
      } catch {
        type = 'file'; // reported as unreadable when its stat fails again
      }
    }
    if (name === '.gitignore' && type === 'file') hasGitignore = true;
    if (name === '.lociignore' && type === 'file') hasLociignore = true;
    entries.push({ name, key: type === 'dir' ? `${name}/` : name, type });
  }
  entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  let rules = parentRules;
  let unreadableRules: Map<string, string> | undefined;
  const texts: string[] = [];
  const read = (name: string): void => {
    try {
      texts.push(ctx.fs.readFileSync(childPath(abs, name), 'utf8'));
    } catch (e) {
      (unreadableRules ??= new Map()).set(name, errno(e));
    }
  };
  if (hasGitignore && ctx.gitignore) read('.gitignore');
  if (hasLociignore) read('.lociignore');
  if (texts.length > 0) rules = addLevel(parentRules, texts, rel === '' ? '' : `${rel}/`);
  return { abs, rel, entries, i: 0, rules, unreadableRules };
}

function* walkTree(ctx: Ctx, root: string, dirents: Dirent[], outer: RuleLevel | undefined): Generator<WalkItem> {
  const stack: Frame[] = [openFrame(ctx, root, '', dirents, outer)];
  while (stack.length > 0) {
    const f = stack[stack.length - 1]!;
    if (f.i >= f.entries.length) {
      stack.pop();
      continue;
    }
    const { name, type } = f.entries[f.i++]!;
    const rel = f.rel === '' ? name : `${f.rel}/${name}`;
    const path = childPath(f.abs, name);
    if (type === 'dir') {
      if (ctx.skip.has(name) || ctx.skipSuffixes.some((s) => name.endsWith(s))) {
        ctx.onPrune?.(rel, 'skip-dir');
        continue;
      }
      if (isIgnored(rel, true, f.rules, ctx.extra)) {
        ctx.onPrune?.(rel, 'ignored');
        continue;
      }
      let sub: Dirent[];
      try {
        sub = ctx.fs.readdirSync(path, { withFileTypes: true });
      } catch (e) {
        yield { kind: 'skipped', path, rel, reason: 'unreadable', detail: errno(e) };
        continue;
      }
      stack.push(openFrame(ctx, path, rel, sub, f.rules));
      continue;
    }
    if (name === '.git' || isIgnored(rel, false, f.rules, ctx.extra)) {
      ctx.onPrune?.(rel, name === '.git' ? 'skip-dir' : 'ignored');
      continue;
    }
    const ruleError = f.unreadableRules?.get(name);
    if (ruleError !== undefined) {
      yield { kind: 'skipped', path, rel, reason: 'unreadable', detail: ruleError };
      continue;
    }
    if (type === 'symlink') {
      let target: string | undefined;
      try {
        target = ctx.fs.readlinkSync(path);
      } catch {
        target = undefined;
      }
      yield target === undefined
        ? { kind: 'skipped', path, rel, reason: 'symlink' }
        : { kind: 'skipped', path, rel, reason: 'symlink', detail: target };
      continue;
    }
    const binary = type === 'file' ? binaryPathReason(rel) : null;
    if (binary !== null) {
      yield { kind: 'skipped', path, rel, reason: 'binary', detail: binary };
      continue;
    }
    let st: Stats;
    try {
      st = ctx.fs.lstatSync(path);
    } catch (e) {
      yield { kind: 'skipped', path, rel, reason: 'unreadable', detail: errno(e) };
      continue;
    }
    if (!st.isFile()) {
      yield {
        kind: 'skipped',
        path,
        rel,
        reason: st.isSymbolicLink() ? 'symlink' : 'special',
        detail: specialKind(st),
      };
      continue;
    }
    yield fileItem(ctx, path, rel, st, type === 'file');
  }
}
