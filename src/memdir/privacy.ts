/**
 * @module memdir/privacy
 * Privacy per memory type, and the one export path every sync or share feature must go through.
 *
 * | type      | default  | allowed        |
 * | --------- | -------- | -------------- |
 * | user      | private  | private only   |
 * | feedback  | private  | private, team  |
 * | project   | private  | private, team  |
 * | reference | team     | private, team  |
 * | (none)    | private  | private, team  |
 *
 * A file under `team/` is team (it is already shared), except a `user` memory, which stays private
 * wherever it sits. Privacy is stored as `metadata.privacy` in the frontmatter.
 */
import { listMemories, readMemoryFile } from './scan.js';
import type { Memory, MemoryType } from './types.js';

export { defaultPrivacy, checkPrivacy, effectivePrivacy } from './privacy-rules.js';

/** Options of {@link exportMemories}. */
interface ExportOptions {
  /**
   * Who receives the export: `team` gets only team memories; `private` (the owner, e.g. a backup or
   * a sync between the owner's machines) gets everything.
   */
  audience: 'team' | 'private';
  /** Restrict to one type. Default: all. */
  type?: MemoryType;
}

/**
 * Every memory in `dir` the audience may see, with bodies, newest first (no scan limit). This is
 * the only sanctioned way to take memories out of a directory: export, sync and share paths must
 * call it rather than reading files themselves.
 */
export function exportMemories(dir: string, options: ExportOptions): Memory[] {
  const entries = listMemories(dir, { limit: Infinity, ...(options.type ? { type: options.type } : {}) });
  const out: Memory[] = [];
  for (const e of entries) {
    if (options.audience === 'team' && e.privacy !== 'team') continue;
    const m = readMemoryFile(dir, e.file);
    // Re-check on the fresh read: the file may have changed since the listing.
    if (m && (options.audience === 'private' || m.privacy === 'team')) out.push(m);
  }
  return out;
}
