/**
 * @module core/error-spec
 * The shape of one entry of the error catalogue (`core/error-catalogue.ts`).
 */

/** Who can fix the problem: the user (bad input), the system (disk, permissions), or a dependency. */
export type ErrorCategory = 'user' | 'system' | 'dependency';

export interface ErrorSpec<D> {
  readonly category: ErrorCategory;
  readonly message: (details: D) => string;
}

/** One catalogue entry: who can fix it and its message. */
export function spec<D>(category: ErrorCategory, message: (details: D) => string): ErrorSpec<D> {
  return { category, message };
}
