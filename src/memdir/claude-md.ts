/**
 * @module memdir/claude-md
 * The CLAUDE.md chain as Claude Code loads it at launch (A2), broadest to narrowest:
 *
 * 1. managed policy (`/etc/claude-code/CLAUDE.md` on Linux, platform paths elsewhere);
 * 2. user `~/.claude/CLAUDE.md`, then user rules `~/.claude/rules/**\/*.md`;
 * 3. for every directory from the filesystem root down to the cwd: `CLAUDE.md`,
 *    `.claude/CLAUDE.md`, `.claude/rules/**\/*.md`, then `CLAUDE.local.md`.
 *
 * Each file is followed by its `@imports` (depth first, relative to the importing file, absolute and
 * `~/` allowed, at most 4 hops, ignored inside code spans, fenced blocks and HTML comments; cycles
 * and repeats skipped). Block-level HTML comments are stripped. Files over 4 MiB are skipped and
 * reported. Rules with a `paths:` frontmatter are conditional: listed with the flag, without
 * content. A file reached twice (e.g. `~/CLAUDE.md` when the cwd is under home) loads once.
 */
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { processEnv, readSettings } from '../core/env.js';
import { parseYaml, splitFrontmatter } from './frontmatter.js';
import { maskCode, stripBlockComments } from './markdown.js';

/** Where a piece of the chain comes from. */
type ClaudeMdKind = 'managed' | 'user' | 'user-rules' | 'project' | 'project-local' | 'project-rules' | 'import';

/** One loaded file. */
interface ClaudeMdPiece {
  path: string;
  kind: ClaudeMdKind;
  /** Content with block HTML comments stripped ('' for conditional rules). */
  content: string;
  /** Import depth: 0 for chain files, 1..4 for imports. */
  depth: number;
  /** For imports: the file that imported it. */
  importedFrom?: string;
  /** Rules with `paths:` frontmatter: loaded only when a matching file is read. */
  conditional?: boolean;
  /** The `paths:` globs of a conditional rule. */
  paths?: string[];
}

/** A file that was not loaded, and why. */
interface ClaudeMdSkip {
  path: string;
  reason: 'too-large' | 'missing' | 'cycle' | 'depth' | 'duplicate' | 'unreadable' | 'binary';
  importedFrom?: string;
}

/** The chain, in load order, plus what was skipped. */
interface ClaudeMdChain {
  files: ClaudeMdPiece[];
  skipped: ClaudeMdSkip[];
}

/** Options of {@link loadClaudeMdChain}. */
interface ClaudeMdOptions {
  /** The working directory (absolute or relative to the process cwd). */
  cwd: string;
  /** The user's home, for `~/` imports. Default `env.HOME`, else `os.homedir()`. */
  home?: string;
  /** Claude Code's config dir. Default `$CLAUDE_CONFIG_DIR`, else `<home>/.claude`. */
  configDir?: string;
  /** Platform for the managed path. Default `process.platform`. */
  platform?: NodeJS.Platform;
  /** Managed CLAUDE.md path; `null` skips it. Default {@link managedClaudeMdPath}(platform). */
  managedPath?: string | null;
  /** Import hops followed. Default 4. */
  maxImportDepth?: number;
  /** Files larger than this are skipped. Default 4 MiB. */
  maxBytes?: number;
  /** Environment. Default: the process's (`core/env.ts`). */
  env?: NodeJS.ProcessEnv;
}

/** Default size limit of one CLAUDE.md file (4 MiB). */
export const CLAUDE_MD_MAX_BYTES = 4 * 1024 * 1024;

/** The managed-policy CLAUDE.md for a platform. */
export function managedClaudeMdPath(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return '/Library/Application Support/ClaudeCode/CLAUDE.md';
  if (platform === 'win32') return 'C:\\Program Files\\ClaudeCode\\CLAUDE.md';
  return '/etc/claude-code/CLAUDE.md';
}

const IMPORT = /(?:^|\s)@((?:[^\s\\]|\\ )+)/g;

/** `@path` imports of a (comment-stripped) text, outside code. */
export function extractImports(text: string): string[] {
  const out: string[] = [];
  for (const m of maskCode(text).matchAll(IMPORT)) {
    const raw = m[1]!.replace(/\\ /g, ' ');
    if (raw.startsWith('@') || !/^(\.{1,2}\/|~\/|\/|[A-Za-z0-9._-])/.test(raw)) continue;
    out.push(raw);
  }
  return out;
}

function walkRules(dir: string): string[] {
  const out: string[] = [];
  const visit = (d: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(d).sort();
    } catch {
      return;
    }
    for (const n of names) {
      const p = join(d, n);
      let st;
      try {
        st = statSync(p);
      } catch {
        continue;
      }
      if (st.isDirectory() && depth < 8) visit(p, depth + 1);
      else if (st.isFile() && n.toLowerCase().endsWith('.md')) out.push(p);
    }
  };
  visit(dir, 0);
  return out;
}

