/**
 * @module kg
 * The temporal knowledge graph: entities and facts with validity windows, their storage port and
 * adapters (memory, SQLite), weights-free extraction from drawers, and tunnels between rooms.
 * The only door of `src/kg/`; see `src/kg/ARCHITECTURE.md`.
 */
export type {
  AddFactOptions,
  ApplyOptions,
  ApplyResult,
  DrawerLink,
  Entity,
  EntityInput,
  EntityListOptions,
  EntityType,
  Fact,
  FactInput,
  GraphBatch,
  GraphCapabilities,
  GraphStats,
  GraphStore,
  InvalidationInput,
  Page,
  PageOptions,
  QueryOptions,
  WriteOptions,
} from './types.js';
export { DEFAULT_FUNCTIONAL_PREDICATES } from './semantics.js';
export { entityKey, predicateKey, normalizeDate, MAX_NAME_LENGTH, MAX_PREDICATE_LENGTH, MAX_LITERAL_LENGTH } from './normalize.js';
export type { GraphStoreOptions } from './store-common.js';
export { createMemoryGraphStore } from './memory-graph-store.js';
export { createSqliteGraphStore, type SqliteGraphStoreOptions } from './sqlite-graph-store.js';
export { KG_SCHEMA_V2 } from './sqlite-schema.js';
export {
  createMemoryTunnelStore,
  implicitTunnels,
  traverse,
  DEFAULT_UNLINKED_ROOMS,
  type ImplicitLink,
  type RoomCount,
  type RoomRef,
  type TraversalStep,
  type TraverseOptions,
  type Tunnel,
  type TunnelInput,
  type TunnelStore,
} from './tunnels.js';
export { createSqliteTunnelStore } from './sqlite-tunnel-store.js';
export { extractFromDrawer, proseText, type ExtractionInput, type ExtractionResult, type ExtractOptions } from './extract/extract.js';
export { resolveDate, findDates, type DateMention } from './extract/dates.js';
export { createLlmExtractor, type LlmExtractor, type LlmExtractorOptions, type CompleteFn, type CreateLlmExtractor } from './extract/llm.js';
export { queryEntities, nameCandidates, type QueryEntitiesOptions } from './query-entities.js';
