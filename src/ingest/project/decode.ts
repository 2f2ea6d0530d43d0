/**
 * @module ingest/project/decode
 * Bytes → text for mined files: UTF-8 (BOM stripped), or UTF-16 LE/BE when a BOM says so.
 * Invalid sequences become U+FFFD and are reported, so the caller can warn; the result never holds a
 * lone surrogate (MemPalace crashed writing those).
 */
import { isUtf8 } from 'node:buffer';

const UTF16LE = new TextDecoder('utf-16le');
const UTF16BE = new TextDecoder('utf-16be');
const UTF16LE_FATAL = new TextDecoder('utf-16le', { fatal: true });
const UTF16BE_FATAL = new TextDecoder('utf-16be', { fatal: true });

/** Result of {@link decodeText}. */
interface DecodedText {
  /** The text, without a byte-order mark. */
  text: string;
  /**
   * True when some bytes were not valid in the detected encoding (invalid UTF-8, or a lone surrogate
   * or odd trailing byte in UTF-16) and were replaced by U+FFFD.
   */
  invalidUtf8: boolean;
}

function utf16(buf: Uint8Array, le: boolean): DecodedText {
  const body = buf.subarray(2);
  try {
    return { text: (le ? UTF16LE_FATAL : UTF16BE_FATAL).decode(body), invalidUtf8: false };
  } catch {
    return { text: (le ? UTF16LE : UTF16BE).decode(body), invalidUtf8: true };
  }
}

/**
 * Decodes file content. A UTF-8 BOM (EF BB BF) is stripped; a UTF-16 BOM (FF FE or FE FF) selects
 * UTF-16 LE/BE; anything else is read as UTF-8. Invalid sequences become U+FFFD and set
 * `invalidUtf8` (for UTF-16 input the flag means "invalid in UTF-16").
 */
export function decodeText(buf: Uint8Array): DecodedText {
  const n = buf.length;
  if (n >= 2) {
    if (buf[0] === 0xff && buf[1] === 0xfe) return utf16(buf, true);
    if (buf[0] === 0xfe && buf[1] === 0xff) return utf16(buf, false);
  }
  const start = n >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
  const body = start === 0 ? buf : buf.subarray(start);
  const b = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  // Buffer#toString replaces invalid sequences with U+FFFD (WHATWG rules); isUtf8 is a fast check.
  return { text: b.toString('utf8'), invalidUtf8: !isUtf8(b) };
}
