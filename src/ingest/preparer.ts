/**
 * @module ingest/preparer
 * Runs `prepareFile` inline or on a small pool of worker threads (`core/worker.ts`).
 */
import { createJobPool, siblingModule } from '../core/worker.js';
import { prepareFile, type PrepareContext, type PrepareJob, type Prepared } from './prepare-file.js';

/** Prepares files for the miner. */
interface Preparer {
  prepare(job: PrepareJob): Promise<Prepared>;
  close(): Promise<void>;
}

/** `workers` = 0 prepares inline; otherwise that many worker threads share the jobs. */
export function createPreparer(ctx: PrepareContext, workers: number): Preparer {
  const pool = createJobPool<PrepareJob, Prepared>(siblingModule(import.meta.url, 'mine-worker'), ctx, workers, (job) =>
    prepareFile(job, ctx),
  );
  return { prepare: (job) => pool.run(job), close: () => pool.close() };
}
