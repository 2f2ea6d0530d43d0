/**
 * @module ingest/convos-miner/pool
 * Runs `prepareUnit` inline or on a small pool of worker threads, answering in any order.
 */
import { createError } from '../../core/errors.js';
import { createJobPool, siblingModule } from '../../core/worker.js';
import { prepareUnit } from './prepare.js';
import type { ConvoContext, ConvoJob, PreparedUnit } from './types.js';

/** Prepares units for the miner. */
export interface UnitPreparer {
  prepare(job: ConvoJob): Promise<PreparedUnit>;
  close(): Promise<void>;
}

/** `workers` = 0 prepares inline; otherwise that many worker threads share the jobs. */
export function createUnitPreparer(ctx: ConvoContext, workers: number): UnitPreparer {
  const pool = createJobPool<ConvoJob, PreparedUnit>(siblingModule(import.meta.url, 'worker'), ctx, workers, (job) =>
    prepareUnit(job, ctx),
  );
  return {
    prepare: (job) =>
      pool.run(job).catch((e: unknown) => {
        throw createError('INTERNAL', {
          what: `conversation mining worker failed: ${(e as Error)?.message ?? String(e)}`,
        });
      }),
    close: () => pool.close(),
  };
}
