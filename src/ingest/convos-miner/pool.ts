/**
 * @module ingest/convos-miner/pool
 * Runs `prepareUnit` inline or on a small pool of worker threads, answering in any order.
 */
import type { Worker } from 'node:worker_threads';
import { createError } from '../../core/errors.js';
import { siblingModule, startModuleWorker } from '../../core/worker.js';
import { prepareUnit } from './prepare.js';
import type { ConvoContext, ConvoJob, PreparedUnit } from './types.js';

/** Prepares units for the miner. */
export interface UnitPreparer {
  prepare(job: ConvoJob): Promise<PreparedUnit>;
  close(): Promise<void>;
}

/** `workers` = 0 prepares inline; otherwise that many worker threads share the jobs. */
export function createUnitPreparer(ctx: ConvoContext, workers: number): UnitPreparer {
  if (workers <= 0) return { prepare: async (job) => prepareUnit(job, ctx), close: async () => {} };
  const pool: Worker[] = [];
  const waiting = new Map<number, { resolve: (p: PreparedUnit) => void; reject: (e: unknown) => void }>();
  let seq = 0;
  let failed: unknown;
  for (let i = 0; i < workers; i++) {
    const w = startModuleWorker(siblingModule(import.meta.url, 'worker'), ctx);
    w.on('message', (m: { seq: number; result?: PreparedUnit; error?: string }) => {
      const p = waiting.get(m.seq);
      waiting.delete(m.seq);
      if (m.result) p?.resolve(m.result);
      else p?.reject(createError('INTERNAL', { what: `conversation mining worker failed: ${m.error ?? 'unknown error'}` }));
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
      return new Promise<PreparedUnit>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        pool[id % pool.length]!.postMessage({ seq: id, job });
      });
    },
    async close() {
      await Promise.all(pool.map((w) => w.terminate()));
    },
  };
}
