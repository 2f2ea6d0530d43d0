/**
 * @module ingest/convos-miner/discover
 * Finding conversations: one walk of a folder (the project walker, so `.gitignore`, `.lociignore`
 * and the skip list apply) split into conversation units and everything else (the Claude Code
 * layout is in claude-dirs).
 *
 * Classification of a walked file, cheapest first:
 * 1. a companion of a conversation (`tool-results/`, `session-memory/`, subagent `.meta.json`) or a
 *    Slack export root's metadata (`users.json`, `channels.json`, … at the root) → neither;
 * 2. a file stored before with the same size and mtime → what it was (no read);
 * 3. otherwise the content decides, whatever the name (see sniff: a file whose name cannot hold a
 *    conversation is peeked at first and sniffed only when it starts like JSON).
 * Slack day files (recognised by content, any name) are grouped into one unit per channel folder.
 * Entries the walk leaves out (ignore rules inside the root, the default skip list) are reported in
 * `pruned` so that the summary accounts for every file.
 */
import { basename, dirname, extname, join } from 'node:path';
import type { SourceState } from '../../store/ports.js';
// Direct imports (not the doors): discovering unchanged files never loads the parsers or chunkers.
import { isConvoCompanion, isSlackExportRoot } from '../convos/detect.js';
import type { ConvoFormat } from '../convos/types.js';
import { sniffFormat } from './sniff.js';
import { walkProject, type WalkItem } from '../project/walk.js';
import type { ConvoSourceState, ConvoUnit, UnitKind } from './types.js';

const SLACK_DAY = /^\d{4}-\d{2}-\d{2}\.json$/i;

/** How a file of `format` is read (see types `UnitKind`). */
function unitKind(format: ConvoFormat, path: string): UnitKind {
  if (format === 'claude-code') return 'claude';
  if (format === 'claude-history' || format === 'codex') return 'jsonl';
  if (format === 'gemini' && extname(path).toLowerCase() === '.jsonl') return 'jsonl';
  if (format === 'slack') return 'slack';
  return 'whole';
}

/** What a walk found. */
export interface Discovery {
  /** Conversation units, in walk order (Slack channels where their first day file was). */
  units: ConvoUnit[];
  /** Every other walked entry (project files and files the walker skipped), in walk order. */
  others: WalkItem[];
  /** Conversation companions and Slack metadata files (neither mined nor handed on). */
  companions: number;
  /** Their paths (the first 2000). */
  companionPaths: string[];
  /** Entries the walk left out: ignored by a rule, or a folder of the default skip list (path ends with `/`). */
  pruned: { path: string; why: 'skip-dir' | 'ignored' }[];
}

/** Options of {@link discover}. */
interface DiscoverOptions {
  /** Walk these files instead of the folder. */
  files?: readonly string[];
  respectGitignore?: boolean;
  ignore?: readonly string[];
  /** Stored sources under the root (any kind), by source path: lets unchanged files skip the sniff. */
  known: ReadonlyMap<string, SourceState>;
}

function storedFormat(s: SourceState | undefined): { kind: UnitKind; format: ConvoFormat } | null {
  if (!s || s.kind !== 'convo') return null;
  const st = s.state as Partial<ConvoSourceState>;
  return st.kind && st.format ? { kind: st.kind, format: st.format } : null;
}

/** True when `path` ends with `.json` in any case (no lower-cased copy of every path). */
function isJsonName(path: string): boolean {
  const n = path.length;
  if (n < 5 || path.charCodeAt(n - 5) !== 46) return false;
  return path.endsWith('json') || path.slice(n - 4).toLowerCase() === 'json';
}

/** Walk items of an explicit file list; a file gone since it was listed is left out. */
function* walkFiles(files: readonly string[]): Generator<WalkItem> {
  for (const f of files) {
    let items: Generator<WalkItem>;
    try {
      items = walkProject({ root: f, maxFileBytes: Number.MAX_SAFE_INTEGER });
    } catch {
      continue; // deleted in the meantime (e.g. Claude Code's transcript clean-up)
    }
    yield* items;
  }
}

/** Walks `root` (or `opts.files`) once and sorts conversations from everything else (see the module comment). */
export function discover(root: string, opts: DiscoverOptions): Discovery {
  const pruned: Discovery['pruned'] = [];
  const items = opts.files
    ? walkFiles(opts.files)
    : walkProject({
        root,
        maxFileBytes: Number.MAX_SAFE_INTEGER,
        ...(opts.respectGitignore !== undefined ? { respectGitignore: opts.respectGitignore } : {}),
        ...(opts.ignore ? { extraIgnores: opts.ignore } : {}),
        onPrune: (rel, why) => pruned.push({ path: `${join(root, rel)}${why === 'skip-dir' ? '/' : ''}`, why }),
      });
  const all = [...items];
  // Only the JSON files of a folder can make it a Slack export root: the others are not listed.
  const names = new Map<string, string[]>();
  for (const it of all) {
    if (!isJsonName(it.path)) continue;
    const d = dirname(it.path);
    const list = names.get(d);
    if (list) list.push(basename(it.path));
    else names.set(d, [basename(it.path)]);
  }
  const slackRoots = new Set([...names].filter(([, n]) => isSlackExportRoot(n)).map(([d]) => d));
  const out: Discovery = { units: [], others: [], companions: 0, companionPaths: [], pruned };
  const channels = new Map<string, ConvoUnit>();
  for (const it of all) {
    if (it.kind !== 'file') {
      out.others.push(it);
      continue;
    }
    // The folder is looked at only where it can matter (Slack roots and channels): an unchanged re-mine
    // classifies every file of the tree here.
    if (
      isConvoCompanion(it.path) ||
      (slackRoots.size > 0 && slackRoots.has(dirname(it.path)) && extname(it.path).toLowerCase() === '.json')
    ) {
      if (out.companions++ < 2000) out.companionPaths.push(it.path);
      continue;
    }
    let found: { kind: UnitKind; format: ConvoFormat } | null = null;
    const prev = opts.known.get(it.path);
    const stored = storedFormat(prev);
    let channel: { kind: UnitKind; format: ConvoFormat } | null;
    if (stored && prev!.size === it.size && prev!.mtimeMs === it.mtimeMs) found = stored;
    else if (prev && prev.kind !== 'convo' && prev.size === it.size && prev.mtimeMs === it.mtimeMs) found = null;
    else if (
      (channel = storedFormat(opts.known.get(dirname(it.path))))?.kind === 'slack' &&
      SLACK_DAY.test(basename(it.path))
    )
      found = channel;
    else {
      const format = sniffFormat(it.path);
      if (format) found = { kind: unitKind(format, it.path), format };
    }
    if (!found) {
      out.others.push(it);
      continue;
    }
    if (found.kind === 'slack') {
      const dir = dirname(it.path);
      let ch = channels.get(dir);
      if (!ch) {
        ch = { kind: 'slack', format: 'slack', path: dir, size: 0, mtimeMs: 0, files: [] };
        channels.set(dir, ch);
        out.units.push(ch);
      }
      ch.size += it.size;
      ch.mtimeMs = Math.max(ch.mtimeMs, it.mtimeMs);
      ch.files!.push(it.path);
      continue;
    }
    out.units.push({ kind: found.kind, format: found.format, path: it.path, size: it.size, mtimeMs: it.mtimeMs });
  }
  return out;
}
