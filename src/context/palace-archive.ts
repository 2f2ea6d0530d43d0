/**
 * @module context/palace-archive
 * The archive port written to a palace: consecutive messages grouped into drawers of up to
 * `maxDrawerChars` (a message is never split; a longer one is a drawer of its own), in a wing and
 * room of the caller's choice, keyed by session and sequence numbers (so the same messages
 * archived twice are one drawer, and two equal messages of a session are two). Grouping matters:
 * every drawer is one write transaction of the palace. Searchable like any mined conversation;
 * secrets are redacted by the palace on the way in.
 */
import type { Palace } from '../palace/index.js';
import type { Archiver } from './compaction.js';
import { renderTranscript } from './messages.js';

/** Options of {@link palaceArchiver}. */
export interface PalaceArchiverOptions {
  /** Wing of the drawers (a project name). Required. */
  wing: string;
  /** Room of the drawers. Default `chat`. */
  room?: string;
  /** `addedBy` of the drawers. Default `loci-context`. */
  addedBy?: string;
  /** Extra metadata on every drawer (cwd, branch…). Default none. */
  metadata?: Record<string, unknown>;
  /** Messages are grouped into drawers of at most this many characters. Default 8,000; 0 = one per message. */
  maxDrawerChars?: number;
  /** Clock for `contentDate`, in ms. Default `Date.now`. */
  now?: () => number;
}

/**
 * An {@link Archiver} that writes messages as drawers through `palace.addDrawer` (source
 * `loci-context://<session>#<first>-<last>`, chunk index the first sequence number, metadata
 * `{ sessionId, seqFrom, seqTo, reason }`). Messages without text are skipped.
 */
export function palaceArchiver(palace: Pick<Palace, 'addDrawer'>, options: PalaceArchiverOptions): Archiver {
  const now = options.now ?? Date.now;
  const max = Math.max(0, options.maxDrawerChars ?? 8_000);
  return async (batch) => {
    const contentDate = new Date(now()).toISOString();
    const write = async (group: { seq: number; text: string }[]) => {
      if (!group.length) return;
      const from = group[0]!.seq;
      const to = group.at(-1)!.seq;
      await palace.addDrawer({
        wing: options.wing,
        room: options.room ?? 'chat',
        source: `loci-context://${batch.sessionId}#${from}-${to}`,
        chunkIndex: from,
        contentDate,
        addedBy: options.addedBy ?? 'loci-context',
        metadata: { ...options.metadata, sessionId: batch.sessionId, seqFrom: from, seqTo: to, reason: batch.reason },
        text: group.map((g) => g.text).join('\n\n'),
      });
    };
    let group: { seq: number; text: string }[] = [];
    let size = 0;
    for (const { seq, message } of batch.messages) {
      const text = renderTranscript([message]);
      if (!text.trim()) continue;
      if (group.length && size + text.length > max) {
        await write(group);
        group = [];
        size = 0;
      }
      group.push({ seq, text });
      size += text.length + 2;
    }
    await write(group);
  };
}
