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
 * - Command: the absolute `node` (`process.execPath`) and the absolute hook entry
 *   `dist/hooks/main.js` (robust when `loci` is not on PATH, and ~3× faster to start than
 *   `bin/loci.js hook`, which loads the whole CLI), plus `--home DIR` when the home is not the
 *   default. Timeouts: 10 s for user-prompt-submit and session-start (they may read the palace),
 *   5 s elsewhere (they only queue work).
 */
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createError, findGitRoot, resolveHome, writeFileAtomic, readJsonObjectFile, isJsonObject } from '../index.js';
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
  /** Default `process.env` (`CLAUDE_CONFIG_DIR`, `LOCI_HOME`, `HOME`). */
  env?: NodeJS.ProcessEnv | undefined;
  /** Loci home the hooks use; added as `--home` when it is not the default `~/.loci`. Default: `LOCI_HOME` or the default. */
  home?: string | undefined;
  /** The `node` binary. Default `process.execPath`. */
  nodePath?: string | undefined;
  /** The hook entry script. Default this package's `dist/hooks/main.js`. */
  entry?: string | undefined;
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
  /** `created`/`updated`/`unchanged`/`removed`: the file; `absent`: nothing to uninstall; `printed`: nothing written. */
  action: 'created' | 'updated' | 'unchanged' | 'removed' | 'absent' | 'printed';
  /** Loci's handler per Claude Code event name (empty after uninstall). */
  handlers: Record<string, HookHandler>;
  /** The whole file as written (or as it would be). */
  json: string;
  /** Things the user should know. */
  notes: string[];
}

/** Timeout of each handler, in seconds. */
export const HOOK_TIMEOUTS: Readonly<Record<HookEvent, number>> = {
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
export function isLociCommand(command: unknown): boolean {
  return typeof command === 'string' && LOCI_COMMAND.some((re) => re.test(command));
}

/** POSIX shell quoting of one word (Claude Code runs commands through a shell). */
export function quoteWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The settings file of a scope. */
export function settingsPath(scope: HooksInstallScope, cwd: string, env: NodeJS.ProcessEnv): string {
  if (scope === 'user') {
    const config = env['CLAUDE_CONFIG_DIR'] || join(env['HOME'] || homedir(), '.claude');
    return join(config, 'settings.json');
  }
  const root = findGitRoot(cwd) ?? resolve(cwd);
  return join(root, '.claude', scope === 'project' ? 'settings.json' : 'settings.local.json');
}

/** The default hook entry: `dist/hooks/main.js` of this package. */
export function defaultEntry(): string {
  const here = fileURLToPath(import.meta.url);
  return join(dirname(here), 'main.js').replace(/([\\/])src([\\/]hooks[\\/]main\.js)$/, '$1dist$2');
}


function detectIndent(text: string): string | number {
  const m = /^[{[][ \t]*\r?\n([ \t]+)\S/.exec(text);
  return m ? (m[1]!.startsWith('\t') ? '\t' : m[1]!.length) : 2;
}

/** Merges (or removes) Loci's handlers in a parsed `hooks` object; returns the new object. */
export function mergeHooks(hooks: Record<string, unknown>, wanted: Partial<Record<string, HookHandler>>, file: string): Record<string, unknown> {
  const out: Record<string, unknown> = { ...hooks };
  for (const event of HOOK_EVENTS) {
    const name = HOOK_EVENT_NAMES[event];
    const want = wanted[name];
    const groups = out[name];
    if (groups !== undefined && !Array.isArray(groups)) throw createError('HOOKS_SETTINGS_INVALID', { path: file, reason: `"hooks.${name}" is not a list` });
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

/** Installs, uninstalls or prints Loci's Claude Code hooks (see the module comment). */
export function installHooks(o: HooksInstallOptions = {}): HooksInstallResult {
  const scope = o.scope ?? 'local';
  if (!['project', 'local', 'user'].includes(scope)) throw createError('INVALID_ARGUMENT', { name: '--scope', value: scope, expected: 'project, local or user' });
  const env = o.env ?? process.env;
  const cwd = o.cwd ?? process.cwd();
  const file = settingsPath(scope, cwd, env);
  const nodePath = o.nodePath ?? process.execPath;
  const entry = o.entry ?? defaultEntry();
  const home = resolveHome(o.home, env);
  const defaultHome = resolveHome(undefined, { ...env, LOCI_HOME: undefined });
  const homeArgs = home !== defaultHome ? ` --home ${quoteWord(home)}` : '';
  const events = o.events ?? HOOK_EVENTS;
  const handlers: Record<string, HookHandler> = {};
  if (!o.uninstall) {
    for (const e of events) {
      handlers[HOOK_EVENT_NAMES[e]] = { type: 'command', command: `${quoteWord(nodePath)} ${quoteWord(entry)} ${e}${homeArgs}`, timeout: HOOK_TIMEOUTS[e] };
    }
  }
  const notes: string[] = [];
  if (!o.uninstall && !existsSync(entry)) notes.push(`${entry} does not exist yet: run \`npm run build\` in the Loci package, or the hooks will fail (open) until it does`);
  if (!o.uninstall && scope === 'project') notes.push(`${file} is usually committed: its commands hold absolute paths of this machine; use --scope local to keep them private`);

  const { original, doc } = readJsonObjectFile(file, (reason) => createError('HOOKS_SETTINGS_INVALID', { path: file, reason }));
  if (doc['hooks'] !== undefined && !isJsonObject(doc['hooks'])) throw createError('HOOKS_SETTINGS_INVALID', { path: file, reason: '"hooks" is not an object' });
  if (o.uninstall && original === null) return { scope, file, action: o.print ? 'printed' : 'absent', handlers, json: '', notes };

  const hooks = mergeHooks((doc['hooks'] as Record<string, unknown> | undefined) ?? {}, handlers, file);
  const next: Record<string, unknown> = { ...doc, hooks };
  if (Object.keys(hooks).length === 0) delete next['hooks'];
  const newline = original === null || original.endsWith('\n') ? '\n' : '';
  const json = JSON.stringify(next, null, original ? detectIndent(original) : 2) + newline;
  if (o.print) return { scope, file, action: 'printed', handlers, json, notes };
  if (original !== null && JSON.stringify(next) === JSON.stringify(doc)) return { scope, file, action: 'unchanged', handlers, json: original, notes };
  writeFileAtomic(file, json, original !== null ? statSync(file).mode & 0o777 : 0o644);
  return { scope, file, action: o.uninstall ? 'removed' : original === null ? 'created' : 'updated', handlers, json, notes };
}
