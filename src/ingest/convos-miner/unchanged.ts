/**
 * @module ingest/convos-miner/unchanged
 * Deciding from the stored state alone whether a conversation unit must be read: light on purpose
 * (no parser), so that a run over unchanged transcripts never loads the preparing side.
 */
import type { SourceState } from '../../store/ports.js';
import type { ConvoContext, ConvoJob, ConvoSourceState } from './types.js';

/** The stored cursor state when it can be continued with the current settings, else null. */
export function usableState(prev: SourceState | null, ctx: ConvoContext): ConvoSourceState | null {
  if (!prev || prev.kind !== 'convo' || prev.config !== ctx.config) return null;
  const st = prev.state as unknown as Partial<ConvoSourceState>;
  if (st.v !== 1) return null;
  return st as ConvoSourceState;
}

/** True when a unit needs no read at all: stored with the same settings, size and mtime. */
export function isUnchanged(job: ConvoJob, ctx: ConvoContext): boolean {
  const { unit, prev } = job;
  const st = usableState(prev, ctx);
  return !!st && !!prev && prev.size === unit.size && prev.mtimeMs === unit.mtimeMs;
}
