/**
 * @module core/errors
 * The one error class of Loci and the closed catalogue of error codes.
 *
 * Every failure that reaches a user, an MCP client or a hook carries a `code` from {@link ERRORS}.
 * Callers branch on `code`, never on message text. Each entry documents when it fires and which
 * `details` fields it carries; its message says what went wrong, with which value, and how to fix it.
 *
 * Expected misses (a drawer id that does not exist, an empty search) are results, not errors:
 * they only become `LociError`s at the edges (CLI, MCP) where a failure has to be reported.
 *
 * Messages are always one bounded line, with every echoed value shortened and unsafe characters
 * escaped (`core/error-display.ts`); `details` keeps the full values for library callers.
 */

import { displayDetails, oneLine } from './error-display.js';
// How values are shown in messages lives in error-display.ts; re-exported for the callers of this door.
export { displayDetails, ECHO_MAX_CHARS, MESSAGE_MAX_CHARS, oneLine, shortValue } from './error-display.js';
import { ERRORS, type ErrorCategory, type ErrorSpec } from './error-catalogue.js';
// The catalogue lives in error-catalogue.ts; re-exported for the callers of this door.
export { ERRORS, type ErrorCategory } from './error-catalogue.js';

/** Every error code Loci can raise. */
export type ErrorCode = keyof typeof ERRORS;

/** The `details` object a given code carries. */
export type ErrorDetails<C extends ErrorCode> = Parameters<(typeof ERRORS)[C]['message']>[0];

/** The one error class of Loci. */
export class LociError<C extends ErrorCode = ErrorCode> extends Error {
  override readonly name = 'LociError';
  readonly code: C;
  readonly category: ErrorCategory;
  readonly details: ErrorDetails<C>;

  constructor(code: C, details: ErrorDetails<C>, options?: { cause?: unknown }) {
    const entry = ERRORS[code] as ErrorSpec<ErrorDetails<C>>;
    super(
      oneLine(entry.message(displayDetails(details))),
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.code = code;
    this.category = entry.category;
    this.details = details;
  }

  /** A JSON-safe view for `--json` output and MCP error results. */
  toJSON(): { code: C; category: ErrorCategory; message: string; details: ErrorDetails<C> } {
    return { code: this.code, category: this.category, message: this.message, details: displayDetails(this.details) };
  }
}

/** Creates a {@link LociError} from the catalogue. */
export function createError<C extends ErrorCode>(code: C, details: ErrorDetails<C>, cause?: unknown): LociError<C> {
  return new LociError(code, details, cause === undefined ? undefined : { cause });
}

/** True when `e` is a {@link LociError} (optionally of the given code). */
export function isLociError<C extends ErrorCode>(e: unknown, code?: C): e is LociError<C> {
  return e instanceof LociError && (code === undefined || e.code === code);
}

/**
 * Maps a Node.js file-system error to a catalogue error for `path`.
 * Unknown errors become FILE_UNREADABLE with the system message.
 */
export function fsError(e: unknown, path: string, operation = 'read'): LociError {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return createError('PATH_NOT_FOUND', { path }, e);
  if (code === 'EACCES' || code === 'EPERM') return createError('PERMISSION_DENIED', { path, operation }, e);
  return createError('FILE_UNREADABLE', { path, reason: (e as Error)?.message ?? String(e) }, e);
}
