/**
 * @module dream/gather
 * The gather phase and what the model is shown: recent sessions first, then drifted memories,
 * then narrow searches of the archive; the CLAUDE.md chain; and the memories cut into batches of
 * at most `batchChars` characters (grouped by type, so memories that may overlap travel together).
 * Every piece has a size cap, so the tokens sent grow with the number of memories only.
 */
import type { Drift } from './drift.js';
import type { WorkingMemory } from './consolidate.js';
import { sessionExcerpt, type SessionFile } from './sessions.js';
import type { ArchiveHit, ArchiveSearch, ClaudeMdText } from './types.js';

/** Caps of the context shared by every batch, in characters. */
const CAPS = { sessions: 6, perSession: 1_500, claudeMd: 6_000, archiveQueries: 8, perHit: 300, body: 1_500 };

/** The shared context of one run's prompts. */
interface GatheredContext {
  text: string;
  /** One line for the report per step. */
  notes: string[];
}

function fence(s: string): string {
  return s.replace(/```/g, '`\u200b``');
}

/** Gathers the context (see the module comment). Never throws: a failing archive search is noted. */
export async function gatherContext(o: {
  sessions: readonly SessionFile[];
  drift: readonly Drift[];
  memories: readonly WorkingMemory[];
  archive: ArchiveSearch | undefined;
  claudeMd: readonly ClaudeMdText[];
}): Promise<GatheredContext> {
  const notes: string[] = [];
  const parts: string[] = [];
  const recent = o.sessions.slice(0, CAPS.sessions);
  const excerpts = recent.map((s) => ({ s, text: sessionExcerpt(s, CAPS.perSession) })).filter((x) => x.text !== '');
  if (excerpts.length) {
    parts.push(
      '## Recent sessions (newest first)',
      ...excerpts.map(
        (x) => `### session ${x.s.id} (${new Date(x.s.mtimeMs).toISOString().slice(0, 10)})\n${fence(x.text)}`,
      ),
    );
  }
  notes.push(`gather: read ${excerpts.length} recent session${excerpts.length === 1 ? '' : 's'} (newest first)`);
  if (o.drift.length) {
    parts.push(
      '## Memories naming files or functions that no longer exist in the repository',
      ...o.drift.map(
        (d) => `- ${d.file}: ${[...d.missingFiles, ...d.missingFunctions.map((f) => `${f}()`)].join(', ')}`,
      ),
    );
  }
  if (o.archive) {
    const targets = o.drift.map((d) => d.file);
    const byFile = new Map(o.memories.map((m) => [m.file, m]));
    const queries = targets
      .map((f) => byFile.get(f))
      .filter((m): m is WorkingMemory => !!m && m.description !== '')
      .slice(0, CAPS.archiveQueries);
    const found: string[] = [];
    let failed = 0;
    for (const m of queries) {
      let hits: ArchiveHit[];
      try {
        hits = await o.archive.search(m.description, 3);
      } catch {
        failed++;
        continue;
      }
      for (const h of hits) {
        const t = h.text.replace(/\s+/g, ' ').slice(0, CAPS.perHit);
        found.push(`- about ${m.file}${h.date ? ` (${h.date.slice(0, 10)})` : ''}: ${fence(t)}`);
      }
    }
    if (found.length) parts.push('## Archive excerpts', ...found);
    notes.push(
      `gather: ${queries.length} narrow archive search${queries.length === 1 ? '' : 'es'}, ${found.length} excerpts` +
        (failed ? ` (${failed} failed)` : ''),
    );
  } else notes.push('gather: no archive search (no palace given)');
  if (o.claudeMd.length) {
    let left = CAPS.claudeMd;
    const blocks: string[] = [];
    for (const c of o.claudeMd) {
      if (left <= 0 || !c.content.trim()) continue;
      const body = c.content.slice(0, left);
      left -= body.length;
      blocks.push(`### ${c.path} (last changed ${new Date(c.mtimeMs).toISOString().slice(0, 10)})\n${fence(body)}`);
    }
    if (blocks.length) parts.push('## CLAUDE.md (project instructions; never to be edited)', ...blocks);
  }
  return { text: parts.join('\n\n'), notes };
}

/** One memory as the model sees it. */
function renderMemory(m: WorkingMemory): string {
  const body = m.body.length > CAPS.body ? `${m.body.slice(0, CAPS.body)}…` : m.body;
  return (
    `### ${m.file}\n` +
    `type: ${m.type ?? 'untyped'} · written: ${m.modified.slice(0, 10)}${m.team ? ' · team' : ''}` +
    `${m.pinned ? ' · pinned' : ''}\n` +
    `description: ${m.description || '(none)'}\n${fence(body.trim())}`
  );
}

/** The memories cut into batches of at most `maxChars` (grouped by type, then by file). */
export function batchMemories(memories: readonly WorkingMemory[], maxChars: number): WorkingMemory[][] {
  const sorted = [...memories].sort(
    (a, b) => (a.type ?? '~').localeCompare(b.type ?? '~') || a.file.localeCompare(b.file),
  );
  const out: WorkingMemory[][] = [];
  let cur: WorkingMemory[] = [];
  let size = 0;
  for (const m of sorted) {
    const n = renderMemory(m).length + 2;
    if (cur.length && size + n > maxChars) {
      out.push(cur);
      cur = [];
      size = 0;
    }
    cur.push(m);
    size += n;
  }
  if (cur.length) out.push(cur);
  return out;
}

/** The user message of one batch. */
export function batchPrompt(context: string, batch: readonly WorkingMemory[], today: string): string {
  return (
    `Today is ${today}.\n\n${context ? `${context}\n\n` : ''}` +
    `## Memories to review (${batch.length})\n\n${batch.map(renderMemory).join('\n\n')}`
  );
}
