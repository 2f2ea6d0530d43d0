/**
 * @module memdir/neutralise
 * Text that Loci writes into `MEMORY.md`, which Claude Code loads into the model's context by itself
 * (inside its own `<system-reminder>` wrapper). A memory's name or description must not be able to
 * close that wrapper, open a new one, hide the lines after it, or break out of its index line.
 *
 * What is neutralised, and how (the text stays readable; nothing is dropped but invisible
 * characters):
 * - **Line structure**: every run of whitespace, including line and paragraph separators and NEL,
 *   becomes one space, so an entry is always exactly one line.
 * - **Invisible characters**: C0/C1 control characters, DEL, bidirectional embeddings, overrides
 *   and isolates (U+202A–202E, U+2066–2069, LRM/RLM/ALM), zero-width space, word joiner and BOM are
 *   removed (they can reorder or hide what a reader sees).
 * - **Markup**: `<` that would start a tag, a closing tag, an HTML comment or a processing
 *   instruction (`<` before a letter, `/`, `!` or `?`; also `< /x` and `< x >` with spaces) becomes `‹` (U+2039), and
 *   the `>` that ends
 *   such a tag becomes `›` (U+203A): `</system-reminder>` reads `‹/system-reminder›`. A `<` before
 *   anything else (`a < b`, `<=`, `->`) is left alone.
 * - **Link syntax** (titles only): `\`, `[` and `]` are escaped so a title cannot end its
 *   `[…](file)` link early or point it elsewhere.
 */

const INVISIBLE =
  /[\u0000-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;
const SPACE = /[\s\u0085]+/g;
const TAG = /<(\/?\p{L}[^<>\n]*)>/gu;
// A lenient reader also takes `< /tag >` and `< tag >` for tags: spaces may follow `<`.
const SPACED_TAG = /<([\s\p{Cf}]*\/?[\s\p{Cf}]*\p{L}[\p{L}\p{N}_:.-]*[\s\p{Cf}]*)>/gu;
const TAG_START = /<(?=[\p{L}/!?]|[\s\p{Cf}]+\/)/gu;

/** One readable line with no invisible characters and no markup that could open or close a tag. */
export function neutraliseLine(s: string): string {
  return s
    .replace(INVISIBLE, '')
    .replace(SPACE, ' ')
    .trim()
    .replace(TAG, '‹$1›')
    .replace(SPACED_TAG, '‹$1›')
    .replace(TAG_START, '‹');
}

/** True when `s` holds an invisible character or the start of a tag (spacing aside). */
export function hasMarkupOrInvisible(s: string): boolean {
  return new RegExp(INVISIBLE.source).test(s) || new RegExp(TAG_START.source).test(s);
}

/** {@link neutraliseLine}, then `\`, `[` and `]` escaped for use as a markdown link text. */
export function linkText(s: string): string {
  return neutraliseLine(s).replace(/([\\[\]])/g, '\\$1');
}

/**
 * A relative file path as a markdown link target: characters that could end or break the target
 * (`<`, `>`, control and bidi characters) are percent-encoded; a target with spaces or
 * parentheses is wrapped in `<…>`. `decodeURI` gives the path back.
 */
export function linkTarget(file: string): string {
  const enc = file.replace(
    /[%<>\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g,
    (c) => encodeURIComponent(c),
  );
  return /[\s()]/.test(enc) ? `<${enc}>` : enc;
}
