/**
 * @module core/words.test
 * Word counts in any script, and small talk: prompts that name no topic (recall stays silent).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countWords, isSmallTalk } from './words.js';

describe('words', () => {
  it('counts unspaced scripts by characters', () => {
    assert.equal(countWords('为什么测试失败了'), 4);
    assert.equal(countWords('好的'), 1);
    assert.equal(countWords('fix the test'), 3);
  });

  it('small talk: acknowledgements and "carry on" prompts name no topic', () => {
    for (const p of [
      'ok thanks',
      'yes please do that',
      'sounds good, go ahead',
      "great, what's next?",
      'try again',
      'looks good to me',
      'keep going',
      'ok do it',
      'perfect, thank you!',
      'Yes — commit and push it',
      'It’s fine, continue',
      'LGTM',
      '好的，继续',
      '谢谢！',
      'はい、続けてください',
    ])
      assert.equal(isSmallTalk(p), true, p);
  });

  it('a prompt with a content word is not small talk', () => {
    for (const p of [
      'fix the test',
      'continue with the migration',
      'yes, use redis for that',
      'why does /login fail?',
      'ok run npm test again',
      '好的谢谢',
      '',
      '!!!',
    ])
      assert.equal(isSmallTalk(p), false, p);
  });
});
