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
  EmbedderConfig,
  EmbedderDeps,
  HttpEmbedderCommon,
  OllamaEmbedderConfig,
  OpenAiEmbedderConfig,
  OnnxEmbedderConfig,
} from './types.js';
export { createEmbedder, parseEmbedderSpec, embedderConfigFromEnv } from './create.js';

export { findModelFiles } from './onnx-embedder.js';
export { loadWordPiece, padBatch, type Encoding, type WordPieceTokenizer } from './wordpiece.js';
export { l2normalize } from './vector.js';
export { createHashEmbedder } from './hash-embedder.js';
