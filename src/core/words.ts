/**
 * @module core/words
 * How many words a prompt has, in any script, and whether it is only small talk. Whitespace
 * separates words in most scripts, but Chinese, Japanese, Thai, Lao, Khmer and Myanmar are written
 * without spaces: there a run of characters counts one word per {@link CHARS_PER_UNSPACED_WORD}
 * characters (rounded up), so "为什么测试失败了" (8 characters) counts 4 words and "好的" ("ok")
 * counts 1. Leaf module (no imports): used by the hook fast path and by recall.
 *
 * {@link isSmallTalk}: a prompt made only of acknowledgements, politeness and "carry on" words
 * ("ok thanks", "yes please do that", "sounds good, go ahead", "great, what's next?", "try again")
 * names nothing to look up: whatever a search finds for "please" or "next" is noise.
 */

/** Characters of an unspaced script that count as one word (a typical Chinese word is 2). */
const CHARS_PER_UNSPACED_WORD = 2;

const SCRIPTS =
  String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}` +
  String.raw`\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}`;
const UNSPACED = new RegExp(`[${SCRIPTS}]`, 'u');
const UNSPACED_RUN = new RegExp(`[${SCRIPTS}ー々]+`, 'gu');

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

/**
 * Words of acknowledgement, politeness, agreement and "carry on" (English), plus the bare verbs and
 * pronouns that go with them ("do it", "fix that", "run it again"): a prompt made only of these
 * names no topic. Content words (a file, a tool, "tests", "docker") are never in this list.
 */
const SMALL_TALK = new Set(
  (
    'yes yeah yep yup ya sure ok okay okey k kk alright right fine cool great good nice perfect awesome ' +
    'excellent amazing lovely wonderful brilliant sweet super fantastic thanks thank thx ty tysm cheers you ' +
    'please pls plz go ahead on do it that this these those again try keep going continue proceed carry next ' +
    "what what's whats now then and so well let let's lets sounds sound looks look seems works worked work " +
    'lgtm to me done no nope not yet same more one for the a an its it is i agree agreed exactly ' +
    'correct indeed much very job all of as with up hi hello hey oh ah hmm wow yay does did can could would ' +
    "will we be how about here there it's that's i'm i'll we'll you're " +
    'commit push fix run check retry redo undo revert finish open show start stop ' +
    // The same in scripts without spaces (each run of letters between punctuation is one word here).
    '好 好的 好吧 谢谢 多谢 谢了 继续 是 是的 对 对的 可以 行 嗯 没问题 下一步 然后呢 ' +
    'はい ええ うん ありがとう ありがとうございます 続けて 続けてください お願いします どうぞ 了解 次'
  ).split(' '),
);

/**
 * True when every word of `text` is small talk (see the module comment): "thanks!", "ok, do it",
 * "sounds good — go ahead", "what's next?". False for any prompt with a content word ("fix the
 * test", "continue with the migration") and for text with no Latin-script word at all (scripts
 * without spaces are judged by {@link countWords} alone).
 */
export function isSmallTalk(text: string): boolean {
  const words = text
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .split(/[^\p{L}\p{N}']+/u)
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter(Boolean);
  return words.length > 0 && words.every((w) => SMALL_TALK.has(w));
}
