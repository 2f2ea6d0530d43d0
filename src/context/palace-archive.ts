/**
 * @module context/palace-archive
 * The archive port written to a palace: one drawer per message, in a wing and room of the
 * caller's choice, keyed by session and sequence number (so the same message archived twice is one
 * drawer, and two equal messages of a session are two). Searchable like any mined conversation;
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
  /** Clock for `contentDate`, in ms. Default `Date.now`. */
  now?: () => number;
}

/**
 * An {@link Archiver} that writes each message as a drawer through `palace.addDrawer` (source
 * `loci-context://<session>#<seq>`, metadata `{ sessionId, seq, role, reason }`). Messages without
 * text are skipped.
 */
export function palaceArchiver(palace: Pick<Palace, 'addDrawer'>, options: PalaceArchiverOptions): Archiver {
  const now = options.now ?? Date.now;
  return async (batch) => {
    const contentDate = new Date(now()).toISOString();
    for (const { seq, message } of batch.messages) {
      const text = renderTranscript([message]);
      if (!text.trim()) continue;
      await palace.addDrawer({
        wing: options.wing,
        room: options.room ?? 'chat',
        source: `loci-context://${batch.sessionId}#${seq}`,
        chunkIndex: seq,
        contentDate,
        addedBy: options.addedBy ?? 'loci-context',
        metadata: { ...options.metadata, sessionId: batch.sessionId, seq, role: message.role, reason: batch.reason },
        text,
      });
    }
  };
}
