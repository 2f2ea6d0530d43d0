/**
 * @module core/words
 * How many words a prompt has, in any script. Whitespace separates words in most scripts, but
 * Chinese, Japanese, Thai, Lao, Khmer and Myanmar are written without spaces: there a run of
 * characters counts one word per {@link CHARS_PER_UNSPACED_WORD} characters (rounded up), so
 * "为什么测试失败了" (8 characters) counts 4 words and "好的" ("ok") counts 1. Leaf module (no
 * imports): used by the hook fast path and by recall.
 */

/** Characters of an unspaced script that count as one word (a typical Chinese word is 2). */
const CHARS_PER_UNSPACED_WORD = 2;

const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const UNSPACED_RUN =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}ー々]+/gu;

/** Words of `text` (see the module comment); punctuation alone is not a word. */
export function countWords(text: string): number {
  let n = 0;
  for (const chunk of text.trim().split(/\s+/)) {
    if (!chunk) continue;
    if (!UNSPACED.test(chunk)) {
      if (/[\p{L}\p{N}]/u.test(chunk)) n++;
      continue;
    }
    for (const run of chunk.match(UNSPACED_RUN) ?? []) n += Math.ceil([...run].length / CHARS_PER_UNSPACED_WORD);
    if (/[\p{L}\p{N}]/u.test(chunk.replace(UNSPACED_RUN, ' ').replace(/[\p{P}\p{S}]/gu, ' '))) n++;
  }
  return n;
}
