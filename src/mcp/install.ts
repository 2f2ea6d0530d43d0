/**
 * @module mcp/install
 * `loci mcp install`: registers `loci mcp` with Claude Code.
 *
 * - `project` scope: merges `mcpServers.<name>` into `.mcp.json` at the project root (git root,
 *   else the working directory). Only that key changes; other servers, other top-level keys, key
 *   order, indentation and the final newline are kept, and extra keys or env variables the user
 *   added to the entry survive. The write is atomic; a second run is a no-op.
 * - `user` and `local` scopes live in `~/.claude.json`, whose layout is internal to Claude Code
 *   and has changed between versions, so Loci never edits it: it prints the equivalent
 *   `claude mcp add --scope …` command instead.
 *
 * The command is `loci mcp` when `loci` on PATH is this package, else `node` (looked up when the
 * server starts, never pinned) and the absolute `bin/loci.js`.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { processEnv, readSettings, type Env } from '../core/env.js';
import { createError } from '../core/errors.js';
import { writeFileAtomic } from '../core/fs-safe.js';
import { findGitRoot } from '../core/git.js';
import { readJsonObjectFile, isJsonObject } from '../core/json-file.js';
import { lociLaunch } from '../core/launcher.js';

/** Where the registration goes. */
export type McpInstallScope = 'project' | 'user' | 'local';

/** Options of {@link installMcp}. */
export interface McpInstallOptions {
  /** Default `project`. */
  scope?: McpInstallScope;
  /** Server name in Claude Code. Default `loci`; letters, digits, `_` and `-`. */
  name?: string;
  /** Only compute and return what would be written. Default false. */
  print?: boolean;
  /** Default `process.cwd()`. */
  cwd?: string;
  /** Default: the process's (`core/env.ts`; PATH lookup, LOCI_HOME). */
  env?: NodeJS.ProcessEnv;
  /** Palace folder to pin in the entry's env (`LOCI_HOME`). Default: `LOCI_HOME` of `env` when set, else none. */
  home?: string;
  /** Use this command instead of resolving `loci` (tests). */
  command?: { command: string; args: string[] };
}

/** The server entry written to `.mcp.json`. */
export interface McpServerEntry {
  type: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** What {@link installMcp} did. */
export interface McpInstallResult {
  scope: McpInstallScope;
  name: string;
  entry: McpServerEntry;
  /** `.mcp.json` for project scope; null for user/local (never written). */
  file: string | null;
  /** `created`/`updated`/`unchanged`: the file; `printed`: nothing was written. */
  action: 'created' | 'updated' | 'unchanged' | 'printed';
  /** The equivalent `claude mcp add` command line. */
  claudeCommand: string;
  /** Project scope: the whole file as written (or as it would be with `print`). */
  json: string | null;
  /** Things the user should know (e.g. absolute paths in a shared file). */
  notes: string[];
}

/**
 * `loci mcp` when `loci` on PATH is this package, else `node <abs>/bin/loci.js mcp`. `node` is
 * found on PATH when Claude Code starts the server, so a Node upgrade does not break it (see
 * `core/launcher.ts`).
 */
function resolveLociCommand(env: Env = processEnv()): { command: string; args: string[] } {
  const l = lociLaunch({ env });
  return { command: l.command, args: [...l.args, 'mcp'] };
}

/** POSIX shell quoting of one word. */
export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The `claude mcp add` command line for a stdio server: `claude mcp add --scope S NAME
 * [-e K=V]… -- COMMAND ARGS…`. The name comes before `-e`, because Claude Code declares
 * `-e, --env <env...>` as variadic: in `-e K=V NAME -- …` it takes NAME as a second variable and
 * rejects it ("Invalid environment variable format"). `--` ends the variables and separates the
 * server's own command and arguments from Claude Code's options.
 */
export function claudeMcpAddCommand(
  scope: McpInstallScope,
  name: string,
  env: Record<string, string>,
  cmd: { command: string; args: string[] },
): string {
  return [
    'claude',
    'mcp',
    'add',
    '--scope',
    scope,
    name,
    ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
    '--',
    cmd.command,
    ...cmd.args,
  ]
    .map(shellQuote)
    .join(' ');
}

function detectIndent(text: string): string | number {
  const m = /^[{[][ \t]*\r?\n([ \t]+)\S/.exec(text);
  return m ? (m[1]!.startsWith('\t') ? '\t' : m[1]!.length) : 2;
}

/** Deep equality of JSON values (key order ignored). */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (!isJsonObject(a) || !isJsonObject(b)) return false;
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => k in b && same(a[k], b[k]));
}

/** Registers (or prints the registration of) `loci mcp` for Claude Code. */
export function installMcp(opts: McpInstallOptions = {}): McpInstallResult {
  const scope = opts.scope ?? 'project';
  if (!['project', 'user', 'local'].includes(scope))
    throw createError('INVALID_ARGUMENT', { name: '--scope', value: scope, expected: 'project, user or local' });
  const name = opts.name ?? 'loci';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(name))
    throw createError('INVALID_ARGUMENT', {
      name: '--name',
      value: name,
      expected: 'letters, digits, _ and - (at most 64)',
    });
  const env = opts.env ?? processEnv();
  const cwd = opts.cwd ?? process.cwd();
  const cmd = opts.command ?? resolveLociCommand(env);
  const home = opts.home ?? readSettings(env).home;
  const entryEnv: Record<string, string> = home ? { LOCI_HOME: home } : {};
  const entry: McpServerEntry = { type: 'stdio', command: cmd.command, args: [...cmd.args], env: entryEnv };
  const claudeCommand = claudeMcpAddCommand(scope, name, entryEnv, cmd);
  const notes: string[] = [];

