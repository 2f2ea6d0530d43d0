/**
 * @module dream/claude-md
 * The CLAUDE.md chain that memories are reconciled with, with each file's last change (a memory
 * wins a conflict only when it was written after the file changed). Read only: consolidation
 * never writes CLAUDE.md (`snapshot.ts` refuses the name).
 */
import { statSync } from 'node:fs';
import { loadClaudeMdChain } from '../memdir/index.js';
import type { ClaudeMdText } from './types.js';

/** The loaded (unconditional) CLAUDE.md files of `projectRoot`, in load order. Never throws. */
export function loadClaudeMd(projectRoot: string, env?: NodeJS.ProcessEnv): ClaudeMdText[] {
  const chain = loadClaudeMdChain({ cwd: projectRoot, ...(env ? { env } : {}) });
  const out: ClaudeMdText[] = [];
  for (const f of chain.files) {
    if (f.conditional || !f.content.trim()) continue;
    let mtimeMs = 0;
    try {
      mtimeMs = statSync(f.path).mtimeMs;
    } catch {
      // vanished since it was read
    }
    out.push({ path: f.path, content: f.content, mtimeMs });
  }
  return out;
}
