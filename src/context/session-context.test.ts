/** @module context/session-context.test — the git snapshot, the user context and the split system prompt. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { captureSystemContext, loadUserContext, renderSystemContext } from './session-context.js';
import {
  buildDynamicPrompt,
  buildStaticPrompt,
  systemPrompt,
  SYSTEM_PROMPT_DYNAMIC_BOUNDARY,
} from './system-prompt.js';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd, stdio: 'pipe' });

test('the git snapshot: branch, capped status with a note, recent commits, date', () => {
  const dir = mkdtempSync(join(tmpdir(), 'loci-ctx-git-'));
  try {
    git(dir, 'init', '-q', '-b', 'feature/x');
    writeFileSync(join(dir, 'a.txt'), 'a');
    git(dir, 'add', '.');
    git(dir, 'commit', '-qm', 'first commit');
    for (let i = 0; i < 200; i++) writeFileSync(join(dir, `untracked-file-with-a-long-name-${i}.txt`), 'x');
    writeFileSync(join(dir, 'a.txt'), 'changed');
    const ctx = captureSystemContext({ cwd: dir, now: Date.UTC(2026, 0, 15, 12), maxStatusChars: 500 });
    assert.equal(ctx.git?.branch, 'feature/x');
    assert.match(ctx.git?.recentCommits ?? '', /first commit/);
    assert.match(ctx.git?.status ?? '', /^ M a\.txt/, 'the first status line keeps its leading column');
    assert.match(ctx.git?.status ?? '', /truncated: \d+ characters in all/);
    assert.ok((ctx.git?.status.length ?? 0) < 600);
    assert.equal(ctx.date, '2026-01-15');
    const text = renderSystemContext(ctx);
    assert.match(text, /snapshot and is not updated/);
    assert.match(text, /Current branch: feature\/x/);
    const outside = captureSystemContext({ cwd: tmpdir(), noGit: true });
    assert.equal(outside.git, undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the user context: the CLAUDE.md chain and the memory section with drift protection', () => {
  const dir = mkdtempSync(join(tmpdir(), 'loci-ctx-user-'));
  try {
    const project = join(dir, 'project');
    const memory = join(dir, 'memory');
    mkdirSync(project);
    mkdirSync(memory);
    writeFileSync(join(project, 'CLAUDE.md'), 'Always run the tests with `npm test`.\n');
    writeFileSync(join(memory, 'MEMORY.md'), '- [Deploy day](project_deploy.md) — we deploy on Tuesdays\n');
    const ctx = loadUserContext({ cwd: project, memoryDir: memory, home: join(dir, 'home'), managedPath: null });
    assert.deepEqual(ctx.claudeMdFiles, [join(project, 'CLAUDE.md')]);
    assert.match(ctx.claudeMd, /Always run the tests/);
    assert.match(ctx.memory, /we deploy on Tuesdays/);
    assert.match(ctx.memory, /Verify a memory against the current code and git before recommending/);
    const none = loadUserContext({ cwd: project, claudeMd: false });
    assert.deepEqual(none, { claudeMd: '', claudeMdFiles: [], memory: '' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the system prompt splits static and dynamic parts at an explicit boundary', () => {
  const st = buildStaticPrompt({ toolGuidance: 'Use grep before read.' });
  const dy = buildDynamicPrompt({
    system: { capturedAt: '2026-01-15T12:00:00.000Z', date: '2026-01-15', cwd: '/repo' },
    user: { claudeMd: 'Use tabs.', claudeMdFiles: [], memory: '# Memory\nnone' },
    extra: 'Front-end note.',
  });
  assert.match(st, /coding agent[\s\S]*Use grep before read\.[\s\S]*# Rules/);
  assert.doesNotMatch(st, /2026/, 'nothing session-specific in the static part');
  assert.match(dy, /2026-01-15[\s\S]*Use tabs\.[\s\S]*# Memory[\s\S]*Front-end note\./);
  const sp = systemPrompt(st, dy);
  assert.deepEqual(sp.parts(), [
    { text: st, cache: true },
    { text: dy, cache: true },
  ]);
  assert.equal(sp.text(), `${st}\n\n${dy}`);
  assert.equal(sp.withBoundary().split(`\n${SYSTEM_PROMPT_DYNAMIC_BOUNDARY}\n`).length, 2);
  assert.deepEqual(systemPrompt(st, '').parts(), [{ text: st, cache: true }]);
});
