/**
 * @module palace/diary
 * An agent's journal: each entry is a drawer in the `diary` wing, in a room named after the
 * agent, hall `diary`, dated when written — searchable like everything else, and easy to leave
 * out of searches with a wing filter.
 */
import { createError } from '../core/errors.js';
import { stableId } from '../core/hash.js';
import type { Clock } from '../core/clock.js';
import type { Drawer, MemoryStore } from '../store/ports.js';
import { DIARY_WING } from './names.js';

/** A diary entry to write. */
export interface DiaryEntryInput {
  /** Agent name (1–64 chars); becomes the room, lower-cased. */
  agent: string;
  /** The entry, verbatim. */
  entry: string;
  /** Optional topic label. */
  topic?: string;
  /** The project the entry is about (stored in metadata). */
  project?: string;
  /**
   * When the entry was written (ISO-8601); default now. A client that retries a write sends the
   * same time, so the retry lands on the same drawer instead of a second entry.
   */
  at?: string;
}

/** Normalises an agent name into a room name. */
function agentRoom(agent: string): string {
  const a = agent
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_.-]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
  if (!a || /^\.+$/.test(a))
    throw createError('INVALID_ARGUMENT', {
      name: 'agent',
      value: agent,
      expected: 'a name with letters or digits, e.g. "claude"',
    });
  return a;
}

/** Writes one entry; returns the drawer id. */
export async function diaryWrite(
  store: MemoryStore,
  clock: Clock,
  input: DiaryEntryInput,
): Promise<{ id: string; date: string }> {
  const room = agentRoom(input.agent);
  if (!input.entry.trim())
    throw createError('INVALID_ARGUMENT', { name: 'entry', value: input.entry, expected: 'non-empty text' });
  const at = input.at === undefined ? clock.now() : Date.parse(input.at);
  if (!Number.isFinite(at))
    throw createError('INVALID_ARGUMENT', {
      name: 'at',
      value: String(input.at),
      expected: 'an ISO-8601 date and time',
    });
  const date = new Date(at).toISOString();
  const id = stableId('d', 'diary', room, date, input.entry);
  await store.put([
    {
      id,
      wing: DIARY_WING,
      room,
      hall: 'diary',
      source: null,
      contentDate: date,
      addedBy: input.agent,
      metadata: {
        agent: input.agent,
        ...(input.topic ? { topic: input.topic } : {}),
        ...(input.project ? { project: input.project } : {}),
      },
      text: input.entry,
      ...(input.topic ? { indexExtra: input.topic } : {}),
    },
  ]);
  return { id, date };
}

/** Reads an agent's entries, newest first. */
export async function diaryRead(
  store: MemoryStore,
  agent: string,
  opts: { limit?: number; offset?: number; since?: string } = {},
): Promise<{ entries: Drawer[]; total: number }> {
  const r = await store.list(
    { wing: DIARY_WING, room: agentRoom(agent), ...(opts.since ? { since: opts.since } : {}) },
    { limit: opts.limit ?? 10, offset: opts.offset ?? 0, order: 'date' },
  );
  return { entries: r.drawers, total: r.total };
}
