import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixedClock } from '../core/clock.js';
import {
  addMemory,
  editMemory,
  forgetMemory,
  listMemories,
  loadMemoryIndex,
  rebuildIndex,
  renderIndexLine,
  truncateIndex,
  MEMORY_LIMITS,
} from './index.js';

const FIX = new URL('../../test/fixtures/memdir/claude/', import.meta.url);

function tmp(t: { after: (fn: () => void) => void }): string {
  const d = mkdtempSync(join(tmpdir(), 'loci-'));
  t.after(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

function fixtureDir(t: { after: (fn: () => void) => void }): string {
  const dir = join(tmp(t), 'memory');
  cpSync(FIX, dir, { recursive: true });
  return dir;
}

function within(text: string): void {
  assert.ok(
    text.split('\n').filter((l, i, a) => i < a.length - 1 || l !== '').length <= MEMORY_LIMITS.indexLines,
    'lines',
  );
  assert.ok(Buffer.byteLength(text) <= MEMORY_LIMITS.indexBytes, `bytes ${Buffer.byteLength(text)}`);
  assert.ok(!text.startsWith('---'), 'no frontmatter');
}

test('scan: every variant listed, logs and .gitignored files skipped, pinned and newest first', (t) => {
  const dir = fixtureDir(t);
  mkdirSync(join(dir, 'drafts'));
  writeFileSync(join(dir, 'drafts', 'feedback_draft.md'), '---\nname: draft\n---\nx\n');
  writeFileSync(join(dir, 'scratch.md'), 'x\n');
  writeFileSync(join(dir, '.gitignore'), 'drafts/\nscratch.md\n');
  const files = listMemories(dir)
    .map((m) => m.file)
    .sort();
  assert.deepEqual(files, [
    'durable_verify-before-claiming.md',
    'feedback_bom.md',
    'feedback_no-mocks.md',
    'project_notes.md',
    'project_release-freeze.md',
    'reference_dashboards.md',
    'team/reference_ci.md',
    'user_editor-crlf.md',
    'user_role.md',
  ]);
  const m = listMemories(dir, { type: 'reference' });
  assert.deepEqual(m.map((x) => x.file).sort(), ['reference_dashboards.md', 'team/reference_ci.md']);
  const team = m.find((x) => x.team)!;
  assert.deepEqual([team.privacy, team.name, team.bytes > 0], ['team', 'ci-pipeline', true]);
});

test('scan: at most 200 files, newest first by modified then mtime', (t) => {
  const dir = join(tmp(t), 'memory');
  mkdirSync(dir);
  for (let i = 0; i < 230; i++) {
    const p = join(dir, `project_n${i}.md`);
    writeFileSync(p, `---\nname: n${i}\ndescription: d\nmetadata:\n  type: project\n---\nx\n`);
    const s = new Date(Date.UTC(2026, 0, 1) + i * 60_000);
    utimesSync(p, s, s);
  }
  writeFileSync(join(dir, 'project_old.md'), `---\nname: old\nmodified: 2020-01-01T00:00:00Z\n---\nx\n`);
  const list = listMemories(dir);
  assert.equal(list.length, 200);
  assert.equal(list[0]!.name, 'n229');
  assert.ok(!list.some((m) => m.name === 'old'));
  assert.equal(listMemories(dir, { limit: Infinity }).length, 231);
});

test('rebuild keeps the heading and hand-written lines, drops dangling ones, adds the rest pinned first', (t) => {
  const dir = fixtureDir(t);
  const s = rebuildIndex(dir);
  const text = readFileSync(join(dir, 'MEMORY.md'), 'utf8');
  const lines = text.trimEnd().split('\n');
  assert.equal(lines[0], '# Memory Index');
  assert.equal(lines[1], '');
  assert.match(
    lines[2]!,
    /^- \[verify-before-claiming\]\(durable_verify-before-claiming\.md\) — Run the test suite/,
    'pinned first',
  );
  assert.ok(text.includes('- [User role](user_role.md) — senior Go dev, new to React'), 'hand-written line kept');
  assert.ok(text.includes('- [CI](team/reference_ci.md) — Buildkite'), 'team pointer kept');
  assert.ok(!text.includes('feedback_deleted.md'), 'dangling pointer dropped');
  assert.ok(text.includes('(project_notes.md)'));
  assert.equal(s.dropped, 1);
  assert.equal(s.entries, 9);
  for (const l of lines.slice(2)) assert.ok(l.length <= 150, l);
  within(text);
  // Idempotent: a second rebuild writes nothing.
  assert.equal(rebuildIndex(dir).written, false);
});

test('a written memory gets a regenerated line; foreign pointers survive while their file exists', (t) => {
  const dir = fixtureDir(t);
  mkdirSync(join(dir, 'archive'));
  writeFileSync(join(dir, 'archive', 'old.txt'), 'kept\n');
  writeFileSync(
    join(dir, 'MEMORY.md'),
    readFileSync(join(dir, 'MEMORY.md'), 'utf8') +
      '- [Archive](archive/old.txt) — old notes\nSee also the team wiki.\n',
  );
  const clock = fixedClock(Date.UTC(2026, 4, 1));
  editMemory(dir, 'user_role.md', { description: 'Senior Go engineer learning React' }, { clock });
  let text = readFileSync(join(dir, 'MEMORY.md'), 'utf8');
  assert.ok(text.includes('- [User role and expertise](user_role.md) — Senior Go engineer learning React'));
  assert.ok(text.includes('- [Archive](archive/old.txt) — old notes'));
  assert.ok(text.includes('See also the team wiki.'));
  unlinkSync(join(dir, 'archive', 'old.txt'));
  forgetMemory(dir, 'no-mocks');
  text = readFileSync(join(dir, 'MEMORY.md'), 'utf8');
  assert.ok(!text.includes('archive/old.txt'));
  assert.ok(!text.includes('feedback_no-mocks.md'));
});

test('index lines are clipped under 150 characters and escaped', () => {
  const l = renderIndexLine({ title: 'A [weird] title', file: 'feedback_x.md', description: 'word '.repeat(80) });
  assert.ok(l.length <= 150);
  assert.ok(l.startsWith('- [A \\[weird\\] title](feedback_x.md) — word'));
  assert.ok(l.endsWith('…'));
  assert.equal(renderIndexLine({ title: 't', file: 'has space.md', description: '' }), '- [t](<has space.md>)');
});

test('MEMORY.md never exceeds 200 lines or 25 KB, however many writes', (t) => {
  const dir = join(tmp(t), 'memory');
  const clock = fixedClock(Date.UTC(2026, 0, 1));
  for (let i = 0; i < 210; i++) {
    clock.t += 1000;
    addMemory(
      dir,
      {
        type: (['user', 'feedback', 'project', 'reference'] as const)[i % 4]!,
        name: `memory number ${i}`,
        description: `${'long description '.repeat(8)}${i}`,
        pinned: i % 50 === 0,
      },
      { clock },
    );
    if (i % 10 === 0 || i > 190) within(readFileSync(join(dir, 'MEMORY.md'), 'utf8'));
  }
  const s = rebuildIndex(dir);
  assert.ok(s.omitted > 0);
  const text = readFileSync(join(dir, 'MEMORY.md'), 'utf8');
  within(text);
  const firstSix = text
    .split('\n')
    .slice(0, 6)
    .map((l) => /memory-number-(\d+)/.exec(l)?.[1]);
  assert.deepEqual(
    firstSix,
    ['200', '150', '100', '50', '0', '209'],
    'pinned entries first (even beyond the scan cap), newest first',
  );
  assert.equal(loadMemoryIndex(dir).truncated, false, 'what Loci writes loads without truncation');
});

test('loading applies 200 lines, then 25 KB, with a notice; comments and frontmatter do not count', (t) => {
  const many = Array.from({ length: 320 }, (_, i) => `- [m${i}](m${i}.md) — hook`).join('\n');
  const a = truncateIndex(many);
  assert.equal(a.truncated, true);
  assert.equal(a.text.split('\n\n> WARNING')[0]!.split('\n').length, 200);
  assert.match(a.notice!, /MEMORY\.md is 320 lines \(limit: 200\)\. Only part of it was loaded\./);
  const wide = Array.from({ length: 150 }, (_, i) => `- [m${i}](m${i}.md) — ${'x'.repeat(200)}`).join('\n');
  const b = truncateIndex(wide);
  assert.ok(Buffer.byteLength(b.text.split('\n\n> WARNING')[0]!) <= 25_000);
  assert.match(b.notice!, /KB \(limit: 25\.0 KB\) — index entries are too long/);
  assert.ok(
    b.text
      .split('\n\n> WARNING')[0]!
      .split('\n')
      .every((l) => l.endsWith('x')),
    'cut at a line end',
  );
  const commented = `---\nfoo: bar\n---\n<!--\n${'note\n'.repeat(300)}-->\n- [a](a.md)\n`;
  const c = truncateIndex(commented);
  assert.deepEqual([c.truncated, c.text], [false, '- [a](a.md)']);
  const dir = tmp(t);
  assert.deepEqual(loadMemoryIndex(dir).exists, false);
});
