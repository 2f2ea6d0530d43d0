/**
 * @module ingest/project
 * Pure building blocks of project mining: walking a folder (gitignore-aware, sorted, never throwing
 * for one bad entry), binary detection and decoding, structural chunking with exact line ranges,
 * and the room / language / content-date rules. No store access, no output: the miner composes them.
 */
export { walkProject, DEFAULT_MAX_FILE_BYTES, type WalkOptions, type WalkItem, type WalkFs } from './walk.js';
export { isBinaryPath, binaryPathReason, looksBinary } from './binary.js';
export { decodeText } from './decode.js';
export { chunkDocument } from './chunk.js';
export { DEFAULT_CHUNK_OPTIONS, resolveChunkOptions, type ChunkOptions, type Chunk } from './chunk-types.js';

export { languageFor } from './language.js';
export { roomForPath } from './room.js';
export { contentDateFor } from './content-date.js';
