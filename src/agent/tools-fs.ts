/**
 * @module agent/tools-fs
 * File tools of the agent, confined to the working directory: `read` (numbered lines, a range),
 * `list` (a glob), `grep` (a regular expression over files) and `edit` (replace one exact, unique
 * piece of a file, or create a file; the person is shown a diff). Writes are atomic.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { unifiedDiff } from '../core/diff.js';
import { writeFileAtomic } from '../core/fs-safe.js';
import type { AgentTool, ToolRun } from './types.js';

/** Folders never walked by `list` and `grep`. */
const SKIP_DIRS = new Set(['.git', 'node_modules', 'dist', '.loci', 'coverage']);
/** Most lines `read` returns at once. */
const READ_MAX_LINES = 2_000;
/** Most paths `list` returns, and most matching lines `grep` returns. */
const LIST_MAX = 500;
const GREP_MAX = 200;
/** Files larger than this are skipped by `grep`. */
const GREP_FILE_MAX_BYTES = 2 * 1024 * 1024;

const fail = (content: string): ToolRun => ({ content, isError: true });

/** `p` resolved inside `cwd`, or undefined when it escapes it. */
function inside(cwd: string, p: unknown): string | undefined {
  if (typeof p !== 'string' || p.trim() === '') return undefined;
  const abs = isAbsolute(p) ? resolve(p) : resolve(cwd, p);
  const root = resolve(cwd);
  return abs === root || abs.startsWith(root + sep) ? abs : undefined;
}

const rel = (cwd: string, abs: string) => relative(cwd, abs).split(sep).join('/') || '.';

/** Every file under `dir` (relative paths with `/`), skipping {@link SKIP_DIRS}, in sorted order. */
function* walk(root: string, dir = root): Generator<string> {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return;
  }
  for (const name of names) {
    const p = join(dir, name);
    let st;
    try {
      st = statSync(p);
    } catch {
      continue;
    }
    if (st.isDirectory()) {
      if (!SKIP_DIRS.has(name)) yield* walk(root, p);
    } else if (st.isFile()) yield rel(root, p);
  }
}

/** A glob (`**`, `*`, `?`, `{a,b}`) as an anchored regular expression over `/` paths. */
export function globRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      re += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '{') {
      const end = glob.indexOf('}', i);
      if (end < 0) re += '\\{';
      else {
        re += `(?:${glob
          .slice(i + 1, end)
          .split(',')
          .map((s) => s.replace(/[.+^${}()|[\]\\*?]/g, '\\$&'))
          .join('|')})`;
        i = end;
      }
    } else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

const readTool: AgentTool = {
  spec: {
    name: 'read',
    description:
      'Read a text file of the project. Returns numbered lines. Use offset/limit for long files ' +
      `(at most ${READ_MAX_LINES} lines at once).`,
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path, relative to the project root' },
        offset: { type: 'integer', description: 'First line to read, 1-based (default 1)' },
        limit: { type: 'integer', description: `Lines to read (default ${READ_MAX_LINES})` },
      },
      required: ['path'],
    },
  },
  async run(input, ctx) {
    const abs = inside(ctx.cwd, input['path']);
    if (!abs) return fail(`path ${JSON.stringify(input['path'])} is not inside the project`);
    if (!existsSync(abs) || !statSync(abs).isFile()) return fail(`no such file: ${rel(ctx.cwd, abs)}`);
    const lines = readFileSync(abs, 'utf8').split('\n');
    const from = Math.max(1, Number(input['offset'] ?? 1) || 1);
    const limit = Math.min(READ_MAX_LINES, Math.max(1, Number(input['limit'] ?? READ_MAX_LINES) || READ_MAX_LINES));
    const slice = lines.slice(from - 1, from - 1 + limit);
    const body = slice.map((l, i) => `${String(from + i).padStart(6)}\t${l}`).join('\n');
    const more = from - 1 + limit < lines.length ? `\n… ${lines.length - (from - 1 + limit)} more lines` : '';
    return { content: body + more };
  },
};

