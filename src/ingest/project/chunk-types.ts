/**
 * @module ingest/project/chunk-types
 * Options and results of the structural chunker, and the internal "piece" every segmenter produces.
 */
import { createError } from '../../core/errors.js';

/**
 * Sizes of {@link Chunk}s, in UTF-16 code units of the chunk text (about characters).
 * Defaults in {@link DEFAULT_CHUNK_OPTIONS}.
 */
export interface ChunkOptions {
  /**
   * Chunks grow block by block (paragraph, section, declaration) up to about this size.
   * Default 1200; integer >= 1.
   */
  targetChars?: number;
  /**
   * A single block (one long function, one long section paragraph, one fenced code block) may reach
   * this size before it is split. Default 2400; integer >= targetChars. A chunk exceeds it only when
   * a piece smaller than minChars was merged into it, and then by less than minChars.
   */
  maxChars?: number;
  /**
   * Used only when a block larger than maxChars has to be cut at a non-structural boundary (blank
   * line, line end, sentence): the next piece repeats up to this many characters of the previous
   * one, as whole lines (or whole words inside one overlong line). Default 200; 0 <= value < targetChars.
   */
  overlapChars?: number;
  /**
   * Chunks smaller than this merge into the previous chunk (the first one into the next); a whole
   * file smaller than this is still one chunk if it has any non-space text. Default 40;
   * 0 <= value <= targetChars.
   */
  minChars?: number;
}

/** The defaults: ~1200 characters is ~250–350 tokens of code or English, small enough for precise
 *  BM25 hits and short snippets, large enough to hold a whole typical function or section. */
export const DEFAULT_CHUNK_OPTIONS: Required<ChunkOptions> = Object.freeze({
  targetChars: 1200,
  maxChars: 2400,
  overlapChars: 200,
  minChars: 40,
});

/** One chunk of a document. Its text is an exact substring of the source. */
export interface Chunk {
  /** 0-based position in the document's chunk list. */
  index: number;
  /**
   * Verbatim text: source lines lineStart..lineEnd including the line breaks between them exactly as
   * in the source (`\n` or `\r\n`), without the last line's break. Never empty or whitespace-only.
   */
  text: string;
  /** First line, 1-based. */
  lineStart: number;
  /** Last line, 1-based, inclusive. */
  lineEnd: number;
  /** Which segmenter produced it: markdown structure, code structure, or plain paragraphs. */
  kind: 'markdown' | 'code' | 'text';
  /** Markdown only: the heading path in effect at the chunk's first line, e.g. "Install › Offline". */
  heading?: string;
  /**
   * Present only when the chunk is part of one overlong line (lineStart === lineEnd): 0-based
   * UTF-16 offset of the chunk text within that line.
   */
  colStart?: number;
  /** With {@link colStart}: offset just after the chunk text within the line. */
  colEnd?: number;
}

/** Internal: a run of lines (or part of one line) produced by a segmenter, before packing. */
export interface Piece {
  /** First and last line index (0-based, inclusive); both non-blank. */
  s: number;
  e: number;
  /** Quality of starting a chunk at this piece: 1 weak … 4 strong (h1/h2 heading). */
  q: number;
  /** Heading path (markdown). */
  head?: string | undefined;
  /** Starts a section (a heading): breaks the current chunk once it is past half of targetChars. */
  sec?: boolean;
  /** Emitted as a chunk on its own (a piece of a cut oversize block). */
  solo?: boolean;
  /** Absolute source offsets of a part of one overlong line. */
  c0?: number;
  c1?: number;
}

function checkInt(name: string, value: number, min: number, expected: string): void {
  if (!Number.isInteger(value) || value < min) {
    throw createError('INVALID_ARGUMENT', { name, value, expected });
  }
}

/**
 * Fills defaults and validates; throws INVALID_ARGUMENT naming the bad option. Defaults that an
 * explicit targetChars makes invalid adapt: maxChars grows to targetChars, overlapChars shrinks to
 * targetChars / 4, minChars to targetChars.
 */
export function resolveChunkOptions(opts: ChunkOptions = {}): Required<ChunkOptions> {
  const o = { ...DEFAULT_CHUNK_OPTIONS };
  for (const k of Object.keys(o) as (keyof ChunkOptions)[]) if (opts[k] !== undefined) o[k] = opts[k]!;
  checkInt('targetChars', o.targetChars, 1, 'an integer >= 1');
  // defaults that do not fit a small explicit target shrink with it
  if (opts.maxChars === undefined) o.maxChars = Math.max(o.maxChars, o.targetChars);
  if (opts.overlapChars === undefined) o.overlapChars = Math.min(o.overlapChars, Math.floor(o.targetChars / 4));
  if (opts.minChars === undefined) o.minChars = Math.min(o.minChars, o.targetChars);
  checkInt('maxChars', o.maxChars, o.targetChars, `an integer >= targetChars (${o.targetChars})`);
  checkInt('overlapChars', o.overlapChars, 0, 'an integer >= 0');
  if (o.overlapChars >= o.targetChars && o.overlapChars > 0) {
    throw createError('INVALID_ARGUMENT', {
      name: 'overlapChars',
      value: o.overlapChars,
      expected: `less than targetChars (${o.targetChars})`,
    });
  }
  checkInt('minChars', o.minChars, 0, 'an integer >= 0');
  if (o.minChars > o.targetChars) {
    throw createError('INVALID_ARGUMENT', {
      name: 'minChars',
      value: o.minChars,
      expected: `at most targetChars (${o.targetChars})`,
    });
  }
  return o;
}
