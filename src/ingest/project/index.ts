/**
 * @module ingest/project
 * Pure building blocks of project mining: walking a folder (gitignore-aware, sorted, never throwing
 * for one bad entry), binary detection and decoding, structural chunking with exact line ranges,
 * and the room / language / content-date rules. No store access, no output: the miner composes them.
 */
export {
  walkProject,
  DEFAULT_SKIP_DIRS,
  DEFAULT_MAX_FILE_BYTES,
  type WalkOptions,
  type WalkItem,
  type WalkFs,
} from './walk.js';
export { isBinaryPath, binaryPathReason, looksBinary, SNIFF_BYTES } from './binary.js';
export { decodeText, type DecodedText } from './decode.js';
export { chunkDocument } from './chunk.js';
export { DEFAULT_CHUNK_OPTIONS, resolveChunkOptions, type ChunkOptions, type Chunk } from './chunk-types.js';
export { HEADING_SEPARATOR } from './markdown.js';
export { languageFor } from './language.js';
export { roomForPath, normaliseRoom, GENERIC_CONTAINERS, GENERAL_ROOM } from './room.js';
export { contentDateFor, parseLooseDate } from './content-date.js';
