/**
 * @module memdir/resolve
 * Where memory lives: Claude Code's auto-memory directory (resolved the way Claude Code does, A1),
 * Loci's own per-project directory for other agents, the user-level directory, and the choice
 * between them for `loci memory …`.
 */
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { resolveHome, homePaths, readSettings as readEnv, processEnv } from '../core/env.js';
import { sha256 } from '../core/hash.js';
import {
  findGit,
  normalizeRemoteUrl,
  preferredRemoteUrl,
  rootCommit,
  GIT_TIMEOUT_MS,
  type GitInfo,
} from '../core/git.js';
import { slugify } from './slug.js';
import { mergeMemoryDir, tidyMemoryDir, type MergeReport, type TidyReport } from './open.js';

/** Options shared by the resolvers. */
export interface ResolveOptions {
  /** Directory to resolve from. Default `process.cwd()`. */
  cwd?: string;
  /** Environment. Default: the process's (`core/env.ts`). */
  env?: NodeJS.ProcessEnv;
  /** The user's home directory. Default `env.HOME`, else `os.homedir()`. */
  home?: string;
  /** Loci home. Default `resolveHome(undefined, env)` (`$LOCI_HOME` or `~/.loci`). */
  lociHome?: string;
  /**
   * Managed (policy) settings file, highest precedence. Default by platform
   * (`/etc/claude-code/managed-settings.json` on Linux); `null` disables it.
   */
  managedSettingsPath?: string | null;
  /** Platform for default paths. Default `process.platform`. */
  platform?: NodeJS.Platform;
  /** Timeout of git subprocesses in ms. Default 1500. */
  gitTimeoutMs?: number;
}

/** Claude Code's longest sanitised project directory name before a hash suffix is added. */
const MAX_SANITIZED_LENGTH = 200;

/** `CLAUDE_CODE_PROJECT_DIR_NAME` must match this. */
const PROJECT_DIR_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

function userHome(o: ResolveOptions, env: NodeJS.ProcessEnv): string {
  const s = readEnv(env);
  return o.home ?? s.userHome ?? s.userProfile ?? homedir();
}

function expandTilde(p: string, home: string): string {
  if (p === '~') return home;
  return p.startsWith('~/') || p.startsWith('~\\') ? join(home, p.slice(2)) : p;
}

function realCwd(cwd: string): string {
  try {
    return realpathSync(cwd);
  } catch {
    return resolve(cwd);
  }
}

/** Claude Code's fallback string hash (djb2, base 36). Native builds use Bun's hash instead. */
function djb2Base36(s: string): string {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = ((h << 5) - h + s.charCodeAt(i)) | 0;
  return Math.abs(h).toString(36);
}

/**
 * Claude Code's project-directory rule: every character outside `[a-zA-Z0-9]` (per UTF-16 code
 * unit) becomes `-`; names over 200 characters keep the first 200 plus `-<hash>`.
 */
export function sanitizeProjectPath(p: string): string {
  const s = p.replace(/[^a-zA-Z0-9]/g, '-');
  return s.length <= MAX_SANITIZED_LENGTH ? s : `${s.slice(0, MAX_SANITIZED_LENGTH)}-${djb2Base36(p)}`;
}

/**
 * The directory name under `<config>/projects/` for `root`. For long paths the hash Claude Code
 * used cannot be recomputed reliably, so an existing directory with the same 200-character prefix
 * is looked for (one holding `memory/` first, then the newest); only when none exists is the djb2
 * form returned.
 */
function claudeProjectKey(
  root: string,
  projectsDir: string,
): { key: string; matched: 'exact' | 'prefix' | 'computed' } {
  const s = root.replace(/[^a-zA-Z0-9]/g, '-');
  if (s.length <= MAX_SANITIZED_LENGTH) return { key: s, matched: 'exact' };
  const prefix = s.slice(0, MAX_SANITIZED_LENGTH) + '-';
  let names: string[] = [];
  try {
    names = readdirSync(projectsDir).filter((n) => n.startsWith(prefix));
  } catch {
    names = [];
  }
  const ranked = names
    .map((n) => {
      let mtime = 0;
      try {
        mtime = statSync(join(projectsDir, n)).mtimeMs;
      } catch {
        /* vanished */
      }
      return { n, mem: existsSync(join(projectsDir, n, 'memory')), mtime };
    })
    .sort((a, b) => Number(b.mem) - Number(a.mem) || b.mtime - a.mtime || a.n.localeCompare(b.n));
  if (ranked[0]) return { key: ranked[0].n, matched: 'prefix' };
  return { key: sanitizeProjectPath(root), matched: 'computed' };
}

