/**
 * @module kg
 * The temporal knowledge graph: entities and facts with validity windows, the graph rules (engine)
 * over the storage port of `src/store/` (memory and SQLite adapters live there), weights-free
 * extraction from drawers, and tunnels between rooms.
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
export {
  entityKey,
  predicateKey,
  normalizeDate,
  MAX_NAME_LENGTH,
  MAX_PREDICATE_LENGTH,
  MAX_LITERAL_LENGTH,
} from './normalize.js';
export {
  createGraphStore,
  createMemoryGraphStore,
  createSqliteGraphStore,
  type GraphStoreOptions,
  type SqliteGraphStoreOptions,
} from './graph-store.js';
// The tunnel adapters are storage (src/store/); re-exported for the `loci/kg` subpath.
export {
  createMemoryGraphTables,
  createMemoryTunnelStore,
  createSqliteTunnelStore,
  type GraphTables,
} from '../store/index.js';
export {
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
export {
  extractFromDrawer,
  proseText,
  type ExtractionInput,
  type ExtractionResult,
  type ExtractOptions,
} from './extract/extract.js';
export { resolveDate, findDates, type DateMention } from './extract/dates.js';
export {
  createLlmExtractor,
  type LlmExtractor,
  type LlmExtractorOptions,
  type CompleteFn,
  type CreateLlmExtractor,
} from './extract/llm.js';
export { queryEntities, nameCandidates, type QueryEntitiesOptions } from './query-entities.js';