/** Loads the CLAUDE.md chain for `cwd`. Never throws for missing or unreadable files. */
export function loadClaudeMdChain(options: ClaudeMdOptions): ClaudeMdChain {
  const vars = readSettings(options.env ?? processEnv());
  const home = options.home ?? vars.userHome ?? homedir();
  const configDir = options.configDir ?? (vars.claudeConfigDir || join(home, '.claude'));
  const maxDepth = options.maxImportDepth ?? 4;
  const maxBytes = options.maxBytes ?? CLAUDE_MD_MAX_BYTES;
  const files: ClaudeMdPiece[] = [];
  const skipped: ClaudeMdSkip[] = [];
  const seen = new Set<string>();

  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };

  /** Reads a file; undefined (and maybe a skip entry) when it cannot be used. */
  const read = (path: string, optional: boolean, importedFrom?: string): string | undefined => {
    let size: number;
    try {
      const st = statSync(path);
      if (!st.isFile()) return undefined;
      size = st.size;
    } catch {
      if (!optional) skipped.push({ path, reason: 'missing', ...(importedFrom ? { importedFrom } : {}) });
      return undefined;
    }
    if (size > maxBytes) {
      skipped.push({ path, reason: 'too-large', ...(importedFrom ? { importedFrom } : {}) });
      return undefined;
    }
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      skipped.push({ path, reason: 'unreadable', ...(importedFrom ? { importedFrom } : {}) });
      return undefined;
    }
    if (text.includes('\0')) {
      skipped.push({ path, reason: 'binary', ...(importedFrom ? { importedFrom } : {}) });
      return undefined;
    }
    return text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  };

  const resolveImport = (raw: string, from: string): string => {
    if (raw.startsWith('~/')) return join(home, raw.slice(2));
    return isAbsolute(raw) ? raw : resolve(dirname(from), raw);
  };

  const addImports = (content: string, from: string, depth: number, chain: Set<string>) => {
    for (const raw of extractImports(content)) {
      let target = resolveImport(raw, from);
      try {
        statSync(target);
      } catch {
        const trimmed = raw.replace(/[.,;:!?)]+$/, '');
        if (trimmed !== raw && trimmed) target = resolveImport(trimmed, from);
      }
      const key = real(target);
      if (chain.has(key)) {
        skipped.push({ path: target, reason: 'cycle', importedFrom: from });
        continue;
      }
      if (depth + 1 > maxDepth) {
        skipped.push({ path: target, reason: 'depth', importedFrom: from });
        continue;
      }
      if (seen.has(key)) {
        skipped.push({ path: target, reason: 'duplicate', importedFrom: from });
        continue;
      }
      const text = read(target, false, from);
      if (text === undefined) continue;
      seen.add(key);
      const stripped = stripBlockComments(text);
      files.push({ path: target, kind: 'import', content: stripped, depth: depth + 1, importedFrom: from });
      addImports(stripped, target, depth + 1, new Set([...chain, key]));
    }
  };

  const load = (path: string, kind: ClaudeMdKind, rule = false) => {
    const key = real(path);
    if (seen.has(key)) return;
    const text = read(path, true);
    if (text === undefined) return;
    seen.add(key);
    let content = text;
    if (rule) {
      const split = splitFrontmatter(text);
      if (split.has) {
        const fm = parseYaml(split.yaml);
        const paths = fm.data['paths'];
        const globs =
          typeof paths === 'string'
            ? paths
                .split(',')
                .map((s) => s.trim())
                .filter(Boolean)
            : Array.isArray(paths)
              ? paths.map(String)
              : [];
        if (globs.length) {
          files.push({ path, kind, content: '', depth: 0, conditional: true, paths: globs });
          return;
        }
        content = split.body;
      }
    }
    const stripped = stripBlockComments(content);
    files.push({ path, kind, content: stripped, depth: 0 });
    addImports(stripped, path, 0, new Set([key]));
  };

  if (options.managedPath !== null) load(options.managedPath ?? managedClaudeMdPath(options.platform), 'managed');
  load(join(configDir, 'CLAUDE.md'), 'user');
  for (const r of walkRules(join(configDir, 'rules'))) load(r, 'user-rules', true);

  const dirs: string[] = [];
  for (let d = resolve(options.cwd); ; d = dirname(d)) {
    dirs.unshift(d);
    if (dirname(d) === d) break;
  }
  for (const d of dirs) {
    load(join(d, 'CLAUDE.md'), 'project');
    load(join(d, '.claude', 'CLAUDE.md'), 'project');
    for (const r of walkRules(join(d, '.claude', 'rules'))) load(r, 'project-rules', true);
    load(join(d, 'CLAUDE.local.md'), 'project-local');
  }
  return { files, skipped };
}
