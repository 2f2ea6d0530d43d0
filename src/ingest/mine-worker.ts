/**
 * @module ingest/mine-worker
 * Worker-thread entry of project mining: prepares files (see `prepare-file.ts`) sent by the
 * miner and posts the results back, so that reading, chunking and tokenising overlap with the
 * database writes of the main thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { prepareFile, type PrepareContext, type PrepareJob } from './prepare-file.js';

const ctx = workerData as PrepareContext;
parentPort?.on('message', (msg: { seq: number; job: PrepareJob }) => {
  parentPort!.postMessage({ seq: msg.seq, result: prepareFile(msg.job, ctx) });
});
