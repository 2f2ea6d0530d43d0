/**
 * @module hooks/install
 * `loci hooks install`: merges Loci's hook handlers into a Claude Code settings file.
 *
 * - Files by scope: `project` → `<project root>/.claude/settings.json` (shared, usually
 *   committed), `local` → `<project root>/.claude/settings.local.json` (personal; the default),
 *   `user` → `$CLAUDE_CONFIG_DIR/settings.json` or `~/.claude/settings.json`. Project root = the
 *   git root of the cwd, else the cwd.
 * - Merge: read → change only Loci's handlers → write atomically. A handler is Loci's when its
 *   command runs `dist/hooks/main.js <event>` or `loci hook <event>` ({@link isLociCommand}).
 *   An existing Loci handler is replaced in place (its group, matcher and position are kept);
 *   extra Loci handlers are removed; when none exists a new group is appended. Other handlers,
 *   other events and every other key are untouched; key order, indentation (2 spaces for a new
 *   file) and the final newline are kept. Unchanged content is not rewritten (a second run is a
 *   no-op). `uninstall` removes only Loci's handlers and the groups and event lists they leave empty.
 * - Command: `<launcher> hook <event>`, plus `--home DIR` when the home is not the default. The
 *   launcher never pins the absolute Node binary, so a Node upgrade (nvm, Homebrew, a new
 *   installer) does not break the hooks; it is, by `core/launcher.ts`: `"$CLAUDE_PROJECT_DIR"/
 *   node_modules/.bin/loci` when the project depends on this Loci (what `npx loci` runs; Claude
 *   Code sets `CLAUDE_PROJECT_DIR` for hooks, so moving the project is fine too), `loci` when it is
 *   on PATH (global install), else `node <abs>/bin/loci.js` (node found at run time; moving this
 *   package needs a re-install, which the notes say). `bin/loci.js hook …` goes straight to the
 *   light hook entry, so it starts as fast as `dist/hooks/main.js`. Timeouts: 10 s for
 *   user-prompt-submit and session-start (they may read the palace), 5 s elsewhere (they only
 *   queue work).
 * - Git: a `.claude/settings.local.json` that Loci creates inside a git repository is git-ignored
 *   (a `settings.local.json` line in `.claude/.gitignore`, added once) unless git already ignores it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import {
  createError,
  findGitRoot,
  lociBin,
  lociLaunch,
  resolveHome,
  writeFileAtomic,
  readJsonObjectFile,
  isJsonObject,
  type LociLaunch,
  processEnv,
  readSettings,
} from '../internal.js';
import { HOOK_EVENT_NAMES, HOOK_EVENTS, type HookEvent } from './protocol.js';

/** Which settings file. */
export type HooksInstallScope = 'project' | 'local' | 'user';

/** Options of {@link installHooks}. */
export interface HooksInstallOptions {
  /** Default `local` (`.claude/settings.local.json`: personal, not committed). */
  scope?: HooksInstallScope | undefined;
  /** Remove Loci's handlers instead. Default false. */
  uninstall?: boolean | undefined;
  /** Compute and return the file's new content without writing. Default false. */
  print?: boolean | undefined;
  /** Default `process.cwd()`. */
  cwd?: string | undefined;
  /** Default: the process's (`core/env.ts`; `CLAUDE_CONFIG_DIR`, `LOCI_HOME`, `HOME`). */
  env?: NodeJS.ProcessEnv | undefined;
  /**
   * Loci home the hooks use; added as `--home` when it is not the default `~/.loci`. Default: `LOCI_HOME` or the
   * default.
   */
  home?: string | undefined;
  /** This package's `bin/loci.js` (the launcher's target). Default: found from this module. */
  bin?: string | undefined;
  /** Events to install. Default all six. */
  events?: readonly HookEvent[] | undefined;
}

/** One handler as written. */
export interface HookHandler {
  type: 'command';
  command: string;
  timeout: number;
}

/** What {@link installHooks} did. */
export interface HooksInstallResult {
  scope: HooksInstallScope;
  /** The settings file. */
  file: string;
  /**
   * `created`/`updated`/`unchanged`/`removed`: the file; `absent`: nothing to uninstall; `printed`: nothing written.
   */
  action: 'created' | 'updated' | 'unchanged' | 'removed' | 'absent' | 'printed';
  /** Loci's handler per Claude Code event name (empty after uninstall). */
  handlers: Record<string, HookHandler>;
  /** The whole file as written (or as it would be). */
  json: string;
  /** Things the user should know. */
  notes: string[];
}

