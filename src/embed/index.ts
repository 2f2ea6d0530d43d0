/**
 * @module embed
 * The Embedder port and the built-in embedders: Ollama and OpenAI-compatible over HTTP, and local
 * ONNX models through a lazily imported onnxruntime-node. This file is the only door into
 * `src/embed/`; importing it loads no heavy module.
 */
export type {
  Embedder,
  EmbedOptions,
  EmbedPrefixes,
  EmbedderCommon,
  EmbedderConfig,
  EmbedderDeps,
  HttpEmbedderCommon,
  OllamaEmbedderConfig,
  OpenAiEmbedderConfig,
  OnnxEmbedderConfig,
} from './types.js';
export { createEmbedder, parseEmbedderSpec, embedderConfigFromEnv } from './create.js';
export { EMBED_TIMEOUT_MS, OLLAMA_BASE_URL, OPENAI_BASE_URL } from './http-embedders.js';
export { ONNX_RUNTIME_MODULE, findModelFiles, type ModelFiles } from './onnx-embedder.js';
export {
  loadWordPiece,
  padBatch,
  DEFAULT_MAX_LENGTH,
  type Encoding,
  type EncodedBatch,
  type WordPieceTokenizer,
  type WordPieceOptions,
} from './wordpiece.js';
export { l2normalize } from './vector.js';
export { createHashEmbedder } from './hash-embedder.js';
