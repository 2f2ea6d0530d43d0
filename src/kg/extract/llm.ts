/**
 * @module kg/extract/llm
 * The optional LLM extractor (off by default). {@link createLlmExtractor} turns a drawer into the
 * same {@link ExtractionResult} as the rule-based extractor, calling a text-completion function
 * supplied by the caller (adapted from the provider port, `src/providers/`), so that the graph never
 * imports a provider. It reads only what the rules read ({@link proseText}: no code files,
 * fixtures or tool lines — nothing is sent for such drawers), asks for a JSON array of facts, and
 * keeps only well-formed items with an allowed predicate, a confidence above the floor and, for
 * entity objects, a name that is not a sentence. Its output goes through the same store validation
 * (use `apply(…, { lenient: true })`).
 */
import { entityKey, normalizeDate, predicateKey } from '../normalize.js';
import type { FactInput } from '../types.js';
import { proseText, type ExtractionInput, type ExtractionResult } from './extract.js';

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

/** Predicates the LLM extractor accepts by default: those of the rules. */
const LLM_PREDICATES: readonly string[] = Object.freeze([
  'uses',
  'chose',
  'decided',
  'works_on',
  'works_at',
  'member_of',
  'assigned_to',
  'lives_in',
  'located_in',
  'reports_to',
  'role',
  'status',
  'version',
  'port',
  'set_to',
  'depends_on',
  'created',
  'modified',
  'purpose',
  'contains',
  'deployed_to',
]);
// Literal-valued predicates (a value, not an entity).
const LITERAL = new Set(['decided', 'role', 'status', 'version', 'port', 'set_to', 'purpose']);

/** The instructions sent before the drawer's prose. */
function llmPrompt(
  text: string,
  input: Pick<ExtractionInput, 'wing' | 'contentDate'>,
  predicates: readonly string[],
): string {
  return [
    'Extract durable facts about the software project, its people and its tools from the conversation excerpt below.',
    `Answer with a JSON array only; each item: {"subject": str, "predicate": one of ${predicates.join('|')}, ` +
      '"object": str, "confidence": 0..1, "date": "YYYY-MM-DD" or null}.',
    `Use the name "${input.wing}" for the project itself ("we", "this project"). Use only facts stated as true ` +
      '(not plans, questions or guesses), never from code.',
    `The excerpt was written on ${input.contentDate?.slice(0, 10) ?? 'an unknown date'}; resolve relative dates ` +
      'against it.',
    '<excerpt>',
    text,
    '</excerpt>',
  ].join('\n');
}

function firstJsonArray(text: string): unknown[] {
  const start = text.indexOf('[');
  const end = text.lastIndexOf(']');
  if (start < 0 || end <= start) return [];
  try {
    const v = JSON.parse(text.slice(start, end + 1)) as unknown;
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

function str(v: unknown, max: number): string | null {
  return typeof v === 'string' && v.trim().length > 0 && v.trim().length <= max ? v.trim() : null;
}

/** Validated facts from a model answer (never throws; drops what it cannot read). */
function parseLlmFacts(
  answer: string,
  input: Pick<ExtractionInput, 'id' | 'contentDate'>,
  opts: Required<Omit<LlmExtractorOptions, 'complete' | 'maxChars'>>,
): FactInput[] {
  const allowed = new Set(opts.predicates.map((p) => predicateKey(p)));
  const out: FactInput[] = [];
  const seen = new Set<string>();
  for (const item of firstJsonArray(answer)) {
    if (out.length >= opts.maxFacts) break;
    if (typeof item !== 'object' || item === null) continue;
    const o = item as Record<string, unknown>;
    const subject = str(o['subject'], 120);
    const object = str(typeof o['object'] === 'number' ? String(o['object']) : o['object'], 200);
    const rawPredicate = str(o['predicate'], 64);
    if (!subject || !object || !rawPredicate || !entityKey(subject)) continue;
    let predicate: string;
    try {
      predicate = predicateKey(rawPredicate);
    } catch {
      continue;
    }
    const confidence =
      typeof o['confidence'] === 'number' && o['confidence'] > 0 && o['confidence'] <= 1 ? o['confidence'] : 0.5;
    if (!allowed.has(predicate) || confidence < opts.minConfidence) continue;
    const literal = LITERAL.has(predicate);
    // an entity object is a name, not a sentence
    if (!literal && (object.split(/\s+/).length > 5 || /[.!?]$/.test(object) || !entityKey(object))) continue;
    let validFrom: string | null = null;
    try {
      validFrom =
        typeof o['date'] === 'string'
          ? normalizeDate(o['date'], 'date')
          : input.contentDate
            ? normalizeDate(input.contentDate, 'contentDate')
            : null;
    } catch {
      validFrom = input.contentDate ? normalizeDate(input.contentDate, 'contentDate') : null;
    }
    const key = `${entityKey(subject)}\u0000${predicate}\u0000${literal ? object : entityKey(object)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      subject,
      predicate,
      object,
      ...(literal ? { literal: true } : {}),
      validFrom,
      confidence: Math.min(confidence, 0.9),
      sources: [input.id],
    });
  }
  return out;
}

/**
 * An {@link LlmExtractor} over `opts.complete`. Drawers with no prose (code files, fixtures,
 * tool output only) are not sent. Model and network errors propagate (the caller decides);
 * an answer that cannot be read gives an empty result.
 */
export const createLlmExtractor: CreateLlmExtractor = (opts) => {
  const settings = {
    maxFacts: opts.maxFacts ?? 20,
    minConfidence: opts.minConfidence ?? 0.5,
    predicates: opts.predicates ?? LLM_PREDICATES,
  };
  const maxChars = opts.maxChars ?? 8000;
  return {
    name: 'llm',
    async extract(input, o = {}) {
      const text = proseText(input).trim();
      if (text.length < 20) return { entities: [], facts: [], invalidations: [] };
      const answer = await opts.complete(llmPrompt(text.slice(0, maxChars), input, settings.predicates), {
        ...(o.signal ? { signal: o.signal } : {}),
        maxTokens: 1024,
      });
      return { entities: [], facts: parseLlmFacts(answer, input, settings), invalidations: [] };
    },
  };
};
