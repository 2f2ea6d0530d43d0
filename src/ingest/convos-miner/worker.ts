/**
 * @module ingest/convos-miner/worker
 * Worker-thread entry of conversation mining: prepares units (see prepare) sent by the miner and
 * posts the results back, so that parsing, redaction, chunking and tokenising overlap with the
 * database writes of the main thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { prepareUnit } from './prepare.js';
import type { ConvoContext, ConvoJob } from './types.js';

const ctx = workerData as ConvoContext;
parentPort?.on('message', (msg: { seq: number; job: ConvoJob }) => {
  try {
    parentPort!.postMessage({ seq: msg.seq, result: prepareUnit(msg.job, ctx) });
  } catch (e) {
    parentPort!.postMessage({ seq: msg.seq, error: (e as Error)?.stack ?? String(e) });
  }
});
