/**
 * @module memdir/index-file
 * MEMORY.md: rebuilt from the topic files after every write, and loaded within Claude Code's limits
 * (200 lines, 25,000 bytes) with a truncation notice.
 *
 * Rebuild rules (ARCHITECTURE.md, "file/index sync"):
 * - One line per memory, `- [Title](file.md) — hook`, at most 150 characters; pinned first, then
 *   newest first; at most 200 topic files (the scan cap). No frontmatter.
 * - An existing line that points at a known file is kept verbatim (its hand-written hook survives)
 *   unless that file was just written, the line is over 150 characters or it carries text that
 *   new lines would have neutralised (markup, invisible characters; see `neutralise.ts`).
 * - Foreign pointer lines (to files Loci did not list) are kept while their target exists, and
 *   dropped once it is gone. A leading `# heading` and non-pointer prose lines are kept; other
 *   headings and blank lines are regenerated.
 * - The result never exceeds the limits: lines are admitted by priority (heading, pinned, notes,
 *   newest entries, foreign lines) until the next would not fit.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../core/fs-safe.js';
import { splitFrontmatter } from './frontmatter.js';
import { stripBlockComments } from './markdown.js';
import { linkTarget, linkText, hasMarkupOrInvisible, neutraliseLine } from './neutralise.js';
import { listMemories, scanTopicFiles } from './scan.js';
import { INDEX_FILE, MEMORY_LIMITS, type MemoryEntry } from './types.js';

/** Limits applied to MEMORY.md. Defaults: {@link MEMORY_LIMITS}. */
export interface IndexLimits {
  /** Lines. Default 200. */
  lines?: number;
  /** UTF-8 bytes. Default 25,000. */
  bytes?: number;
  /** Characters per generated line. Default 150. */
  lineChars?: number;
}

function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  return s.slice(0, Math.max(0, max - 1)).replace(/\s+$/, '') + '…';
}

/**
 * The index line for one memory: `- [Title](file.md) — hook`, at most `maxChars` characters.
 * Title and hook are neutralised (`neutralise.ts`): one line, no invisible characters, no markup
 * that could close the wrapper Claude Code loads MEMORY.md in.
 */
export function renderIndexLine(
  m: Pick<MemoryEntry, 'title' | 'file' | 'description'>,
  maxChars: number = MEMORY_LIMITS.indexLineChars,
): string {
  const title = linkText(clip(neutraliseLine(m.title), 60));
  const head = `- [${title}](${linkTarget(m.file)})`;
  const hook = neutraliseLine(m.description);
  if (!hook) return head;
  const room = maxChars - head.length - 3;
  return room >= 10 ? `${head} — ${clip(hook, room)}` : head;
}

const POINTER = /^\s*[-*+]\s+\[(?:\\.|[^\]\\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+"[^"]*")?\s*\)/;

/** True when a pointer line carries text that {@link renderIndexLine} would neutralise (its target aside). */
function unsafeLine(line: string): boolean {
  const m = POINTER.exec(line);
  const title = m ? (/\[((?:\\.|[^\]\\])*)\]/.exec(m[0])?.[1] ?? '') : '';
  return hasMarkupOrInvisible(m ? `${title} ${line.slice(m.index + m[0].length)}` : line);
}

