/**
 * @module core/logger
 * A tiny logger port. Library code never writes to stdout: stdout belongs to the CLI's output,
 * the MCP protocol and hook answers. The default logger is silent; front ends pass a stderr or
 * file logger.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/** Log levels in increasing severity. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Where library code sends diagnostics. */
export interface Logger {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Discards everything (the library default). */
export const silentLogger: Logger = { log: () => {} };

/**
 * Writes `level message {fields}` lines at or above `min` to `write` (default: the process's stderr;
 * the CLI passes its own stream so that an in-process run captures them).
 */
export function stderrLogger(
  min: LogLevel = 'warn',
  write: (line: string) => void = (line) => void process.stderr.write(line),
): Logger {
  return {
    log(level, message, fields) {
      if (ORDER[level] < ORDER[min]) return;
      const extra = fields && Object.keys(fields).length ? ' ' + JSON.stringify(fields) : '';
      write(`loci ${level}: ${message}${extra}\n`);
    },
  };
}

/** Appends JSON lines to `file` (used by hooks, which must keep stdout and stderr quiet). */
export function fileLogger(file: string, min: LogLevel = 'info'): Logger {
  return {
    log(level, message, fields) {
      if (ORDER[level] < ORDER[min]) return;
      try {
        mkdirSync(dirname(file), { recursive: true });
        appendFileSync(file, JSON.stringify({ t: new Date().toISOString(), level, message, ...fields }) + '\n');
      } catch {
        // Logging must never break the caller.
      }
    },
  };
}