/** Timeout of each handler, in seconds. */
const HOOK_TIMEOUTS: Readonly<Record<HookEvent, number>> = {
  'session-start': 10,
  'user-prompt-submit': 10,
  stop: 5,
  'pre-compact': 5,
  'post-compact': 5,
  'session-end': 5,
};

const EVENT_ALT = HOOK_EVENTS.join('|');
const LOCI_COMMAND = [
  new RegExp(`[\\\\/]hooks[\\\\/]main\\.js['"]?\\s+(?:${EVENT_ALT})(?:\\s|$)`),
  new RegExp(`\\bloci(?:\\.js)?['"]?\\s+(?:--home\\s+\\S+\\s+)?hook\\s+(?:${EVENT_ALT})(?:\\s|$)`),
];

/** True when a hook command is one of Loci's (`…/hooks/main.js <event>` or `loci hook <event>`). */
function isLociCommand(command: unknown): boolean {
  return typeof command === 'string' && LOCI_COMMAND.some((re) => re.test(command));
}

/** POSIX shell quoting of one word (Claude Code runs commands through a shell). */
function quoteWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The settings file of a scope. */
function settingsPath(scope: HooksInstallScope, cwd: string, env: NodeJS.ProcessEnv): string {
  if (scope === 'user') {
    const vars = readSettings(env);
    const config = vars.claudeConfigDir || join(vars.userHome || homedir(), '.claude');
    return join(config, 'settings.json');
  }
  const root = findGitRoot(cwd) ?? resolve(cwd);
  return join(root, '.claude', scope === 'project' ? 'settings.json' : 'settings.local.json');
}