/** The managed settings file for a platform. */
function managedSettingsPath(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return '/Library/Application Support/ClaudeCode/managed-settings.json';
  if (platform === 'win32') return 'C:\\Program Files\\ClaudeCode\\managed-settings.json';
  return '/etc/claude-code/managed-settings.json';
}

interface SettingsLayer {
  file: string;
  data: Record<string, unknown>;
}

function readSettings(file: string, warnings: string[]): SettingsLayer | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const data: unknown = JSON.parse(text);
    if (data && typeof data === 'object' && !Array.isArray(data))
      return { file, data: data as Record<string, unknown> };
    warnings.push(`${file} is not a JSON object; ignored`);
  } catch (e) {
    warnings.push(`${file} is not valid JSON (${(e as Error).message}); ignored`);
  }
  return undefined;
}

/** Where Claude Code keeps auto memory for a directory, and why. */
export interface ClaudeMemoryLocation {
  /** The memory directory (absolute, no trailing separator). */
  dir: string;
  /** `<config>/projects/<key>` (undefined when `autoMemoryDirectory` decides). */
  projectDir?: string;
  /** Claude Code's config root (`$CLAUDE_CONFIG_DIR` or `~/.claude`). */
  configDir: string;
  /** The canonical project root (main worktree root, or the cwd outside git). */
  projectRoot: string;
  /** What decided the directory. */
  source: 'autoMemoryDirectory' | 'CLAUDE_CODE_PROJECT_DIR_NAME' | 'git' | 'cwd';
  /** One sentence explaining the choice. */
  reason: string;
  /** False when `CLAUDE_CODE_DISABLE_AUTO_MEMORY` or `autoMemoryEnabled: false` turns it off. */
  enabled: boolean;
  /** The memory directory exists. */
  exists: boolean;
  /** Git facts, when inside a repository. */
  git?: GitInfo;
  /** Problems met (bad settings files, invalid overrides), none fatal. */
  warnings: string[];
}

/** Resolves Claude Code's auto-memory directory for `cwd` (A1). Never throws. */
export function resolveClaudeMemoryDir(o: ResolveOptions = {}): ClaudeMemoryLocation {
  const env = o.env ?? processEnv();
  const vars = readEnv(env);
  const home = userHome(o, env);
  const cwd = realCwd(o.cwd ?? process.cwd());
  const warnings: string[] = [];
  const configDir = resolve(expandTilde(vars.claudeConfigDir || join(home, '.claude'), home)).normalize('NFC');
  const git = findGit(cwd, o.gitTimeoutMs ?? GIT_TIMEOUT_MS);
  const projectRoot = git?.canonicalRoot ?? cwd.normalize('NFC');

  // Settings layers, later wins: user < project < local < managed. Project and local settings are
  // read from the cwd, else from the worktree top level (where Claude Code is usually started).
  const projectBase = [cwd, ...(git && git.topLevel !== cwd ? [git.topLevel] : [])];
  const firstExisting = (rel: string) => projectBase.map((b) => join(b, rel)).find((p) => existsSync(p));
  const files = [
    join(configDir, 'settings.json'),
    firstExisting(join('.claude', 'settings.json')),
    firstExisting(join('.claude', 'settings.local.json')),
    o.managedSettingsPath === null ? undefined : (o.managedSettingsPath ?? managedSettingsPath(o.platform)),
  ];
  const layers = files.flatMap((f) => (f ? [readSettings(f, warnings)].filter((l): l is SettingsLayer => !!l) : []));

  let enabled = true;
  let disabledBy = '';
  for (const l of layers) {
    const v = l.data['autoMemoryEnabled'];
    if (typeof v === 'boolean') {
      enabled = v;
      disabledBy = v ? '' : `autoMemoryEnabled: false in ${l.file}`;
    }
  }
  if (vars.claudeAutoMemoryDisabled) {
    enabled = false;
    disabledBy = 'CLAUDE_CODE_DISABLE_AUTO_MEMORY is set';
  }
  const done = (
    r: Omit<ClaudeMemoryLocation, 'configDir' | 'projectRoot' | 'enabled' | 'exists' | 'warnings' | 'git'>,
  ): ClaudeMemoryLocation => ({
    ...r,
    configDir,
    projectRoot,
    enabled,
    exists: existsSync(r.dir),
    ...(git ? { git } : {}),
    warnings: enabled ? warnings : [...warnings, `auto memory is off: ${disabledBy}`],
  });

  let override: { dir: string; file: string } | undefined;
  for (const l of layers) {
    const v = l.data['autoMemoryDirectory'];
    if (v === undefined || v === null || v === '') continue;
    const expanded = typeof v === 'string' ? expandTilde(v, home) : '';
    if (typeof v === 'string' && isAbsolute(expanded)) override = { dir: resolve(expanded), file: l.file };
    else warnings.push(`autoMemoryDirectory ${JSON.stringify(v)} in ${l.file} is neither absolute nor ~/…; ignored`);
  }
  if (override) {
    return done({
      dir: override.dir,
      source: 'autoMemoryDirectory',
      reason: `autoMemoryDirectory is set in ${override.file}`,
    });
  }

  const projectsDir = join(configDir, 'projects');
  const pinned = vars.claudeProjectDirName;
  if (pinned) {
    if (!vars.claudeConfigDir) warnings.push('CLAUDE_CODE_PROJECT_DIR_NAME is ignored without CLAUDE_CONFIG_DIR');
    else if (!PROJECT_DIR_NAME_PATTERN.test(pinned))
      warnings.push(
        `CLAUDE_CODE_PROJECT_DIR_NAME ${JSON.stringify(pinned)} is not 1-64 characters of [A-Za-z0-9_-]; ignored`,
      );
    else {
      const projectDir = join(projectsDir, pinned);
      return done({
        dir: join(projectDir, 'memory'),
        projectDir,
        source: 'CLAUDE_CODE_PROJECT_DIR_NAME',
        reason: `CLAUDE_CODE_PROJECT_DIR_NAME=${pinned} with CLAUDE_CONFIG_DIR pins the project folder`,
      });
    }
  }

  const { key, matched } = claudeProjectKey(projectRoot, projectsDir);
  const projectDir = join(projectsDir, key);
  const from = git
    ? git.canonicalRoot === git.topLevel
      ? `the git repository at ${projectRoot}`
      : `the git common dir ${git.commonDir} (shared by all worktrees; this one is ${git.topLevel})`
    : `the directory ${projectRoot} (not in a git repository)`;
  const long =
    matched === 'prefix'
      ? '; long path matched by its 200-character prefix'
      : matched === 'computed'
        ? '; long path, hash suffix computed (no existing folder found)'
        : '';
  return done({
    dir: join(projectDir, 'memory'),
    projectDir,
    source: git ? 'git' : 'cwd',
    reason: `derived from ${from}${long}`,
  });
}

