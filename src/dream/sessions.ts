/**
 * @module dream/sessions
 * The project's sessions, as consolidation counts and reads them.
 *
 * **Definition.** A session is one Claude Code transcript: a `<session-id>.jsonl` file directly in
 * one of the transcript folders (by default the memory directory's parent, `<config>/projects/<key>/`,
 * where Claude Code keeps a project's transcripts beside its `memory/`; the CLI adds the folder of
 * the current worktree). A session is **new** when its file was modified after the last
 * consolidation (a resumed session counts again: it holds new words). The palace archives the same
 * transcripts (hooks mine them), so this is also what the palace knows of the project's sessions.
 *
 * Reading is tolerant (A5): one JSON record per line, unknown records and broken lines skipped;
 * only human prompts (`type: user` with text content, not tool results or meta lines) and the
 * assistant's text are kept, each with its timestamp.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

/** One transcript file. */
export interface SessionFile {
  path: string;
  id: string;
  mtimeMs: number;
}

/** The sessions of `dirs` (deduplicated by path), newest first. Missing folders are skipped. */
export function listSessions(dirs: readonly string[]): SessionFile[] {
  const seen = new Map<string, SessionFile>();
  for (const d of dirs) {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      continue;
    }
    for (const n of names) {
      if (!n.endsWith('.jsonl') || n.startsWith('.')) continue;
      const p = join(d, n);
      try {
        const st = statSync(p);
        if (st.isFile()) seen.set(p, { path: p, id: basename(n, '.jsonl'), mtimeMs: st.mtimeMs });
      } catch {
        // vanished
      }
    }
  }
  return [...seen.values()].sort((a, b) => b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path));
}

/** One line said in a session. */
interface SessionLine {
  role: 'user' | 'assistant';
  text: string;
  /** ISO-8601, when the record carries one. */
  at?: string;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b) =>
      b && typeof b === 'object' && (b as { type?: unknown }).type === 'text' ? (b as { text?: unknown }).text : '',
    )
    .filter((t): t is string => typeof t === 'string')
    .join('\n');
}

/** Reads at most `maxBytes` from the end of a transcript: the human prompts and assistant text. */
export function readSessionLines(path: string, maxBytes = 512 * 1024): SessionLine[] {
  let raw: string;
  try {
    const buf = readFileSync(path);
    raw = buf.subarray(Math.max(0, buf.length - maxBytes)).toString('utf8');
  } catch {
    return [];
  }
  const out: SessionLine[] = [];
  for (const line of raw.split('\n')) {
    if (!line.startsWith('{')) continue;
    let rec: Record<string, unknown>;
    try {
      rec = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    const type = rec['type'];
    if ((type !== 'user' && type !== 'assistant') || rec['isMeta'] === true || rec['isSidechain'] === true) continue;
    const msg = rec['message'] as { content?: unknown } | undefined;
    const text = textOf(msg?.content).trim();
    if (!text || /^<(command-|local-command|system-reminder)/.test(text)) continue;
    const at = typeof rec['timestamp'] === 'string' ? rec['timestamp'] : undefined;
    out.push({ role: type, text, ...(at ? { at } : {}) });
  }
  return out;
}

/**
 * A short excerpt of a session for the model: its human prompts (and the assistant's last words),
 * newest last, within `maxChars`. Each line carries its date so relative words can be dated.
 */
export function sessionExcerpt(s: SessionFile, maxChars: number): string {
  const lines = readSessionLines(s.path);
  const picked: string[] = [];
  let used = 0;
  for (let i = lines.length - 1; i >= 0 && used < maxChars; i--) {
    const l = lines[i]!;
    if (l.role === 'assistant' && picked.length > 2) continue;
    const t = l.text.replace(/\s+/g, ' ').slice(0, 400);
    const row = `${l.at ? l.at.slice(0, 10) + ' ' : ''}${l.role === 'user' ? 'user' : 'assistant'}: ${t}`;
    picked.push(row);
    used += row.length + 1;
  }
  return picked.reverse().join('\n');
}
