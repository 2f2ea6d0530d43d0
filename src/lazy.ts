/**
 * @module lazy
 * Functions of the internal entry whose implementation loads on first call: the project miner
 * (walker, chunkers) and the benchmarks. Importing the library — and so starting the CLI, the
 * MCP server or a hook — does not pay for them.
 */
import type { MineAutoOptions, MineConvosSummary, MineProjectOptions, MineSummary } from './ingest/index.js';
import type {
  LocomoBenchOptions,
  LocomoReport,
  LongMemEvalOptions,
  LongMemEvalReport,
  TranscriptsBenchOptions,
  TranscriptsReport,
} from './bench/index.js';
import type { MemoryStore } from './store/ports.js';

/** Mines a project folder or file into `store` (see `ingest/mine-project`). */
export async function mineProject(store: MemoryStore, path: string, opts?: MineProjectOptions): Promise<MineSummary> {
  return (await import('./ingest/index.js')).mineProject(store, path, opts);
}

/** Mines a folder, sending conversations to the conversation miner and other files to the project miner. */
export async function mineAuto(store: MemoryStore, path: string, opts?: MineAutoOptions): Promise<MineConvosSummary> {
  return (await import('./ingest/index.js')).mineAuto(store, path, opts);
}

/** The LoCoMo retrieval benchmark through the product path (see `bench/locomo`). */
export async function runLocomoBench(opts: LocomoBenchOptions): Promise<LocomoReport> {
  return (await import('./bench/index.js')).runLocomoBench(opts);
}

/** The LongMemEval retrieval benchmark (see `bench/longmemeval`). */
export async function runLongMemEvalBench(opts: LongMemEvalOptions): Promise<LongMemEvalReport> {
  return (await import('./bench/index.js')).runLongMemEvalBench(opts);
}

/** The real-transcripts retrieval benchmark (see `bench/transcripts`). */
export async function runTranscriptsBench(opts: TranscriptsBenchOptions): Promise<TranscriptsReport> {
  return (await import('./bench/index.js')).runTranscriptsBench(opts);
}