/** Loci's stable project identity. */
interface LociProject {
  /** `<slug>-<8 hex>`, e.g. `loci-3fa2c1d0`. */
  id: string;
  /** Canonical project root on this machine. */
  root: string;
  /** What the id was derived from. */
  source: 'remote' | 'commit' | 'path';
  /** The key hashed: normalised remote URL, root commit hash or absolute path. */
  key: string;
}

function makeId(name: string, key: string): string {
  let slug = slugify(name || 'project');
  if (slug.length > 40) slug = slug.slice(0, 40).replace(/-+$/, '');
  return `${slug}-${sha256(key).slice(0, 8)}`;
}

/**
 * The project id, stable across machines and worktrees: from the normalised URL of `origin` (else
 * the first remote), else the repository's root commit, else (last resort) the absolute path of the
 * project root.
 */
export function lociProjectId(o: ResolveOptions = {}): LociProject {
  const cwd = realCwd(o.cwd ?? process.cwd());
  const timeout = o.gitTimeoutMs ?? GIT_TIMEOUT_MS;
  const git = findGit(cwd, timeout);
  const root = git?.canonicalRoot ?? cwd;
  if (git) {
    const url = preferredRemoteUrl(git, timeout);
    const norm = url ? normalizeRemoteUrl(url) : '';
    if (norm) return { id: makeId(norm.split('/').pop() ?? '', `remote:${norm}`), root, source: 'remote', key: norm };
    const commit = rootCommit(git, timeout);
    if (commit) return { id: makeId(basename(root), `commit:${commit}`), root, source: 'commit', key: commit };
  }
  return { id: makeId(basename(root), `path:${root}`), root, source: 'path', key: root };
}

/** `<lociHome>/projects/<id>/memory`. */
function lociMemoryDir(lociHome: string, projectId: string): string {
  return join(homePaths(lociHome).projects, projectId, 'memory');
}

/** Name of the pseudo-project holding user-level memories. */
const USER_PROJECT_ID = '_user';

/** User-level memories that follow the user across projects: `<lociHome>/projects/_user/memory`. */
function lociUserMemoryDir(lociHome: string): string {
  return lociMemoryDir(lociHome, USER_PROJECT_ID);
}