function detectIndent(text: string): string | number {
  const m = /^[{[][ \t]*\r?\n([ \t]+)\S/.exec(text);
  return m ? (m[1]!.startsWith('\t') ? '\t' : m[1]!.length) : 2;
}

/** Merges (or removes) Loci's handlers in a parsed `hooks` object; returns the new object. */
function mergeHooks(
  hooks: Record<string, unknown>,
  wanted: Partial<Record<string, HookHandler>>,
  file: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...hooks };
  for (const event of HOOK_EVENTS) {
    const name = HOOK_EVENT_NAMES[event];
    const want = wanted[name];
    const groups = out[name];
    if (groups !== undefined && !Array.isArray(groups))
      throw createError('HOOKS_SETTINGS_INVALID', { path: file, reason: `"hooks.${name}" is not a list` });
    let placed = false;
    const next: unknown[] = [];
    for (const g of (groups as unknown[] | undefined) ?? []) {
      if (!isJsonObject(g) || !Array.isArray(g['hooks'])) {
        next.push(g);
        continue;
      }
      const handlers: unknown[] = [];
      let hadLoci = false;
      for (const h of g['hooks'] as unknown[]) {
        if (isJsonObject(h) && isLociCommand(h['command'])) {
          hadLoci = true;
          if (want && !placed) {
            handlers.push({ ...h, ...want });
            placed = true;
          }
        } else handlers.push(h);
      }
      if (hadLoci && handlers.length === 0) continue; // a group that only held Loci's handler
      next.push(hadLoci ? { ...g, hooks: handlers } : g);
    }
    if (want && !placed) next.push({ hooks: [want] });
    if (next.length) out[name] = next;
    else delete out[name];
  }
  return out;
}

function launchNotes(
  launch: LociLaunch,
  bin: string,
  scope: HooksInstallScope,
  file: string,
  pinnedHome: boolean,
): string[] {
  const notes: string[] = [];
  if (!existsSync(join(dirname(dirname(bin)), 'dist', 'hooks', 'main.js')))
    notes.push(
      `${bin} has no build next to it yet: run \`npm run build\` in the Loci package, or the hooks will fail ` +
        '(open) until it does',
    );
  if (launch.kind === 'node') {
    notes.push(
      launch.ephemeral
        ? `this Loci runs from npx's temporary cache (${bin}); the hooks break when npm cleans it: install Loci in ` +
            `the project (\`npm i -D loci\`) or globally (\`npm i -g loci\`) and run \`loci hooks install\` again`
        : `the hooks run ${bin} with the \`node\` on PATH: after moving or removing this Loci, run \`loci hooks ` +
            `install\` again (a project or global install of Loci avoids machine paths)`,
    );
  }
  if (scope === 'project' && (launch.kind === 'node' || pinnedHome))
    notes.push(
      `${file} is usually committed: its commands hold paths of this machine; use --scope local to keep them private`,
    );
  return notes;
}

/**
 * Makes git ignore a `.claude/settings.local.json` that Loci just created: nothing when git already
 * ignores it, else a `settings.local.json` line in `.claude/.gitignore` (created, or appended to
 * once). Returns a note for the user, or undefined when nothing was done. Never throws.
 */
function ignoreLocalSettings(root: string, file: string): string | undefined {
  try {
    const check = spawnSync('git', ['check-ignore', '-q', '--', file], { cwd: root, stdio: 'ignore', timeout: 5000 });
    if (check.status === 0) return undefined;
    const ignoreFile = join(dirname(file), '.gitignore');
    const name = basename(file);
    let text = '';
    try {
      text = readFileSync(ignoreFile, 'utf8');
    } catch {
      text = '';
    }
    if (text.split(/\r?\n/).some((l) => l.trim() === name || l.trim() === `/${name}`)) return undefined;
    const head =
      text === ''
        ? '# Personal Claude Code settings: not for committing (added by `loci hooks install`)\n'
        : text.endsWith('\n')
          ? ''
          : '\n';
    writeFileAtomic(ignoreFile, `${text}${head}${name}\n`);
    return `added ${name} to ${ignoreFile}: it is personal and holds paths of this machine`;
  } catch (e) {
    return `could not git-ignore ${file} (${(e as Error).message}); add it to your .gitignore`;
  }
}

/** Installs, uninstalls or prints Loci's Claude Code hooks (see the module comment). */
export function installHooks(o: HooksInstallOptions = {}): HooksInstallResult {
  const scope = o.scope ?? 'local';
  if (!['project', 'local', 'user'].includes(scope))
    throw createError('INVALID_ARGUMENT', { name: '--scope', value: scope, expected: 'project, local or user' });
  const env = o.env ?? processEnv();
  const cwd = o.cwd ?? process.cwd();
  const file = settingsPath(scope, cwd, env);
  const root = findGitRoot(cwd) ?? resolve(cwd);
  const bin = o.bin ?? lociBin();
  const launch = lociLaunch({ env, bin, ...(scope !== 'user' ? { projectRoot: root } : {}) });
  // The project form is already shell text (`"$CLAUDE_PROJECT_DIR"/…`, expanded by the hook shell).
  const launcher =
    launch.kind === 'project' ? launch.command : [launch.command, ...launch.args].map(quoteWord).join(' ');
  const home = resolveHome(o.home, env);
  const defaultHome = resolveHome(undefined, { ...env, LOCI_HOME: undefined });
  const homeArgs = home !== defaultHome ? ` --home ${quoteWord(home)}` : '';
  const events = o.events ?? HOOK_EVENTS;
  const handlers: Record<string, HookHandler> = {};
  if (!o.uninstall) {
    for (const e of events) {
      handlers[HOOK_EVENT_NAMES[e]] = {
        type: 'command',
        command: `${launcher} hook ${e}${homeArgs}`,
        timeout: HOOK_TIMEOUTS[e],
      };
    }
  }
  const notes: string[] = [];
  if (!o.uninstall) notes.push(...launchNotes(launch, bin, scope, file, homeArgs !== ''));

  const { original, doc } = readJsonObjectFile(file, (reason) =>
    createError('HOOKS_SETTINGS_INVALID', { path: file, reason }),
  );
  if (doc['hooks'] !== undefined && !isJsonObject(doc['hooks']))
    throw createError('HOOKS_SETTINGS_INVALID', { path: file, reason: '"hooks" is not an object' });
  if (o.uninstall && original === null)
    return { scope, file, action: o.print ? 'printed' : 'absent', handlers, json: '', notes };

  const hooks = mergeHooks((doc['hooks'] as Record<string, unknown> | undefined) ?? {}, handlers, file);
  const next: Record<string, unknown> = { ...doc, hooks };
  if (Object.keys(hooks).length === 0) delete next['hooks'];
  const newline = original === null || original.endsWith('\n') ? '\n' : '';
  const json = JSON.stringify(next, null, original ? detectIndent(original) : 2) + newline;
  if (o.print) return { scope, file, action: 'printed', handlers, json, notes };
  if (original !== null && JSON.stringify(next) === JSON.stringify(doc))
    return { scope, file, action: 'unchanged', handlers, json: original, notes };
  writeFileAtomic(file, json, original !== null ? statSync(file).mode & 0o777 : 0o644);
  if (original === null && scope === 'local' && !o.uninstall && findGitRoot(cwd) !== null) {
    const ignored = ignoreLocalSettings(root, file);
    if (ignored) notes.push(ignored);
  }
  return {
    scope,
    file,
    action: o.uninstall ? 'removed' : original === null ? 'created' : 'updated',
    handlers,
    json,
    notes,
  };
}
