/**
 * @module core/worker
 * Starts a worker thread from a module URL, both from the built `dist/` (plain `.js`) and from
 * sources run through tsx (`.ts`, tests and benches), where the worker needs tsx's loader.
 */
import { Worker } from 'node:worker_threads';
import { createError, isLociError, type ErrorCode } from './errors.js';

/** A failed job as it crosses the thread boundary: a catalogue error keeps its code and details. */
interface JobFailure {
  stack: string;
  code?: ErrorCode;
  details?: unknown;
}

/** Starts `url` (a `.js` or `.ts` module) as a worker thread. */
function startModuleWorker(url: URL, workerData?: unknown): Worker {
  if (url.pathname.endsWith('.ts')) {
    const boot =
      `const { tsImport } = await import('tsx/esm/api');\n` +
      `await tsImport(${JSON.stringify(url.href)}, ${JSON.stringify(url.href)});`;
    return new Worker(boot, { eval: true, workerData });
  }
  return new Worker(url, { workerData });
}

/** The sibling module `name` (without extension) of `base`, with the same extension. */
export function siblingModule(base: string, name: string): URL {
  return new URL(`./${name}${base.endsWith('.ts') ? '.ts' : '.js'}`, base);
}

/** A pool answering jobs in any order (inline when it has no worker). */
interface JobPool<J, R> {
  run(job: J): Promise<R>;
  close(): Promise<void>;
}

/**
 * Serves `job → result` on `workers` threads started from `url` (whose entry calls
 * {@link serveJobs}), round-robin; with 0 workers runs `inline` in this thread. A crashed worker
 * fails the jobs waiting on it and every later one.
 */
export function createJobPool<J, R>(
  url: URL,
  workerData: unknown,
  workers: number,
  inline: (job: J) => R,
): JobPool<J, R> {
  if (workers <= 0) return { run: async (job) => inline(job), close: async () => {} };
  const pool: Worker[] = [];
  const waiting = new Map<number, { resolve: (r: R) => void; reject: (e: unknown) => void }>();
  let seq = 0;
  let failed: unknown;
  for (let i = 0; i < workers; i++) {
    const w = startModuleWorker(url, workerData);
    w.on('message', (m: { seq: number; result?: R; error?: JobFailure }) => {
      const p = waiting.get(m.seq);
      waiting.delete(m.seq);
      if (m.error === undefined) p?.resolve(m.result as R);
      else p?.reject(jobError(m.error));
    });
    w.on('error', (e) => {
      failed = e;
      for (const p of waiting.values()) p.reject(e);
      waiting.clear();
    });
    pool.push(w);
  }
  return {
    run(job) {
      if (failed) return Promise.reject(failed);
      const id = seq++;
      return new Promise<R>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        pool[id % pool.length]!.postMessage({ seq: id, job });
      });
    },
    async close() {
      await Promise.all(pool.map((w) => w.terminate()));
    },
  };
}

/**
 * The error a failed job rejects with in the calling thread: the worker's catalogue error again (same
 * code and details), or INTERNAL with the worker's stack for anything else (a bug).
 */
function jobError(f: JobFailure): Error {
  if (f.code !== undefined) return createError(f.code, f.details as never);
  return createError('INTERNAL', { what: `worker job failed: ${f.stack}` });
}

/** A thrown value as a {@link JobFailure} that can be posted to the calling thread. */
function jobFailure(e: unknown): JobFailure {
  const stack = (e as Error)?.stack ?? String(e);
  return isLociError(e) ? { stack, code: e.code, details: e.details } : { stack };
}

/** The worker side of {@link createJobPool}: answers every job with `handle(job)`. */
export async function serveJobs<J, R>(handle: (job: J) => R): Promise<void> {
  const { parentPort } = await import('node:worker_threads');
  parentPort?.on('message', (msg: { seq: number; job: J }) => {
    try {
      parentPort.postMessage({ seq: msg.seq, result: handle(msg.job) });
    } catch (e) {
      const failure = jobFailure(e);
      try {
        parentPort.postMessage({ seq: msg.seq, error: failure });
      } catch {
        // Details that cannot be cloned: the stack alone still fails the job.
        parentPort.postMessage({ seq: msg.seq, error: { stack: failure.stack } });
      }
    }
  });
}
