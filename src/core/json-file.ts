/**
 * @module core/json-file
 * Reads a JSON settings file whose top level must be an object (Claude Code settings, `.mcp.json`),
 * keeping the original text so that a rewrite can preserve formatting and skip no-op writes.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { LociError } from './errors.js';

/** True for a plain JSON object (not null, not an array). */
export function isJsonObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Reads `path` as a JSON object. A missing file gives `{ original: null, doc: {} }`; an empty one
 * `{}`. Invalid JSON or a non-object top level throws `invalid(reason)` (the caller's error code).
 */
export function readJsonObjectFile(
  path: string,
  invalid: (reason: string) => LociError,
): { original: string | null; doc: Record<string, unknown> } {
  if (!existsSync(path)) return { original: null, doc: {} };
  const original = readFileSync(path, 'utf8');
  let parsed: unknown;
  try {
    parsed = original.trim() === '' ? {} : JSON.parse(original);
  } catch (e) {
    throw invalid(`not valid JSON (${(e as Error).message})`);
  }
  if (!isJsonObject(parsed)) throw invalid('the top level is not a JSON object');
  return { original, doc: parsed };
}