/** Options of {@link selectMemoryDir}. */
export interface SelectOptions extends ResolveOptions {
  /** `--dir DIR`: use this directory, whatever else is found. */
  dir?: string;
  /** `--claude`: use Claude Code's directory even when it does not exist yet. Default false. */
  claude?: boolean;
  /** `--user`: use the user-level directory (memories that follow the user). Default false. */
  user?: boolean;
  /**
   * Only resolve: do not open the chosen directory (no merge of Loci's own memories into Claude
   * Code's directory, no temp-file clean-up, no index repair; see `open.ts`). Default false.
   */
  readOnly?: boolean;
}

/** The directory `loci memory …` works on, and why. */
export interface MemoryDirChoice {
  dir: string;
  kind: 'claude' | 'loci' | 'explicit';
  reason: string;
  projectRoot: string;
  projectId: string;
  /** Claude Code's location (always resolved, for `where`). */
  claude: ClaudeMemoryLocation;
  /** Loci's own directory for this project. */
  lociDir: string;
  /** The user-level directory. */
  userDir: string;
  /**
   * Set when opening moved memories from Loci's own directory into Claude Code's (the first time
   * Claude Code's directory is chosen), or failed to move some.
   */
  merged?: MergeReport;
  /** Set when opening removed stale temp files, repaired MEMORY.md or met a problem. */
  tidied?: TidyReport;
}

/**
 * `--dir` > `--user` > Claude Code's directory (when it exists, or `--claude`) > Loci's own. Unless
 * `readOnly`, the chosen directory is then opened: when it is Claude Code's, memories in Loci's own
 * directory for this project are merged into it (never left behind); stale temp files are removed
 * and MEMORY.md is repaired when it disagrees with the files. Never throws for these.
 */
export function selectMemoryDir(o: SelectOptions = {}): MemoryDirChoice {
  const choice = chooseMemoryDir(o);
  if (o.readOnly) return choice;
  if (choice.kind === 'claude' && resolve(choice.lociDir) !== resolve(choice.dir)) {
    const merged = mergeMemoryDir(choice.lociDir, choice.dir);
    if (merged.moved.length || merged.errors.length) choice.merged = merged;
  }
  const tidied = tidyMemoryDir(choice.dir);
  if (tidied.removedTemps.length || tidied.indexRepaired || tidied.errors.length) choice.tidied = tidied;
  return choice;
}

function chooseMemoryDir(o: SelectOptions): MemoryDirChoice {
  const env = o.env ?? processEnv();
  const lociHome = o.lociHome ?? resolveHome(undefined, env);
  const claude = resolveClaudeMemoryDir(o);
  const project = lociProjectId(o);
  const lociDir = lociMemoryDir(lociHome, project.id);
  const base = {
    projectRoot: project.root,
    projectId: project.id,
    claude,
    lociDir,
    userDir: lociUserMemoryDir(lociHome),
  };
  if (o.dir !== undefined) {
    const dir = resolve(o.cwd ?? process.cwd(), expandTilde(o.dir, userHome(o, env)));
    return { ...base, dir, kind: 'explicit', reason: `--dir ${o.dir} was given` };
  }
  if (o.user)
    return {
      ...base,
      dir: base.userDir,
      kind: 'loci',
      reason: `--user was given: user-level memories live in Loci's ${USER_PROJECT_ID} project`,
    };
  if (o.claude)
    return {
      ...base,
      dir: claude.dir,
      kind: 'claude',
      reason: `--claude was given; Claude Code's directory is ${claude.reason}`,
    };
  if (claude.enabled && claude.exists) {
    return {
      ...base,
      dir: claude.dir,
      kind: 'claude',
      reason: `Claude Code's memory directory exists (${claude.reason})`,
    };
  }
  if (claude.enabled && claude.source !== 'autoMemoryDirectory' && claude.projectDir && existsSync(claude.projectDir)) {
    return {
      ...base,
      dir: claude.dir,
      kind: 'claude',
      reason:
        `Claude Code is in use here (${claude.projectDir} exists); memory goes where it will look ` +
        `(${claude.reason})`,
    };
  }
  const why = claude.enabled
    ? `Claude Code has no memory directory for this project (${claude.dir} does not exist)`
    : (claude.warnings.at(-1) ?? 'Claude Code auto memory is off');
  return {
    ...base,
    dir: lociDir,
    kind: 'loci',
    reason:
      `${why}; using Loci's own directory, id ${project.id} from the ` +
      (project.source === 'remote'
        ? `remote ${project.key}`
        : project.source === 'commit'
          ? `root commit ${project.key.slice(0, 12)}`
          : `path ${project.key}`),
  };
}
