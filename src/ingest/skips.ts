/**
 * @module ingest/skips
 * Accounting of files a mining run did not mine: every file the walk met is either mined,
 * unchanged, or skipped for one reason, counted per reason in the summary and listed (with its
 * path) for `--verbose`.
 *
 * Reasons: `ignored` (an ignore file inside the mined path, `--ignore`, or the default skip list of
 * folders such as `node_modules` — a pruned folder counts once), `binary`, `too-large`,
 * `unrecognised` (not a conversation, in `--mode convos`), `unreadable`, `symlink`, `special`
 * (sockets, devices), `companion` (a conversation's side file: tool-result sidecars, subagent
 * `.meta.json`, a Slack export's `users.json`, read through its conversation).
 */

/** Why a walked entry was not mined. */
export type SkipReason =
  'ignored' | 'binary' | 'too-large' | 'unrecognised' | 'unreadable' | 'symlink' | 'special' | 'companion';

/** Every reason, in display order. */
const SKIP_REASONS: readonly SkipReason[] = [
  'ignored',
  'binary',
  'too-large',
  'unrecognised',
  'unreadable',
  'symlink',
  'special',
  'companion',
];

/** One skipped entry (a folder path ends with `/`). */
export interface SkippedFile {
  path: string;
  reason: SkipReason;
  /** What made it so (an errno code, `<size> bytes > <max>`, `extension .png`, `default skip list`…). */
  detail?: string;
}

/** At most this many skipped entries are listed in a summary (all are counted). */
export const SKIPPED_LISTED = 2000;

/** Per-reason counts with every reason present (0 when none). */
export function emptySkips(): Record<SkipReason, number> {
  return {
    ignored: 0,
    binary: 0,
    'too-large': 0,
    unrecognised: 0,
    unreadable: 0,
    symlink: 0,
    special: 0,
    companion: 0,
  };
}

/** The skip fields of a summary. */
interface SkipTally {
  filesSkipped: number;
  skipped: Record<SkipReason, number>;
  skippedFiles: SkippedFile[];
}

/** Counts one skipped entry into `s` (listed while fewer than {@link SKIPPED_LISTED} are). */
export function noteSkip(s: SkipTally, path: string, reason: SkipReason, detail?: string): void {
  s.filesSkipped++;
  s.skipped[reason]++;
  if (s.skippedFiles.length < SKIPPED_LISTED)
    s.skippedFiles.push(detail === undefined ? { path, reason } : { path, reason, detail });
}

/** Adds the skip fields of `b` into `a`. */
export function mergeSkips(a: SkipTally, b: SkipTally): void {
  a.filesSkipped += b.filesSkipped;
  for (const r of SKIP_REASONS) a.skipped[r] += b.skipped[r];
  for (const f of b.skippedFiles) if (a.skippedFiles.length < SKIPPED_LISTED) a.skippedFiles.push(f);
}
