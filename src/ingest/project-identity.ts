/**
 * @module ingest/project-identity
 * Finds the project a path belongs to (its git root, or the folder itself) and names its wing.
 */
import { statSync } from 'node:fs';
import { findGitRoot } from '../core/git.js';
import { basename, dirname, resolve } from 'node:path';

/** Normalises a name into a wing: lower-case, runs of other characters → `-`, at most 64 chars. */
export function wingName(raw: string): string {
  const w = raw
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_.-]+/gu, '-')
    .replace(/-+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 64);
  return w || 'default';
}

/**
 * The default wing of a mined path: the name of its git root, else of the folder itself
 * (for a file: its folder).
 */
export function defaultWing(path: string): string {
  const root = findGitRoot(path);
  if (root) return wingName(basename(root));
  let dir = resolve(path);
  try {
    if (!statSync(dir).isDirectory()) dir = dirname(dir);
  } catch {
    /* keep */
  }
  return wingName(basename(dir) || 'root');
}
