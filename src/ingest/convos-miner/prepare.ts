/**
 * @module ingest/convos-miner/prepare
 * The CPU-heavy half of conversation mining for one unit (read, parse, redact, chunk, classify,
 * pre-tokenise): runs inline or on a worker thread; the store writes happen in the miner.
 *
 * Decision table (per unit, from its stored state):
 * | stored state                                  | what happens                                      |
 * | --------------------------------------------- | ------------------------------------------------- |
 * | none, another miner's, other settings         | read whole → replace                              |
 * | same size and mtime                           | nothing (decided without reading: `isUnchanged`)  |
 * | append-only kind, prefix hash matches         | read the bytes after the offset → append          |
 * | append-only kind, shrunk or prefix differs    | read whole → replace                              |
 * | whole-file kind, content hash unchanged       | bookkeeping only (touch)                          |
 */
import { isLociError, fsError } from '../../core/errors.js';
import { prepareClaude } from './claude-file.js';
import { prepareJsonl } from './jsonl-file.js';
import { prepareSlack, prepareWhole } from './whole-file.js';
import { isUnchanged, usableState } from './unchanged.js';
import type { ClaudeSourceState, ConvoContext, ConvoJob, JsonlSourceState, PreparedUnit } from './types.js';

/** Prepares one unit. A file that cannot be read becomes `skipped` with a warning (never a throw). */
export function prepareUnit(job: ConvoJob, ctx: ConvoContext): PreparedUnit {
  const path = job.unit.path;
  if (isUnchanged(job, ctx))
    return { kind: 'unchanged', path, bytesRead: 0, redactions: 0, conversations: 0, warnings: [] };
  try {
    const st = usableState(job.prev, ctx);
    switch (job.unit.kind) {
      case 'claude':
        return prepareClaude(job, ctx, st?.kind === 'claude' ? (st as ClaudeSourceState) : null);
      case 'jsonl':
        return prepareJsonl(job, ctx, st?.kind === 'jsonl' ? (st as JsonlSourceState) : null);
      case 'slack':
        return prepareSlack(job, ctx);
      default:
        return prepareWhole(job, ctx);
    }
  } catch (e) {
    if (!isLociError(e) && typeof (e as NodeJS.ErrnoException)?.code !== 'string') throw e; // a bug: let it surface
    const err = isLociError(e) ? e : fsError(e, path);
    return {
      kind: 'skipped',
      path,
      bytesRead: 0,
      redactions: 0,
      conversations: 0,
      warnings: [`${path}: ${err.message}`],
    };
  }
}
