/**
 * @module loci
 * The public library. Front ends (CLI, MCP server, hooks) import only from here.
 * Exports are listed by name on purpose: adding one is an API change.
 */

// ── core ──────────────────────────────────────────────────────────────────────
export { LociError, createError, isLociError, fsError, ERRORS, type ErrorCode, type ErrorCategory, type ErrorDetails } from './core/errors.js';
export { resolveHome, homePaths, ensureHome } from './core/home.js';
export { writeFileAtomic } from './core/fs-safe.js';
export { sha256, stableId } from './core/hash.js';
export { systemClock, fixedClock, isoAt, type Clock } from './core/clock.js';
export { silentLogger, stderrLogger, fileLogger, type Logger, type LogLevel } from './core/logger.js';

// ── text ──────────────────────────────────────────────────────────────────────
export { tokenize, searchColumn, queryTokens } from './text/index.js';

// ── store ─────────────────────────────────────────────────────────────────────
export type { MemoryStore, Drawer, DrawerInput, DrawerPatch, DrawerFilter, ListOptions, LexicalHit, SourceState, StoreStats, StoreCapabilities } from './store/ports.js';

// ── palace (open, mine, search) ───────────────────────────────────────────────

// ── conversations (issue 4) ───────────────────────────────────────────────────

// ── memory files and recall (issue 5) ─────────────────────────────────────────

// ── providers and embedders ───────────────────────────────────────────────────

// ── knowledge graph (issue 6) ─────────────────────────────────────────────────

// ── mcp and hooks (issue 7) ───────────────────────────────────────────────────
