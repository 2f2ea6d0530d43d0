/**
 * @module hooks/transcript.test
 * Human-prompt counting: the fixture's exact count, incremental reads over random cuts, a line
 * still being written, a rewritten (shorter) file.
 */
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { countHumanPrompts, isHumanPrompt, lastCompactionLine } from './transcript.js';

const FIXTURE = fileURLToPath(new URL('../../test/fixtures/hooks/session.jsonl', import.meta.url));
const user = (content: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'user',
  message: { role: 'user', content },
  ...extra,
});

describe('isHumanPrompt', () => {
  it('counts typed strings and text blocks, nothing else', () => {
    assert.equal(isHumanPrompt(user('fix the flaky test')), true);
    assert.equal(isHumanPrompt(user([{ type: 'text', text: 'and this one' }])), true);
    assert.equal(
      isHumanPrompt(
        user([
          { type: 'image', source: {} },
          { type: 'text', text: 'see screenshot' },
        ]),
      ),
      true,
    );
    assert.equal(isHumanPrompt(user([{ type: 'tool_result', tool_use_id: 't', content: 'ok' }])), false);
    assert.equal(
      isHumanPrompt(user([{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: 'nested' }] }])),
      false,
    );
    assert.equal(isHumanPrompt(user('injected', { isMeta: true })), false);
    assert.equal(isHumanPrompt(user('summary', { isCompactSummary: true })), false);
    assert.equal(isHumanPrompt(user('subagent', { isSidechain: true })), false);
    assert.equal(isHumanPrompt(user('<command-name>/clear</command-name>')), false);
    assert.equal(isHumanPrompt(user('<local-command-stdout>x</local-command-stdout>')), false);
    assert.equal(isHumanPrompt(user('<bash-input>ls</bash-input>')), false);
    assert.equal(isHumanPrompt(user([{ type: 'text', text: '[Request interrupted by user for tool use]' }])), false);
    assert.equal(isHumanPrompt(user('   ')), false);
    assert.equal(isHumanPrompt({ type: 'assistant', message: { role: 'assistant', content: 'hi' } }), false);
    assert.equal(isHumanPrompt(null), false);
  });
});

describe('countHumanPrompts', () => {
  it('finds the 5 human prompts of the fixture among tool results, markup and meta records', () => {
    const c = countHumanPrompts(FIXTURE);
    assert.equal(c.humans, 5);
    assert.equal(c.offset, readFileSync(FIXTURE).length);
    assert.equal(c.reset, false);
  });

  it('gives the same count read incrementally at any byte cut, never consuming a partial line', () => {
    const bytes = readFileSync(FIXTURE);
    const dir = mkdtempSync(join(tmpdir(), 'loci-hooks-'));
    try {
      const file = join(dir, 't.jsonl');
      for (const cut of [1, 100, 977, 4096, Math.floor(bytes.length / 2), bytes.length - 1]) {
        writeFileSync(file, bytes.subarray(0, cut));
        const a = countHumanPrompts(file);
        assert.equal(
          bytes[a.offset - 1] === undefined || bytes[a.offset - 1] === 0x0a,
          true,
          `offset ${a.offset} ends a line`,
        );
        appendFileSync(file, bytes.subarray(cut));
        const b = countHumanPrompts(file, a.offset, a.humans);
        assert.equal(b.humans, 5, `cut at ${cut}`);
        assert.equal(b.offset, bytes.length);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('counts again from 0 when the file became shorter than the saved offset', () => {
    const dir = mkdtempSync(join(tmpdir(), 'loci-hooks-'));
    try {
      const file = join(dir, 't.jsonl');
      writeFileSync(file, `${JSON.stringify(user('one prompt'))}\nnot json\n[1,2]\n`);
      const c = countHumanPrompts(file, 10_000, 40);
      assert.deepEqual({ humans: c.humans, reset: c.reset }, { humans: 1, reset: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('lastCompactionLine', () => {
  it('is the line of the last compaction record; 0 without one or without a file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'loci-compaction-'));
    try {
      const path = join(dir, 's.jsonl');
      const rec = (o: Record<string, unknown>) => `${JSON.stringify(o)}\n`;
      writeFileSync(path, rec(user('first')) + rec(user('second')));
      assert.equal(lastCompactionLine(path), 0);
      appendFileSync(path, rec({ type: 'system', subtype: 'compact_boundary' }));
      appendFileSync(path, rec(user('Summary: …', { isCompactSummary: true })) + rec(user('third')));
      assert.equal(lastCompactionLine(path), 4);
      appendFileSync(path, rec({ type: 'system', subtype: 'compact_boundary' }).trimEnd()); // being written
      assert.equal(lastCompactionLine(path), 6);
      assert.equal(lastCompactionLine(join(dir, 'missing.jsonl')), 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
