/**
 * @module wakeup/summaries
 * Compaction summaries as drawers: what Claude Code's `PostCompact` hook hands over is stored once
 * (content-addressed id: session + hash of the text, so a summary is stored once however often the
 * hook fires) in the project's wing, room `summaries`, hall `summary` — the hall `wake-sessions.ts`
 * reads back as the newest session's state under "Where we left off".
 */
import { sha256, stableId } from '../core/hash.js';
import { projectWing } from '../core/project-identity.js';
import type { Palace } from '../palace/index.js';

/** The room of compaction-summary drawers. */
export const SUMMARY_ROOM = 'summaries';
/** The wing of a summary whose session had no `cwd`. */
export const UNKNOWN_PROJECT_WING = 'sessions';

/** A compaction summary of a session, as the post-compact hook received it. */
export interface CompactSummary {
  /** The summary text (stored verbatim, redacted by the palace). Blank: nothing is stored. */
  text: string;
  /** What triggered the compaction (`manual`, `auto`), or null. */
  trigger: string | null;
  /** The session's id, or null. */
  sessionId: string | null;
  /** The session's working directory (its project's wing), or null (wing `sessions`). */
  cwd: string | null;
  /** The session's transcript file, or null. */
  transcript: string | null;
  /** ISO-8601 date the summary was made (the drawer's content date). */
  date: string;
}

/** Stores a compaction summary as a drawer; true when it was new (false: blank or stored before). */
export async function storeCompactSummary(palace: Pick<Palace, 'addDrawer'>, s: CompactSummary): Promise<boolean> {
  if (!s.text.trim()) return false;
  const r = await palace.addDrawer({
    id: stableId('d', 'compact-summary', s.sessionId ?? '', sha256(s.text)),
    wing: s.cwd ? projectWing(s.cwd) : UNKNOWN_PROJECT_WING,
    room: SUMMARY_ROOM,
    hall: 'summary',
    source: null,
    contentDate: s.date,
    addedBy: 'loci-hook',
    metadata: {
      kind: 'compact-summary',
      sessionId: s.sessionId,
      trigger: s.trigger,
      transcript: s.transcript,
      cwd: s.cwd,
    },
    text: s.text,
    indexExtra: 'compact summary compaction',
  });
  return r.added;
}
