/**
 * @module ingest/preparer
 * Runs `prepareFile` inline or on a small pool of worker threads, answering in any order.
 */
import type { Worker } from 'node:worker_threads';
import { siblingModule, startModuleWorker } from '../core/worker.js';
import { prepareFile, type PrepareContext, type PrepareJob, type Prepared } from './prepare-file.js';

/** Prepares files for the miner. */
export interface Preparer {
  prepare(job: PrepareJob): Promise<Prepared>;
  close(): Promise<void>;
}

/** `workers` = 0 prepares inline; otherwise that many worker threads share the jobs. */
export function createPreparer(ctx: PrepareContext, workers: number): Preparer {
  if (workers <= 0) {
    return { prepare: async (job) => prepareFile(job, ctx), close: async () => {} };
  }
  const pool: Worker[] = [];
  const waiting = new Map<number, { resolve: (p: Prepared) => void; reject: (e: unknown) => void }>();
  let seq = 0;
  let failed: unknown;
  for (let i = 0; i < workers; i++) {
    const w = startModuleWorker(siblingModule(import.meta.url, 'mine-worker'), ctx);
    w.on('message', (m: { seq: number; result: Prepared }) => {
      const p = waiting.get(m.seq);
      waiting.delete(m.seq);
      p?.resolve(m.result);
    });
    w.on('error', (e) => {
      failed = e;
      for (const p of waiting.values()) p.reject(e);
      waiting.clear();
    });
    pool.push(w);
  }
  return {
    prepare(job) {
      if (failed) return Promise.reject(failed);
      const id = seq++;
      return new Promise<Prepared>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        pool[id % pool.length]!.postMessage({ seq: id, job });
      });
    },
    async close() {
      await Promise.all(pool.map((w) => w.terminate()));
    },
  };
}
