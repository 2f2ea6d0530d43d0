/**
 * @module hooks/activity
 * What the hooks have been doing, read back for people (`loci ui`'s agents page): the latest lines
 * of `<LOCI_HOME>/logs/hooks.log` (JSON lines), the archive jobs waiting in `queue/` and those
 * moved to `queue/failed/`, and whether a worker holds the lock. Read-only; node built-ins only.
 */
import { closeSync, openSync, readSync, fstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { homePaths } from './light-core.js';
import { lockIsLive, queuedFiles, readLock } from './queue.js';

/** One line of the hook log. */
export interface HookLogLine {
  /** ISO-8601 time, or '' when the line has none. */
  t: string;
  level: string;
  message: string;
  /** The hook event, when the line names one. */
  event: string | null;
  /** The other fields of the line. */
  fields: Record<string, unknown>;
}

/** The hooks' recent activity (see the module comment). */
export interface HookActivity {
  log: string;
  /** The latest lines, newest first (at most `limit`). */
  lines: HookLogLine[];
  /** Counts by kind over those lines. */
  counts: { archives: number; failures: number; warnings: number };
  /** Job files waiting, oldest first (names only). */
  queued: string[];
  /** Job files that failed for good (names only). */
  failed: string[];
  /** A worker holds a live lock. */
  workerRunning: boolean;
}

/** The last `maxBytes` of a file as text ('' when it cannot be read). */
function tail(file: string, maxBytes: number): string {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    const len = Math.min(size, maxBytes);
    const buf = Buffer.alloc(len);
    readSync(fd, buf, 0, len, size - len);
    const text = buf.toString('utf8');
    return len < size ? text.slice(text.indexOf('\n') + 1) : text;
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function parseLine(raw: string): HookLogLine | undefined {
  try {
    const j = JSON.parse(raw) as Record<string, unknown>;
    if (!j || typeof j !== 'object') return undefined;
    const { t, level, message, event, ...fields } = j;
    return {
      t: typeof t === 'string' ? t : '',
      level: typeof level === 'string' ? level : 'info',
      message: typeof message === 'string' ? message : '',
      event: typeof event === 'string' ? event : null,
      fields,
    };
  } catch {
    return undefined;
  }
}

/** Reads the hooks' recent activity of a home: at most `limit` log lines (default 100, newest first). */
export function hookActivity(home: string, limit = 100): HookActivity {
  const paths = homePaths(home);
  const log = join(paths.logs, 'hooks.log');
  const lines = tail(log, 256 * 1024)
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map(parseLine)
    .filter((l): l is HookLogLine => l !== undefined)
    .reverse()
    .slice(0, limit);
  const counts = { archives: 0, failures: 0, warnings: 0 };
  for (const l of lines) {
    if (l.level === 'error') counts.failures++;
    else if (l.level === 'warn') counts.warnings++;
    if (/archiv|mined|queued/i.test(l.message)) counts.archives++;
  }
  let failed: string[] = [];
  try {
    failed = readdirSync(join(paths.queue, 'failed')).filter((n) => n.endsWith('.json'));
  } catch {
    failed = [];
  }
  return {
    log,
    lines,
    counts,
    queued: queuedFiles(home).map((f) => f.slice(paths.queue.length + 1)),
    failed,
    workerRunning: lockIsLive(readLock(home)),
  };
}
