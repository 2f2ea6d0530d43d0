/**
 * @module hooks/log
 * The hooks' logger: JSON lines appended to `<LOCI_HOME>/logs/hooks.log` (rotated to
 * `hooks.log.1` past 5 MB). When the home cannot be written, lines go to
 * `<tmpdir>/loci-hooks.log` instead, so a broken home is still diagnosable. Nothing reaches stderr
 * unless `LOCI_HOOK_DEBUG=1` (then every line is echoed there, and debug lines are kept).
 */
import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processEnv, readSettings, type Env, type Logger, type LogLevel } from './light-core.js';

/** Size past which `hooks.log` is rotated, in bytes. */
const HOOK_LOG_MAX_BYTES = 5 * 1024 * 1024;

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** The log file of a home. */
function hookLogPath(home: string): string {
  return join(home, 'logs', 'hooks.log');
}

/** Where lines go when the home cannot be written. */
function fallbackLogPath(): string {
  return join(tmpdir(), 'loci-hooks.log');
}

function append(file: string, line: string): boolean {
  try {
    mkdirSync(join(file, '..'), { recursive: true });
    try {
      if (statSync(file).size > HOOK_LOG_MAX_BYTES) renameSync(file, `${file}.1`);
    } catch {
      // no file yet
    }
    appendFileSync(file, line);
    return true;
  } catch {
    return false;
  }
}

/**
 * A logger for hook processes. `fields.event` and `fields.pid` are added to every line.
 * @param env reads `LOCI_HOOK_DEBUG` (`1` → debug level and an stderr echo)
 */
export function hookLogger(home: string, env: Env = processEnv(), base: Record<string, unknown> = {}): Logger {
  const debug = readSettings(env).hookDebug;
  const min: LogLevel = debug ? 'debug' : 'info';
  return {
    log(level, message, fields) {
      if (ORDER[level] < ORDER[min]) return;
      let line: string;
      try {
        line =
          JSON.stringify({ t: new Date().toISOString(), level, message, pid: process.pid, ...base, ...fields }) + '\n';
      } catch {
        line = JSON.stringify({ t: new Date().toISOString(), level, message, pid: process.pid, ...base }) + '\n';
      }
      if (!append(hookLogPath(home), line))
        append(fallbackLogPath(), JSON.stringify({ ...JSON.parse(line), home }) + '\n');
      if (debug) {
        try {
          process.stderr.write(`loci hook ${level}: ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}\n`);
        } catch {
          // stderr closed
        }
      }
    },
  };
}

/** A JSON-safe description of an error for the log (code and details for Loci errors). */
export function errorFields(e: unknown): Record<string, unknown> {
  if (e && typeof e === 'object') {
    const o = e as { code?: unknown; message?: unknown; stack?: unknown; details?: unknown };
    return {
      error: typeof o.message === 'string' ? o.message : String(e),
      ...(o.code !== undefined ? { code: o.code } : {}),
      ...(o.details !== undefined ? { details: o.details } : {}),
      ...(typeof o.stack === 'string' ? { stack: o.stack.split('\n').slice(0, 6).join('\n') } : {}),
    };
  }
  return { error: String(e) };
}
