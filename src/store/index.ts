/**
 * @module store
 * Storage ports and their adapters: in-memory (reference) and SQLite (default).
 */
export type * from './ports.js';
export { createMemoryStore } from './memory/memory-store.js';
export { createSqliteStore, rebuildLexicalIndex, type SqliteStoreOptions } from './sqlite/drawer-store.js';
export { openDatabase, mapSqliteError, APPLICATION_ID, type OpenDatabaseOptions } from './sqlite/driver.js';
export { MIGRATIONS, latestVersion, type Migration } from './sqlite/migrations.js';
export { defaultDrawerId, matchesFilter, untilBound, prepareDrawer } from './shared.js';
export type { VectorStore, VectorModelInfo, PendingDrawer } from './vector-port.js';
export { createMemoryVectorStore } from './memory/vector-store.js';
export { createSqliteVectorStore, loadSqliteVec } from './sqlite/vector-store.js';
