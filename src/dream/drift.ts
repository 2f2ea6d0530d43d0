/**
 * @module dream/drift
 * Memories that drifted from the repository: they name files or functions that are no longer
 * there. Claude Code's prompt tells the model to verify named files, functions and flags before
 * relying on a memory; consolidation does the check once for all of them and hands the findings to
 * the model (gather phase) and the report. Nothing is deleted for drift alone.
 *
 * - Files: path-like words (`src/a/b.ts`, `docs/x.md`, with a `/` and an extension) outside URLs,
 *   checked with `existsSync` under the project root.
 * - Functions: identifiers written as calls in backticks (`` `parseConfig()` ``), looked up with
 *   one `git grep -F -w -o` over the tracked files (5 s timeout); skipped outside git.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isAbsolute, join, normalize } from 'node:path';
import type { Memory } from '../memdir/index.js';

/** What a drifted memory names that is gone. */
export interface Drift {
  file: string;
  missingFiles: string[];
  missingFunctions: string[];
}

const PATH = /(?<![\w/.:-])((?:\.{0,2}\/)?(?:[\w@.-]+\/)+[\w.-]+\.[A-Za-z0-9]{1,8})(?![\w/])/g;
const CALL = /`([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\(\)`/g;
const URL_RE = /\b[a-z][a-z0-9+.-]*:\/\/\S+/gi;

/** The file paths and called functions a memory names. */
export function namedReferences(text: string): { files: string[]; functions: string[] } {
  const clean = text.replace(URL_RE, ' ');
  const files = new Set<string>();
  for (const m of clean.matchAll(PATH)) {
    const p = m[1]!;
    if (isAbsolute(p) || p.startsWith('~')) continue;
    files.add(p.replace(/^\.\//, ''));
  }
  const functions = new Set<string>();
  for (const m of clean.matchAll(CALL)) functions.add(m[1]!.split('.').pop()!);
  return { files: [...files], functions: [...functions] };
}

function grepFound(root: string, names: readonly string[]): Set<string> | undefined {
  if (!names.length) return new Set();
  if (!existsSync(join(root, '.git'))) return undefined;
  try {
    const out = execFileSync('git', ['grep', '-F', '-w', '-o', '-h', '-I', ...names.flatMap((n) => ['-e', n])], {
      cwd: root,
      encoding: 'utf8',
      timeout: 5000,
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return new Set(out.split('\n').filter(Boolean));
  } catch (e) {
    // git grep exits 1 when nothing matched: every name is missing.
    if ((e as { status?: number }).status === 1) return new Set();
    return undefined;
  }
}

/**
 * The memories of `memories` that name files or functions missing under `root`. Functions are
 * checked only inside a git repository (`git grep`); without one, only files are.
 */
export function findDrift(memories: readonly Memory[], root: string): Drift[] {
  const refs = memories.map((m) => ({ m, r: namedReferences(m.body) }));
  const allFunctions = [...new Set(refs.flatMap((x) => x.r.functions))];
  const found = grepFound(root, allFunctions);
  const out: Drift[] = [];
  for (const { m, r } of refs) {
    const missingFiles = r.files.filter((f) => {
      const n = normalize(f);
      return !n.startsWith('..') && !existsSync(join(root, n));
    });
    const missingFunctions = found ? r.functions.filter((f) => !found.has(f)) : [];
    if (missingFiles.length || missingFunctions.length) out.push({ file: m.file, missingFiles, missingFunctions });
  }
  return out;
}
