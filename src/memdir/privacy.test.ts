import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  addMemory,
  checkPrivacy,
  defaultPrivacy,
  effectivePrivacy,
  exportMemories,
  listMemories,
  memorySystemPrompt,
} from './index.js';

const FIX = new URL('../../test/fixtures/memdir/claude/', import.meta.url);

function tmp(t: { after: (fn: () => void) => void }): string {
  const d = mkdtempSync(join(tmpdir(), 'loci-'));
  t.after(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

test('privacy rules per type', () => {
  assert.deepEqual(
    [
      defaultPrivacy('user'),
      defaultPrivacy('feedback'),
      defaultPrivacy('project'),
      defaultPrivacy('reference'),
      defaultPrivacy(null),
    ],
    ['private', 'private', 'private', 'team', 'private'],
  );
  assert.equal(effectivePrivacy('user', 'team', true), 'private', 'user memories are private even under team/');
  assert.equal(effectivePrivacy('feedback', 'private', true), 'team', 'team/ implies team');
  assert.equal(effectivePrivacy('project', 'team', false), 'team');
  assert.equal(effectivePrivacy('reference', 'private', false), 'private');
  assert.equal(checkPrivacy('project', 'team'), 'team');
  assert.throws(() => checkPrivacy('user', 'team'), { code: 'MEMORY_PRIVACY_INVALID' });
});

test('privacy is stored in frontmatter and exposed in the manifest', (t) => {
  const dir = join(tmp(t), 'memory');
  addMemory(dir, { type: 'project', name: 'roadmap', description: 'd', privacy: 'team' });
  const m = listMemories(dir)[0]!;
  assert.equal(m.privacy, 'team');
  assert.match(m.path, /project_roadmap\.md$/);
});

test('exportMemories never returns private memories to the team', (t) => {
  const dir = join(tmp(t), 'memory');
  cpSync(FIX, dir, { recursive: true });
  addMemory(dir, { type: 'feedback', name: 'shared lesson', description: 'd', privacy: 'team' });
  addMemory(dir, { type: 'project', name: 'secret plan', description: 'd' });
  // A user memory that claims team and sits under team/ stays private.
  writeFileSync(join(dir, 'team', 'user_me.md'), '---\nname: me\nmetadata:\n  type: user\n  privacy: team\n---\nx\n');
  const team = exportMemories(dir, { audience: 'team' });
  assert.deepEqual(team.map((m) => m.file).sort(), [
    'feedback_shared-lesson.md',
    'reference_dashboards.md',
    'team/reference_ci.md',
  ]);
  assert.ok(team.every((m) => m.privacy === 'team' && typeof m.body === 'string'));
  const mine = exportMemories(dir, { audience: 'private' });
  assert.equal(mine.length, listMemories(dir, { limit: Infinity }).length);
  assert.deepEqual(exportMemories(dir, { audience: 'team', type: 'user' }), []);
});

test('memorySystemPrompt carries the types, how to save, what not to save and the index within limits', (t) => {
  const dir = join(tmp(t), 'memory');
  const empty = memorySystemPrompt(dir);
  assert.match(empty, /MEMORY\.md is empty/);
  addMemory(dir, { type: 'user', name: 'role', description: 'senior Go engineer' });
  const p = memorySystemPrompt(dir);
  for (const re of [
    /\*\*user\*\*/,
    /\*\*feedback\*\*/,
    /\*\*project\*\*/,
    /\*\*reference\*\*/,
    /One fact per file/,
    /Update an existing memory/,
    /absolute dates/,
    /What not to save/,
    /git\s+history/,
    /CLAUDE\.md/,
    /Secrets/,
    /- \[role\]\(user_role\.md\) — senior Go engineer/,
  ]) {
    assert.match(p, re);
  }
  assert.ok(p.includes(dir));
  writeFileSync(join(dir, 'MEMORY.md'), Array.from({ length: 300 }, (_, i) => `- [m${i}](m${i}.md)`).join('\n'));
  const big = memorySystemPrompt(dir);
  assert.match(big, /> WARNING: MEMORY\.md is 300 lines/);
  assert.ok(!big.includes('[m200]'));
});