const listTool: AgentTool = {
  spec: {
    name: 'list',
    description:
      'List project files matching a glob (`src/**/*.ts`, `*.md`; default `**/*`). ' +
      'Skips .git, node_modules and dist.',
    inputSchema: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'Glob relative to the project root (default **/*)' },
      },
    },
  },
  async run(input, ctx) {
    const pattern = typeof input['pattern'] === 'string' && input['pattern'] ? input['pattern'] : '**/*';
    const re = globRegExp(pattern);
    const out: string[] = [];
    let total = 0;
    for (const f of walk(ctx.cwd)) {
      if (!re.test(f)) continue;
      total++;
      if (out.length < LIST_MAX) out.push(f);
    }
    if (total === 0) return { content: `no files match ${pattern}` };
    return { content: out.join('\n') + (total > out.length ? `\n… ${total - out.length} more` : '') };
  },
};

const grepTool: AgentTool = {
  spec: {
    name: 'grep',
    description:
      'Search project files for a regular expression (JavaScript syntax). Returns path:line: text for ' +
      `each match (at most ${GREP_MAX}).`,
    inputSchema: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'Regular expression' },
        glob: { type: 'string', description: 'Only files matching this glob (default **/*)' },
        ignoreCase: { type: 'boolean', description: 'Case-insensitive (default false)' },
      },
      required: ['pattern'],
    },
  },
  async run(input, ctx) {
    let re: RegExp;
    try {
      re = new RegExp(String(input['pattern'] ?? ''), input['ignoreCase'] ? 'i' : '');
    } catch (e) {
      return fail(`invalid regular expression: ${(e as Error).message}`);
    }
    const only = globRegExp(typeof input['glob'] === 'string' && input['glob'] ? input['glob'] : '**/*');
    const out: string[] = [];
    let total = 0;
    for (const f of walk(ctx.cwd)) {
      if (ctx.signal?.aborted) break;
      if (!only.test(f)) continue;
      const abs = join(ctx.cwd, f);
      if (statSync(abs).size > GREP_FILE_MAX_BYTES) continue;
      const text = readFileSync(abs, 'utf8');
      if (text.includes('\u0000')) continue; // binary
      text.split('\n').forEach((line, i) => {
        if (!re.test(line)) return;
        total++;
        if (out.length < GREP_MAX) out.push(`${f}:${i + 1}: ${line.length > 300 ? `${line.slice(0, 300)}…` : line}`);
      });
    }
    if (total === 0) return { content: 'no matches' };
    return { content: out.join('\n') + (total > out.length ? `\n… ${total - out.length} more matches` : '') };
  },
};

const editTool: AgentTool = {
  spec: {
    name: 'edit',
    description:
      'Edit a file: replace `old` (an exact piece of the file that occurs once) with `new`. ' +
      'With `old` empty and a path that does not exist, creates the file with `new` as its content.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path, relative to the project root' },
        old: { type: 'string', description: 'Exact text to replace (must occur exactly once); empty to create' },
        new: { type: 'string', description: 'Replacement text' },
      },
      required: ['path', 'old', 'new'],
    },
  },
  async run(input, ctx) {
    const abs = inside(ctx.cwd, input['path']);
    if (!abs) return fail(`path ${JSON.stringify(input['path'])} is not inside the project`);
    const oldText = String(input['old'] ?? '');
    const newText = String(input['new'] ?? '');
    const name = rel(ctx.cwd, abs);
    const exists = existsSync(abs);
    if (!exists && oldText !== '') return fail(`no such file: ${name} (to create it, send an empty old)`);
    if (exists && !statSync(abs).isFile()) return fail(`${name} is not a file`);
    const before = exists ? readFileSync(abs, 'utf8') : '';
    let after: string;
    if (oldText === '') {
      if (exists) return fail(`${name} exists: give the exact text to replace in old`);
      after = newText;
    } else {
      const at = before.indexOf(oldText);
      if (at < 0) return fail(`old text not found in ${name} — read the file and copy the text exactly`);
      if (before.indexOf(oldText, at + 1) >= 0) return fail(`old text occurs more than once in ${name}: add context`);
      after = before.slice(0, at) + newText + before.slice(at + oldText.length);
    }
    writeFileAtomic(abs, after);
    const diff = unifiedDiff(name, exists ? before : undefined, after).trimEnd();
    return { content: `${exists ? 'edited' : 'created'} ${name}\n${diff}`, display: diff };
  },
};

/** The file tools, by name. */
export const FILE_TOOLS: readonly AgentTool[] = [readTool, listTool, grepTool, editTool];
