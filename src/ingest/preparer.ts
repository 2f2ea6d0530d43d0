/**
 * @module ingest/preparer
 * Runs `prepareFile` inline or on a small pool of worker threads (`core/worker.ts`).
 */
import { createJobPool, siblingModule } from '../core/worker.js';
import {
  fromWire,
  prepareFile,
  type PrepareContext,
  type PrepareJob,
  type Prepared,
  type WirePrepared,
} from './prepare-file.js';

/** Prepares files for the miner. */
export interface Preparer {
  prepare(job: PrepareJob): Promise<Prepared>;
  close(): Promise<void>;
}

/** `workers` = 0 prepares inline; otherwise that many worker threads share the jobs. */
export function createPreparer(ctx: PrepareContext, workers: number): Preparer {
  // Workers answer in the packed wire form (see `toWire`); inline preparing needs no packing.
  const pool = createJobPool<PrepareJob, WirePrepared | Prepared>(
    siblingModule(import.meta.url, 'mine-worker'),
    ctx,
    workers,
    (job) => prepareFile(job, ctx),
  );
  return {
    prepare: (job) => pool.run(job).then((r) => ('rows' in r ? fromWire(r) : (r as Prepared))),
    close: () => pool.close(),
  };
}
