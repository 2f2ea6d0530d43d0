/**
 * @module ingest/mine-worker
 * Worker-thread entry of project mining: prepares files (see `prepare-file.ts`) sent by the
 * miner, so that reading, chunking, tokenising and fact extraction overlap with the database
 * writes of the main thread.
 */
import { workerData } from 'node:worker_threads';
import { serveJobs } from '../core/worker.js';
import { prepareFile, toWire, type PrepareContext, type PrepareJob } from './prepare-file.js';

const ctx = workerData as PrepareContext;
await serveJobs((job: PrepareJob) => toWire(prepareFile(job, ctx)));
