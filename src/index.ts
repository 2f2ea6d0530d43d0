/**
 * @module loci
 * The public library: what a program embedding Loci needs to open a palace (or compose one from
 * ports), mine into it, search it, read drawers, use the knowledge graph, keep Claude Code memory
 * files, recall them into a prompt and plan a session's wake-up. Every name here is documented at
 * its declaration and pinned by `test/public-api.test.ts`: adding or removing one is a deliberate
 * API change.
 *
 * Optional parts live on subpaths: `loci/kg` (graph engine, extraction, tunnels), `loci/mcp` (the
 * MCP server, to embed it) and `loci/hooks` (Claude Code hooks). The front ends and tooling of this
 * repository use the unstable internal entry `src/internal.ts` and capability doors instead.
 */

// ── errors ────────────────────────────────────────────────────────────────────
export { LociError, isLociError, type ErrorCode, type ErrorCategory, type ErrorDetails } from './core/errors.js';
export { stderrLogger, type Logger, type LogLevel } from './core/logger.js';
export type { Clock } from './core/clock.js';

// ── palace: open (or compose from ports), mine, search, get ──────────────────
export {
  openPalace,
  createPalace,
  type OpenPalaceOptions,
  type PalaceDeps,
  type PalaceConfig,
  type Palace,
  type PalaceStatus,
  type MineOptions,
  type DiaryEntryInput,
} from './palace/index.js';
export { createMemoryStore, createMemoryGraphTables, createMemoryTunnelStore } from './store/index.js';
export type { MineConvosSummary } from './ingest/index.js';
export type { MemoryStore, Drawer, DrawerInput, DrawerPatch, DrawerFilter, ListOptions } from './store/ports.js';
export type { SearchOptions, SearchResult, SearchHit } from './search/index.js';

// ── knowledge graph (engine and extraction on `loci/kg`) ──────────────────────
export type { PalaceGraph } from './palace/index.js';
export type { GraphStore, Fact, Entity, Tunnel } from './kg/index.js';

// ── memory files ──────────────────────────────────────────────────────────────
export {
  selectMemoryDir,
  listMemories,
  findMemory,
  getMemory,
  addMemory,
  editMemory,
  forgetMemory,
  type MemoryDirChoice,
  type Memory,
  type MemoryEntry,
  type MemoryType,
  type Privacy,
  type AddMemoryInput,
  type EditMemoryInput,
} from './memdir/index.js';

// ── memory consolidation ("dream"): gated, reported, undoable ──────────────────
export { runDream, undoDream, type DreamOptions, type DreamResult } from './dream/index.js';

// ── recall into a prompt ──────────────────────────────────────────────────────
export {
  buildRecall,
  buildPromptContext,
  type RecallOptions,
  type RecallResult,
  type PromptContext,
} from './recall/index.js';

// ── wake-up: what a new session should know ───────────────────────────────────
export { wakeUp, type WakeUpOptions, type WakeUpResult } from './wakeup/index.js';

// ── memory lifecycle: extraction from a session, running session notes ─────────
export {
  extractMemories,
  updateSessionNotes,
  type ExtractOptions,
  type ExtractResult,
  type SessionNotesOptions,
  type SessionNotesResult,
} from './extract/index.js';

// ── models: LLM providers and embedders ───────────────────────────────────────
export { createLlmProvider, type LlmProvider, type ProviderConfig } from './providers/index.js';
export { createEmbedder, type Embedder, type EmbedderConfig } from './embed/index.js';
