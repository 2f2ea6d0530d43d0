/**
 * @module recall/escape
 * Making stored text safe to inject into a prompt: content can never open or close the
 * `<system-reminder>` wrapper (or any other XML-ish control tag), and header attributes are
 * entity-escaped. The escaping is minimal and visible: only the `<` that starts a tag-like
 * sequence becomes `‹` (U+2039), so `Map<K, V>` reads `Map‹K, V>` and a forged
 * `</system-reminder>` reads `‹/system-reminder>`; everything else is kept as written.
 */

/** The opening wrapper tag of every injection. */
export const REMINDER_OPEN = '<system-reminder>';
/** The closing wrapper tag of every injection. */
export const REMINDER_CLOSE = '</system-reminder>';
/** What replaces a `<` that would start a tag: U+2039 SINGLE LEFT-POINTING ANGLE QUOTATION MARK. */
export const SAFE_LT = '\u2039';

/**
 * A `<` that starts something a model or parser could read as a tag:
 * - directly (invisible format characters such as U+200B or bidi marks allowed in between)
 *   followed by `/`, a name start (letter, `_`, `:`), `!` (comments, CDATA), `?`
 *   (processing instructions), `|` (`<|im_start|>`-style tokens) or the end of the text, so
 *   that a dangling `<` can never join text placed after it;
 * - after whitespace, when followed by `/` or a word naming a role or control tag (`< /system-
 *   reminder>`, `< system…`, `< user`, `< assistant`, `< memory`, …). A plain `a < b` is kept.
 */
const TAG_START = new RegExp(
  String.raw`<(?=[\p{Cf}]*(?:[/\p{L}_:!?|]|$)|[\s\p{Cf}]+(?:\/|system|reminder|memory|drawer|instruction|user|` +
    String.raw`assistant|human|tool|function|antml|im_|\|))`,
  'giu',
);
/** C0 controls other than tab and line feed, and DEL. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/**
 * Line ends (CR LF, CR, and the Unicode line and paragraph separators U+2028 / U+2029, which some
 * readers break lines at) to `\n`, and control characters (other than tab) to U+FFFD: the part of
 * escaping that is not about tags. Exposed so tests can state what escaping preserves.
 */
export function normalizeControls(text: string): string {
  return text.replace(/\r\n?|[\u2028\u2029]/g, '\n').replace(CONTROL, '\uFFFD');
}

/**
 * Escapes stored text for injection inside a `<system-reminder>`: every tag-starting `<` becomes
 * {@link SAFE_LT}; line ends are normalised and control characters replaced (see
 * {@link normalizeControls}). Idempotent. The result contains no `<` followed by a tag name, `/`,
 * `!` or `?`, hence no wrapper tag.
 */
export function escapeReminderContent(text: string): string {
  return normalizeControls(text).replace(TAG_START, SAFE_LT);
}

/** True when `text` contains a `<` that starts a tag-like sequence (what escaping removes). */
export function hasTagStart(text: string): boolean {
  TAG_START.lastIndex = 0;
  const found = TAG_START.test(text);
  TAG_START.lastIndex = 0;
  return found;
}

/** Escapes a header attribute value: `& " < >` as entities, line breaks and controls as spaces. */
export function escapeAttr(value: string): string {
  return value
    .replace(/[\r\n\t\u0000-\u001f\u007f\u2028\u2029]+/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/**
 * Wraps an already escaped body in the one `<system-reminder>` block of an injection. The body
 * must come from {@link escapeReminderContent} / {@link escapeAttr} pieces; it is checked again
 * here and any tag start outside Loci's own block markup is escaped, so the result always holds
 * exactly one opening and one closing wrapper tag.
 */
export function wrapSystemReminder(body: string): string {
  return `${REMINDER_OPEN}\n${checkBody(body)}\n${REMINDER_CLOSE}`;
}

/**
 * The same body check without the wrapper, for hook output: Claude Code wraps a hook's
 * `additionalContext` in its own `<system-reminder>`, so Loci must not nest another one. Any tag
 * start outside Loci's own block markup is escaped, so the text can never close the host's wrapper.
 */
export function checkBody(body: string): string {
  return body.replace(TAG_START, (lt, offset: number) => (isOwnMarkup(body, offset) ? lt : SAFE_LT));
}

/** Loci's block markup (`<memory …>`, `</memory>`, `<drawer …>`, `</drawer>`) at a line start. */
const OWN_MARKUP = /^<\/?(?:memory|drawer)(?=[\s>])/;

function isOwnMarkup(body: string, offset: number): boolean {
  return (offset === 0 || body[offset - 1] === '\n') && OWN_MARKUP.test(body.slice(offset, offset + 10));
}

/** UTF-8 byte length. */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
