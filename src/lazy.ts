/**
 * @module lazy
 * Public functions whose implementation loads on first call: the miners (walker, chunkers,
 * transcript parsers) and the benchmarks. Importing the library — and so starting the CLI, the
 * MCP server or a hook — does not pay for them.
 */
import type {
  MineProjectOptions,
  MineSummary,
  MineConvosOptions,
  MineConvosSummary,
  MineClaudeOptions,
  MineAutoOptions,
} from './ingest/index.js';
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

/** Mines conversation transcripts and chat logs (see `ingest/mine-convos`). */
export async function mineConversations(
  store: MemoryStore,
  path: string,
  opts?: MineConvosOptions,
): Promise<MineConvosSummary> {
  return (await import('./ingest/index.js')).mineConversations(store, path, opts);
}

/** Mines every Claude Code transcript under the Claude config dir. */
export async function mineClaudeCode(store: MemoryStore, opts?: MineClaudeOptions): Promise<MineConvosSummary> {
  return (await import('./ingest/index.js')).mineClaudeCode(store, opts);
}

/** Mines a folder, sending conversations to the conversation miner and other files to the project miner. */
export async function mineAuto(store: MemoryStore, path: string, opts?: MineAutoOptions): Promise<MineConvosSummary> {
  return (await import('./ingest/index.js')).mineAuto(store, path, opts);
}

/** Every Claude Code session file, subagent file and `history.jsonl` under `configDir`. */
export async function discoverClaudeFiles(configDir: string): Promise<string[]> {
  return (await import('./ingest/index.js')).discoverClaudeFiles(configDir);
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

/** Reads a LoCoMo-format file. */
export async function loadLocomo(path: string): Promise<import('./bench/index.js').LocomoConversation[]> {
  return (await import('./bench/index.js')).loadLocomo(path);
}
