/**
 * @module ingest/convos/tool-lines
 * Tool calls and results rendered as short, verbatim, one-line strings.
 *
 * Calls (`toolInputChars` caps the variable part, default 200):
 * - `[Bash] <command>` (also `shell`, `exec_command`, `run_shell_command`, `local_shell`)
 * - `[Read <path>]`, `[Read <path>:<from>-<to>]` with offset/limit; `[Edit <path>]`, `[MultiEdit <path>]`,
 *   `[Write <path>]`, `[NotebookEdit <path>]` — paths under the session's cwd are shown relative to it
 * - `[Grep] <pattern> in <path>`, `[Glob] <pattern>` (` in <path>` when given)
 * - `[WebFetch] <url>`, `[WebSearch] <query>`, `[Task <subagent_type>] <description>` (also `Agent`)
 * - any other tool: `[<Name>] <compact JSON of the input>`
 *
 * Results: `→ ` + the first `toolResultChars` characters (default 300) of the result text, line
 * breaks shown as ` ⏎ `, harness noise stripped, `→ [error] …` when the tool failed, `[image]` for
 * image blocks. When the result says the full output was saved to `tool-results/<name>`, the
 * `resolveSidecar` hook supplies that file's text instead of the inline preview.
 */
import { stripNoise } from './noise.js';
import { isObj, oneLine, str, truncate } from './util.js';

/** Options of the renderers. */
export interface ToolLineOptions {
  toolInputChars: number;
  toolResultChars: number;
  cwd?: string | null;
  resolveSidecar?: ((name: string) => string | undefined) | undefined;
}

function rel(path: string, cwd: string | null | undefined): string {
  if (cwd && path.startsWith(`${cwd}/`)) return path.slice(cwd.length + 1);
  return path;
}

function shellCommand(input: Record<string, unknown>): string | undefined {
  const c = input.command ?? input.cmd;
  if (typeof c === 'string') return c;
  if (Array.isArray(c) && c.every((x) => typeof x === 'string')) {
    const parts = c as string[];
    // ["bash", "-lc", "npm test"] → npm test
    if (parts.length === 3 && /^(ba|z|)sh$/.test(parts[0]!.replace(/^.*\//, '')) && /^-l?c$/.test(parts[1]!)) {
      return parts[2];
    }
    return parts.join(' ');
  }
  return undefined;
}

const SHELL_TOOLS = new Set(['bash', 'shell', 'exec_command', 'run_shell_command', 'local_shell', 'container.exec']);
const PATH_TOOLS = new Set([
  'Read',
  'Edit',
  'MultiEdit',
  'Write',
  'NotebookEdit',
  'read_file',
  'write_file',
  'replace',
]);

/** One line for a tool call. `input` may be an object or a JSON string (Codex arguments). */
export function renderToolUse(name: string, input: unknown, o: ToolLineOptions): string {
  let inp: unknown = input;
  if (typeof inp === 'string') {
    try {
      inp = JSON.parse(inp);
    } catch {
      return `[${name}] ${truncate(oneLine(inp as string), o.toolInputChars)}`;
    }
  }
  const obj = isObj(inp) ? inp : {};
  const cap = (s: string) => truncate(oneLine(s), o.toolInputChars);
  const lower = name.toLowerCase();
  if (SHELL_TOOLS.has(lower)) {
    const cmd = shellCommand(obj);
    if (cmd !== undefined) return `[${name === 'bash' ? 'Bash' : name}] ${cap(cmd)}`;
  }
  if (PATH_TOOLS.has(name)) {
    const p = str(obj.file_path) ?? str(obj.notebook_path) ?? str(obj.path) ?? str(obj.absolute_path);
    if (p) {
      let where = rel(p, o.cwd);
      const off = typeof obj.offset === 'number' ? obj.offset : undefined;
      const lim = typeof obj.limit === 'number' ? obj.limit : undefined;
      if (name === 'Read' && off !== undefined && lim !== undefined) where += `:${off}-${off + lim - 1}`;
      return `[${name} ${cap(where)}]`;
    }
  }
  if (name === 'Grep' || name === 'Glob' || name === 'search_file_content' || name === 'glob') {
    const pat = str(obj.pattern);
    if (pat !== undefined) {
      const p = str(obj.path);
      return `[${name}] ${cap(pat + (p ? ` in ${rel(p, o.cwd)}` : ''))}`;
    }
  }
  if (name === 'WebFetch' || name === 'web_fetch') {
    const u = str(obj.url) ?? str(obj.prompt);
    if (u) return `[${name}] ${cap(u)}`;
  }
  if (name === 'WebSearch' || name === 'google_web_search' || name === 'web_search') {
    const q = str(obj.query);
    if (q) return `[${name}] ${cap(q)}`;
  }
  if (name === 'Task' || name === 'Agent') {
    const d = str(obj.description) ?? str(obj.prompt);
    if (d) return `[${name}${str(obj.subagent_type) ? ` ${str(obj.subagent_type)}` : ''}] ${cap(d)}`;
  }
  let json: string;
  try {
    json = JSON.stringify(inp) ?? '';
  } catch {
    json = '';
  }
  return `[${name}] ${truncate(json, o.toolInputChars)}`.trimEnd();
}

const SIDECAR = /tool-results\/([^\s"'<>)\]]+)/;

/** The text of a tool result's `content` (string or blocks); images become `[image]`. */
export function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return isObj(content) && typeof content.text === 'string' ? content.text : '';
  const parts: string[] = [];
  for (const b of content) {
    if (typeof b === 'string') parts.push(b);
    else if (isObj(b)) {
      if (typeof b.text === 'string') parts.push(b.text);
      else if (b.type === 'image') parts.push('[image]');
    }
  }
  return parts.join('\n');
}

/**
 * One line for a tool result, or null when results are switched off (`toolResultChars` 0).
 * `text` is the raw result text (see {@link toolResultText}).
 */
export function renderToolResult(text: string, isError: boolean, o: ToolLineOptions): string | null {
  if (o.toolResultChars <= 0) return null;
  let t = text;
  const side = SIDECAR.exec(t);
  if (side && o.resolveSidecar) {
    const name = side[1]!;
    const full = o.resolveSidecar(name);
    if (full !== undefined) t = full;
  }
  // Only the head is kept: clean a window a little larger than it (noise tags may sit in the head).
  const window = o.toolResultChars * 2 + 1024;
  if (t.length > window) t = t.slice(0, window);
  t = stripNoise(t);
  const body = t ? truncate(oneLine(t), o.toolResultChars) : '(no output)';
  return `→ ${isError ? '[error] ' : ''}${body}`;
}