  if (scope !== 'project') {
    notes.push(
      `Claude Code keeps ${scope}-scope servers in ~/.claude.json, which Loci does not edit: run the command above`,
    );
    return { scope, name, entry, file: null, action: 'printed', claudeCommand, json: null, notes };
  }

  const root = findGitRoot(cwd) ?? cwd;
  const file = join(root, '.mcp.json');
  const { original, doc } = readJsonObjectFile(file, (reason) => createError('CONFIG_INVALID', { path: file, reason }));
  if (doc['mcpServers'] !== undefined && !isJsonObject(doc['mcpServers']))
    throw createError('CONFIG_INVALID', { path: file, reason: '"mcpServers" is not an object' });
  const servers = (doc['mcpServers'] as Record<string, unknown> | undefined) ?? {};
  const old = servers[name];
  const merged = isJsonObject(old)
    ? {
        ...old,
        type: entry.type,
        command: entry.command,
        args: entry.args,
        env: { ...(isJsonObject(old['env']) ? (old['env'] as Record<string, string>) : {}), ...entryEnv },
      }
    : entry;
  if (cmd.command !== 'loci' || home)
    notes.push(
      '.mcp.json is usually committed and shared: this entry holds paths of this machine ' +
        `(${[cmd.command !== 'loci' ? (cmd.args[0] ?? cmd.command) : '', home ?? ''].filter(Boolean).join(', ')}); ` +
        'use --scope local to keep it private',
    );
  if (original !== null && isJsonObject(old) && same(old, merged)) {
    return {
      scope,
      name,
      entry,
      file,
      action: opts.print ? 'printed' : 'unchanged',
      claudeCommand,
      json: original,
      notes,
    };
  }
  const next = { ...doc, mcpServers: { ...servers, [name]: merged } };
  const newline = original === null || original.endsWith('\n') ? '\n' : '';
  const json = JSON.stringify(next, null, original ? detectIndent(original) : 2) + newline;
  if (opts.print) return { scope, name, entry, file, action: 'printed', claudeCommand, json, notes };
  writeFileAtomic(file, json, existsSync(file) ? statSync(file).mode & 0o777 : 0o644);
  return { scope, name, entry, file, action: original === null ? 'created' : 'updated', claudeCommand, json, notes };
}
