/**
 * @module ingest/convos-miner/worker
 * Worker-thread entry of conversation mining: prepares units (see prepare) sent by the miner and
 * posts the results back, so that parsing, redaction, chunking and tokenising overlap with the
 * database writes of the main thread.
 */
import { workerData } from 'node:worker_threads';
import { serveJobs } from '../../core/worker.js';
import { prepareUnit } from './prepare.js';
import type { ConvoContext, ConvoJob } from './types.js';

const ctx = workerData as ConvoContext;
await serveJobs((job: ConvoJob) => prepareUnit(job, ctx));
