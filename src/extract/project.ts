/**
 * @module extract/project
 * The lifecycle steps as front ends run them for a project: extraction into the memory folder
 * `loci memory` uses for the session's working directory (Claude Code's when it is in use, with
 * the project's CLAUDE.md files as what not to repeat), and session notes archived in the palace
 * (a drawer per version of the notes: room `session-notes`, hall `summary`, the project's wing).
 */
import { sha256, stableId } from '../core/hash.js';
import { projectWing } from '../core/project-identity.js';
import { loadClaudeMdChain, selectMemoryDir, type MemoryDirChoice } from '../memdir/index.js';
import type { Palace } from '../palace/index.js';
import { extractMemories, type ExtractOptions, type ExtractResult } from './extract.js';

/** Options of {@link extractForProject}: those of `extractMemories` without `dir`, plus how to choose it. */
interface ProjectExtractOptions extends Omit<ExtractOptions, 'dir' | 'claudeMd'> {
  /** The session's working directory (chooses the memory folder and the CLAUDE.md chain). */
  cwd: string;
  /** Environment for the folder choice. Default: the process's. */
  env?: NodeJS.ProcessEnv;
  /** A memory folder to use instead of the chosen one. */
  dir?: string;
  /** Use Claude Code's folder even if it does not exist yet. Default false. */
  claude?: boolean;
}

/** Extracts into the project's memory folder; returns the result and the folder choice. */
export async function extractForProject(
  o: ProjectExtractOptions,
): Promise<{ result: ExtractResult; choice: MemoryDirChoice }> {
  const choice = selectMemoryDir({
    cwd: o.cwd,
    lociHome: o.home,
    ...(o.env ? { env: o.env } : {}),
    ...(o.dir !== undefined ? { dir: o.dir } : {}),
    ...(o.claude ? { claude: true } : {}),
  });
  const chain = loadClaudeMdChain({ cwd: o.cwd, ...(o.env ? { env: o.env } : {}) });
  const claudeMd = chain.files.filter((f) => f.content.trim()).map((f) => f.content);
  const result = await extractMemories({ ...o, dir: choice.dir, claudeMd });
  return { result, choice };
}

/** Session notes to archive. */
interface NotesToArchive {
  sessionId: string;
  cwd: string | null;
  transcript: string;
  notes: string;
  /** ISO-8601 date of this version. */
  date: string;
}

/**
 * Stores the latest version of a session's notes as a drawer and removes the session's earlier
 * versions (notes are a running digest of the archived transcript, not words said: one per session,
 * so a session archived in many steps holds what a single archive would); true when it was new.
 */
export async function archiveSessionNotes(
  palace: Pick<Palace, 'addDrawer' | 'listDrawers' | 'deleteDrawer'>,
  n: NotesToArchive,
): Promise<boolean> {
  if (!n.notes.trim()) return false;
  const wing = n.cwd ? projectWing(n.cwd) : 'sessions';
  const r = await palace.addDrawer({
    id: stableId('d', 'session-notes', n.sessionId, sha256(n.notes)),
    wing,
    room: 'session-notes',
    hall: 'summary',
    source: null,
    contentDate: n.date,
    addedBy: 'loci-hook',
    metadata: { kind: 'session-notes', sessionId: n.sessionId, transcript: n.transcript, cwd: n.cwd },
    text: n.notes,
    indexExtra: 'session notes where we left off',
  });
  if (!r.added) return false;
  const { drawers } = await palace.listDrawers({ wing, room: 'session-notes' }, { limit: 10_000 });
  for (const d of drawers) {
    if (d.id !== r.id && d.metadata['sessionId'] === n.sessionId) await palace.deleteDrawer(d.id);
  }
  return true;
}