/** The relative file a pointer line links to, or undefined for prose and web links. */
export function pointerTarget(line: string): string | undefined {
  const m = POINTER.exec(line);
  if (!m) return undefined;
  let t = m[1]!.replace(/^<|>$/g, '').replace(/#.*$/, '').trim();
  if (!t || /^[a-z][a-z0-9+.-]*:/i.test(t)) return undefined;
  try {
    t = decodeURI(t);
  } catch {
    /* keep raw */
  }
  return t.replace(/^\.\//, '');
}

/** What a rebuild produced. */
export interface IndexStats {
  /** Absolute path of MEMORY.md. */
  file: string;
  lines: number;
  bytes: number;
  /** Lines for known memories. */
  entries: number;
  /** Foreign pointer lines and notes kept. */
  preserved: number;
  /** Dangling pointer lines removed. */
  dropped: number;
  /** Memories left out to stay within the limits (still on disk, still listed and recalled). */
  omitted: number;
  /** MEMORY.md was written (false when already up to date). */
  written: boolean;
}

/** Options of {@link buildIndex} and {@link rebuildIndex}. */
interface BuildIndexOptions {
  /** Relative files just written: their lines are regenerated. Default none. */
  touched?: readonly string[];
  /** Regenerate every line of a known file. Default false. */
  regenerate?: boolean;
  limits?: IndexLimits;
}

/**
 * Builds MEMORY.md text from the listed memories (already newest first) and the existing index.
 * `fileExists` answers for foreign pointer targets (relative paths).
 */
export function buildIndex(
  memories: readonly MemoryEntry[],
  existing: string | undefined,
  fileExists: (rel: string) => boolean,
  options: BuildIndexOptions = {},
): { text: string; stats: Omit<IndexStats, 'file' | 'written'> } {
  const maxLines = options.limits?.lines ?? MEMORY_LIMITS.indexLines;
  const maxBytes = options.limits?.bytes ?? MEMORY_LIMITS.indexBytes;
  const maxChars = options.limits?.lineChars ?? MEMORY_LIMITS.indexLineChars;
  const touched = new Set(options.touched ?? []);
  const known = new Map(memories.map((m) => [m.file, m]));
  const kept = new Map<string, string>();
  const foreign: string[] = [];
  const notes: string[] = [];
  let heading: string | undefined;
  let dropped = 0;
  const body = existing === undefined ? '' : splitFrontmatter(existing).body.replace(/\r\n/g, '\n');
  let first = true;
  for (const line of body.split('\n')) {
    if (line.trim() === '') continue;
    if (first && /^#\s/.test(line)) heading = line.trimEnd();
    first = false;
    if (line === heading) continue;
    const target = pointerTarget(line);
    if (target === undefined) {
      if (!/^#{1,6}\s/.test(line)) notes.push(line.trimEnd());
      continue;
    }
    if (known.has(target)) {
      if (
        !kept.has(target) &&
        !touched.has(target) &&
        !options.regenerate &&
        line.length <= maxChars &&
        !unsafeLine(line)
      )
        kept.set(target, line.trimEnd());
    } else if (fileExists(target)) {
      if (!foreign.includes(line.trimEnd())) foreign.push(line.trimEnd());
    } else dropped++;
  }
  const ordered = [...memories.filter((m) => m.pinned), ...memories.filter((m) => !m.pinned)];
  const lineOf = (m: MemoryEntry) => kept.get(m.file) ?? renderIndexLine(m, maxChars);

  // Admit lines by priority within the budget, then lay them out.
  let lines = 0;
  let bytes = 0;
  const admit = (l: string) => {
    const b = Buffer.byteLength(l, 'utf8') + 1;
    if (lines + 1 > maxLines || bytes + b > maxBytes) return false;
    lines++;
    bytes += b;
    return true;
  };
  const head = heading && admit(heading) && admit('') ? [heading, ''] : [];
  const entryLines = new Map<MemoryEntry, string>();
  for (const m of ordered.filter((x) => x.pinned)) if (admit(lineOf(m))) entryLines.set(m, lineOf(m));
  const noteLines = notes.filter(admit);
  for (const m of ordered.filter((x) => !x.pinned)) if (admit(lineOf(m))) entryLines.set(m, lineOf(m));
  const foreignLines = foreign.filter(admit);
  const out = [
    ...head,
    ...noteLines,
    ...ordered.filter((m) => entryLines.has(m)).map((m) => entryLines.get(m)!),
    ...foreignLines,
  ];
  if (head.length && out.length === 2) out.pop();
  const text = out.length ? out.join('\n') + '\n' : '';
  return {
    text,
    stats: {
      lines: out.length,
      bytes: Buffer.byteLength(text, 'utf8'),
      entries: entryLines.size,
      preserved: noteLines.length + foreignLines.length,
      dropped,
      omitted: memories.length - entryLines.size,
    },
  };
}

function readIndex(dir: string): string | undefined {
  try {
    return readFileSync(join(dir, INDEX_FILE), 'utf8');
  } catch {
    return undefined;
  }
}

function signature(dir: string): string {
  return scanTopicFiles(dir)
    .map((c) => `${c.file}:${c.mtimeMs}:${c.size}`)
    .sort()
    .join('\n');
}

/**
 * Rebuilds `<dir>/MEMORY.md` from the topic files (atomic write, skipped when unchanged). If the
 * directory changed while rebuilding (another writer), rebuilds again, up to 3 times, so the last
 * writer's index includes every file that existed when it finished.
 */
export function rebuildIndex(dir: string, options: BuildIndexOptions = {}): IndexStats {
  const file = join(dir, INDEX_FILE);
  let result: IndexStats | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    const before = signature(dir);
    const existing = readIndex(dir);
    // Pinned memories are always indexed; the rest fill the scan cap, newest first.
    const all = listMemories(dir, { limit: Infinity });
    const pinned = all.filter((m) => m.pinned);
    const memories = [
      ...pinned,
      ...all.filter((m) => !m.pinned).slice(0, Math.max(0, MEMORY_LIMITS.scanFiles - pinned.length)),
    ];
    const { text, stats } = buildIndex(
      memories,
      existing,
      (rel) => !rel.split('/').includes('..') && existsSync(join(dir, rel)),
      options,
    );
    const written = text !== (existing ?? '') && !(existing === undefined && text === '');
    if (written) writeFileAtomic(file, text);
    result = { file, ...stats, written: written || (result?.written ?? false) };
    if (signature(dir) === before) break;
  }
  return result!;
}

/** MEMORY.md as it would be injected. */
interface LoadedIndex {
  /** Absolute path. */
  file: string;
  exists: boolean;
  /** The injected text (limits applied, notice appended when truncated). */
  text: string;
  /** Lines and bytes of the loaded content before truncation. */
  lines: number;
  bytes: number;
  truncated: boolean;
  /** The warning appended when truncated. */
  notice?: string;
}

/**
 * Applies Claude Code's load limits to index content: frontmatter and block HTML comments are not
 * counted; the first 200 lines, then the first 25,000 bytes cut at a line end; a notice telling the
 * model how to fix an oversized index is appended.
 */
export function truncateIndex(raw: string, limits: IndexLimits = {}): Omit<LoadedIndex, 'file' | 'exists'> {
  const maxLines = limits.lines ?? MEMORY_LIMITS.indexLines;
  const maxBytes = limits.bytes ?? MEMORY_LIMITS.indexBytes;
  const content = stripBlockComments(splitFrontmatter(raw).body.replace(/\r\n/g, '\n')).trim();
  if (content === '') return { text: '', lines: 0, bytes: 0, truncated: false };
  const all = content.split('\n');
  const bytes = Buffer.byteLength(content, 'utf8');
  const overLines = all.length > maxLines;
  const overBytes = bytes > maxBytes;
  if (!overLines && !overBytes) return { text: content, lines: all.length, bytes, truncated: false };
  let text = overLines ? all.slice(0, maxLines).join('\n') : content;
  if (Buffer.byteLength(text, 'utf8') > maxBytes) {
    const buf = Buffer.from(text, 'utf8')
      .subarray(0, maxBytes)
      .toString('utf8')
      .replace(/\uFFFD$/, '');
    const cut = buf.lastIndexOf('\n');
    text = cut > 0 ? buf.slice(0, cut) : buf;
  }
  const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;
  const reason = [
    overLines ? `${all.length} lines (limit: ${maxLines})` : '',
    overBytes ? `${kb(bytes)} (limit: ${kb(maxBytes)}) — index entries are too long` : '',
  ]
    .filter(Boolean)
    .join(' and ');
  const notice =
    `> WARNING: ${INDEX_FILE} is ${reason}. Only part of it was loaded. ` +
    `Keep the index to one line per memory under ~150 characters, move details into topic files, ` +
    `and delete entries for memories that are no longer true.`;
  return { text: `${text}\n\n${notice}`, lines: all.length, bytes, truncated: true, notice };
}

/** Loads `<dir>/MEMORY.md` within the limits. A missing index loads as empty text. */
export function loadMemoryIndex(dir: string, limits: IndexLimits = {}): LoadedIndex {
  const file = join(dir, INDEX_FILE);
  const raw = readIndex(dir);
  if (raw === undefined) return { file, exists: false, text: '', lines: 0, bytes: 0, truncated: false };
  return { file, exists: true, ...truncateIndex(raw, limits) };
}
