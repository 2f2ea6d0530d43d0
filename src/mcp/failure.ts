/**
 * @module mcp/failure
 * Turns anything a tool throws into an MCP error result: `isError: true`, a one-line text
 * (`loci: <message> [CODE]`) and `structuredContent: { error: { code, message, details } }` with a
 * code from the catalogue. Unknown errors become INTERNAL; their stack goes to the server's logger
 * (stderr), never to the client. Echoed values are shortened by the catalogue (a prefix and the
 * length of a long value), so a 4 MB argument gets a reply of a few hundred bytes.
 */
import type * as z from 'zod';
import { createError, displayDetails, isLociError, type LociError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';

/** The structured error every failed call carries. */
interface ToolFailure {
  code: string;
  message: string;
  details: Record<string, unknown>;
}

/** An MCP `CallToolResult` for a failure. */
interface ErrorResult {
  [key: string]: unknown;
  isError: true;
  content: { type: 'text'; text: string }[];
  structuredContent: { error: ToolFailure };
}

function jsonSafe(v: unknown): Record<string, unknown> {
  try {
    const r = JSON.parse(JSON.stringify(v ?? {})) as unknown;
    return r && typeof r === 'object' && !Array.isArray(r) ? (r as Record<string, unknown>) : { value: r };
  } catch {
    return {};
  }
}

/** The failure of a LociError (its details bounded for display, like its message). */
export function failureOf(e: LociError): ToolFailure {
  return { code: e.code, message: e.message, details: jsonSafe(displayDetails(e.details)) };
}

/** Builds the error result of a failure. */
export function errorResult(f: ToolFailure): ErrorResult {
  return {
    isError: true,
    content: [{ type: 'text', text: `loci: ${f.message} [${f.code}]` }],
    structuredContent: { error: f },
  };
}

/** Maps a thrown value to an error result, logging unexpected ones with their stack. */
export function resultOfThrown(e: unknown, tool: string, logger: Logger): ErrorResult {
  if (isLociError(e)) return errorResult(failureOf(e));
  logger.log('error', `tool ${tool} failed`, { error: (e as Error)?.stack ?? String(e) });
  return errorResult(
    failureOf(createError('INTERNAL', { what: `${tool} failed unexpectedly (details are in the server log)` })),
  );
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

/**
 * What an argument should have been, from a zod issue, in words (never zod's own messages such as
 * "Too big: expected number to be <=100" or "Invalid input: expected string, received undefined").
 * `value` is the argument as given (undefined when missing).
 */
function expectation(issue: z.core.$ZodIssue, value: unknown): string {
  if (issue.code === 'too_big' || issue.code === 'too_small') {
    const big = issue.code === 'too_big';
    const bound = Number(big ? issue.maximum : issue.minimum);
    if (issue.origin === 'string' && !big && bound === 1) return 'a non-blank text';
    if (issue.origin === 'string' || issue.origin === 'array') {
      const unit = issue.origin === 'string' ? 'characters' : 'items';
      return big ? `at most ${bound} ${unit} (this argument's size limit)` : `at least ${bound} ${unit}`;
    }
    if (issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint') {
      const strict = issue.inclusive === false;
      return `a number ${big ? (strict ? 'below' : 'of at most') : strict ? 'above' : 'of at least'} ${bound}`;
    }
  }
  if (issue.code === 'invalid_type') {
    const want = article(issue.expected === 'int' ? 'integer' : String(issue.expected));
    if (value === undefined) return `${want} (the argument is required)`;
    const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : article(typeof value);
    return `${want}, not ${got}`;
  }
  if (issue.code === 'invalid_value' && issue.values.length > 0)
    return `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  return issue.message;
}

/** INVALID_ARGUMENT for arguments that do not match a tool's input schema. */
export function invalidArguments(error: z.ZodError, args: unknown, accepted: readonly string[]): ToolFailure {
  const issue = error.issues[0];
  if (!issue)
    return failureOf(createError('INVALID_ARGUMENT', { name: 'arguments', value: args, expected: 'an object' }));
  if (issue.code === 'unrecognized_keys') {
    const keys = (issue as { keys: string[] }).keys;
    return failureOf(
      createError('INVALID_ARGUMENT', {
        name: keys.length > 1 ? 'argument names' : 'argument name',
        value: keys.length > 1 ? keys : keys[0],
        expected: accepted.length ? `one of ${accepted.join(', ')}` : 'no arguments',
      }),
    );
  }
  const path = issue.path.map(String);
  let value: unknown = args;
  for (const p of path) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[p] : undefined;
  const expected = expectation(issue, value);
  const more =
    error.issues.length > 1
      ? ` (and ${error.issues.length - 1} more: ${error.issues
          .slice(1)
          .map((i) => i.path.join('.') || 'arguments')
          .join(', ')})`
      : '';
  return failureOf(
    createError('INVALID_ARGUMENT', {
      name: path.join('.') || 'arguments',
      value: value ?? null,
      expected: `${expected}${more}`,
    }),
  );
}
