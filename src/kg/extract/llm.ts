/**
 * @module kg/extract/llm
 * The optional LLM extractor, interface only (off by default). An implementation turns a drawer
 * into the same {@link ExtractionResult} as the rule-based extractor, calling a text-completion
 * function supplied by the provider port (`src/providers/`), so that the graph never imports a
 * provider. Its output goes through the same store validation (use `apply(…, { lenient: true })`).
 */
import type { ExtractionInput, ExtractionResult } from './extract.js';

/** Completes a prompt to text (adapted from the provider port by the caller). */
export type CompleteFn = (prompt: string, opts?: { signal?: AbortSignal; maxTokens?: number }) => Promise<string>;

/** Settings of an LLM extractor. */
export interface LlmExtractorOptions {
  /** The completion function (required). */
  complete: CompleteFn;
  /** Most facts kept per drawer, >= 1. Default 20. */
  maxFacts?: number;
  /** Facts below this confidence are dropped, in [0, 1]. Default 0.5. */
  minConfidence?: number;
  /** Predicates the model may use (normalised snake_case); others are dropped. Default: the rule extractor's set. */
  predicates?: readonly string[];
  /** Longest drawer text sent, in characters. Default 8000. */
  maxChars?: number;
}

/**
 * Extracts entities and facts from a drawer with a language model. Off by default: the palace
 * calls it only when configured, after (and merged with) the rule-based extraction. Implementations
 * must resolve relative dates against `input.contentDate`, put `input.id` in every `sources`, and
 * never throw on model output they cannot parse (return what was valid, plus nothing else).
 */
export interface LlmExtractor {
  /** Name for logs and provenance (`llm:<provider>/<model>`). */
  readonly name: string;
  extract(input: ExtractionInput, opts?: { signal?: AbortSignal }): Promise<ExtractionResult>;
}

/** Factory signature an implementation exports. */
export type CreateLlmExtractor = (opts: LlmExtractorOptions) => LlmExtractor;
