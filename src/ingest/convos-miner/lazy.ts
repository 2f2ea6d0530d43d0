/**
 * @module ingest/convos-miner/lazy
 * The conversation miner behind dynamic imports: the ~40 modules of the parsers, redaction and
 * miner load on the first call, so commands that never mine conversations (`loci search`, hooks)
 * do not pay for them at startup.
 */
import type { MemoryStore } from '../../store/ports.js';
import type { MineAutoOptions } from './auto.js';
import type { MineClaudeOptions } from '../mine-convos.js';
import type { MineConvosOptions, MineConvosSummary } from './types.js';
import type { ParseOptions, ParseResult } from '../convos/index.js';

/** See `mineConversations` in mine-convos (loaded on first call). */
export async function mineConversations(
  store: MemoryStore,
  path: string,
  opts?: MineConvosOptions,
): Promise<MineConvosSummary> {
  return (await import('../mine-convos.js')).mineConversations(store, path, opts);
}

/** See `mineClaudeCode` in mine-convos (loaded on first call). */
export async function mineClaudeCode(store: MemoryStore, opts?: MineClaudeOptions): Promise<MineConvosSummary> {
  return (await import('../mine-convos.js')).mineClaudeCode(store, opts);
}

/** See `mineAuto` in auto (loaded on first call). */
export async function mineAuto(store: MemoryStore, path: string, opts?: MineAutoOptions): Promise<MineConvosSummary> {
  return (await import('./auto.js')).mineAuto(store, path, opts);
}

/**
 * See `parseConversations` in convos/parse (loaded on first call): the ingest door stays free of the
 * ~30 parser modules, which `palace.mine` would otherwise load for every run, unchanged trees included.
 */
export async function parseConversations(path: string, content: string, opts?: ParseOptions): Promise<ParseResult> {
  return (await import('../convos/index.js')).parseConversations(path, content, opts);
}
