/**
 * @module ingest/workers
 * How many worker threads a mining run uses by default (project files and conversations alike).
 */
import { availableParallelism, loadavg } from 'node:os';

/**
 * Worker threads for a run that must read `bytes`: none below 8 MB (starting them costs more),
 * else one per **idle** core (cores − 1 for this thread − the 1-minute load average), at most 3.
 * On a busy machine the threads would only compete for the same cores while cloning every result
 * between threads (measured: +25 % CPU for the same wall time), so the work stays inline.
 */
export function defaultWorkers(bytes: number): number {
  if (bytes <= 8e6) return 0;
  const busy = Math.round(loadavg()[0] ?? 0); // [0, 0, 0] where unsupported (Windows)
  return Math.min(3, Math.max(0, availableParallelism() - 1 - busy));
}
