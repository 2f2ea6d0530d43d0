/**
 * @module memdir/open.test
 * Opening a memory directory: stale temp files of killed writers are removed (live ones kept),
 * MEMORY.md is repaired when it disagrees with the files (issue 11 defect 4), and memories written
 * to Loci's own directory before Claude Code's existed are merged into it (issue 10 point 10).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  addMemory,
  INDEX_REPAIR_GRACE_MS,
  listMemories,
  mergeMemoryDir,
  renderNewTopicFile,
  selectMemoryDir,
  STALE_TEMP_MS,
  tidyMemoryDir,
} from './index.js';

function tmp(t: { after: (fn: () => void) => void }): string {
  const d = realpathSync(mkdtempSync(join(tmpdir(), 'loci-open-')));
  t.after(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

/** The pid of a process that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

function age(path: string, ms: number): void {
  const t = (Date.now() - ms) / 1000;
  utimesSync(path, t, t);
}

function topic(name: string, description: string): { file: string; text: string } {
  const r = renderNewTopicFile({
    type: 'project',
    name,
    description,
    body: description,
    privacy: 'private',
    modified: '2026-01-02T03:04:05.000Z',
  });
  return { file: r.fileName, text: r.text };
}

test('a killed add: its temp file goes at the next open, and MEMORY.md gains the memory it missed', (t) => {
  const dir = tmp(t);
  addMemory(dir, { type: 'feedback', name: 'kept', description: 'indexed before the crash' });
  // What `memory add` leaves when killed between writing and indexing: a temp file named after a
  // process that is gone, and a topic file MEMORY.md does not list.
  const dead = deadPid();
  const killed = topic('late', 'written, never indexed');
  writeFileSync(join(dir, `.new.${dead}.a1b2c3d4e5f6.tmp`), killed.text);
  writeFileSync(join(dir, killed.file), killed.text);
  age(join(dir, killed.file), INDEX_REPAIR_GRACE_MS + 1000);
  // Temp files that must stay: a live writer's (this test's parent), and a fresh one without a pid.
  writeFileSync(join(dir, `.new.${process.ppid}.0123456789ab.tmp`), 'live');
  writeFileSync(join(dir, '.MEMORY.md.fedcba987654.tmp'), 'fresh');
  // An old atomic-replace leftover (no pid in its name) is stale by age.
  mkdirSync(join(dir, 'team'));
  writeFileSync(join(dir, 'team', '.project_x.md.00aa11bb22cc.tmp'), 'old');
  age(join(dir, 'team', '.project_x.md.00aa11bb22cc.tmp'), STALE_TEMP_MS + 1000);
  assert.ok(!readFileSync(join(dir, 'MEMORY.md'), 'utf8').includes(killed.file));

  const r = tidyMemoryDir(dir);
  assert.deepEqual(r.removedTemps.sort(), [`.new.${dead}.a1b2c3d4e5f6.tmp`, 'team/.project_x.md.00aa11bb22cc.tmp']);
  assert.equal(r.indexRepaired, true);
  assert.deepEqual(
    readdirSync(dir)
      .filter((n) => n.endsWith('.tmp'))
      .sort(),
    ['.MEMORY.md.fedcba987654.tmp', `.new.${process.ppid}.0123456789ab.tmp`],
  );
  const index = readFileSync(join(dir, 'MEMORY.md'), 'utf8');
  assert.match(index, /\(project_late\.md\) — written, never indexed/);
  assert.match(index, /\(feedback_kept\.md\)/);
  assert.deepEqual(
    tidyMemoryDir(dir),
    { removedTemps: [], indexRepaired: false, errors: [] },
    'a second open changes nothing',
  );
});

test('index repair leaves a just-written file and a hand-ordered index alone', (t) => {
  const dir = tmp(t);
  addMemory(dir, { type: 'feedback', name: 'one', description: 'first' });
  addMemory(dir, { type: 'feedback', name: 'two', description: 'second' });
  const hand = '# My memories\n\n- [two](feedback_two.md) — my own hook\n- [one](feedback_one.md) — first\n';
  writeFileSync(join(dir, 'MEMORY.md'), hand);
  const fresh = topic('fresh', 'its writer may still be updating MEMORY.md');
  writeFileSync(join(dir, fresh.file), fresh.text);
  assert.equal(tidyMemoryDir(dir).indexRepaired, false);
  assert.equal(readFileSync(join(dir, 'MEMORY.md'), 'utf8'), hand);
  // A line whose file is gone is dropped once MEMORY.md is older than the grace period.
  rmSync(join(dir, fresh.file));
  rmSync(join(dir, 'feedback_one.md'));
  age(join(dir, 'MEMORY.md'), INDEX_REPAIR_GRACE_MS + 1000);
  assert.equal(tidyMemoryDir(dir).indexRepaired, true);
  assert.equal(
    readFileSync(join(dir, 'MEMORY.md'), 'utf8'),
    '# My memories\n\n- [two](feedback_two.md) — my own hook\n',
  );
});

test("merge: Loci-dir memories move into Claude Code's directory once, atomically, without duplicates", (t) => {
  const base = tmp(t);
  const from = join(base, 'loci');
  const to = join(base, 'claude');
  addMemory(from, { type: 'project', name: 'early', description: 'added before Claude Code ran here' });
  addMemory(from, { type: 'reference', name: 'shared', description: 'team note', team: true });
  addMemory(from, { type: 'feedback', name: 'clash', description: 'the Loci one' });
  addMemory(to, { type: 'feedback', name: 'clash', description: 'the Claude Code one' });
  addMemory(to, { type: 'user', name: 'mine', description: 'already there' });
  // A crash after the link and before the unlink left this one in both places: no duplicate.
  const both = topic('both', 'in both places');
  writeFileSync(join(from, both.file), both.text);
  writeFileSync(join(to, both.file), both.text);
  const r = mergeMemoryDir(from, to);
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.renamed, [['feedback_clash.md', 'feedback_clash-from-loci.md']]);
  assert.deepEqual(r.moved.sort(), [
    'feedback_clash-from-loci.md',
    'project_both.md',
    'project_early.md',
    'team/reference_shared.md',
  ]);
  assert.deepEqual(
    listMemories(to)
      .map((m) => m.file)
      .sort(),
    [
      'feedback_clash-from-loci.md',
      'feedback_clash.md',
      'project_both.md',
      'project_early.md',
      'team/reference_shared.md',
      'user_mine.md',
    ],
  );
  assert.deepEqual(listMemories(from), [], 'nothing left behind');
  assert.equal(existsSync(join(from, 'MEMORY.md')), false);
  const index = readFileSync(join(to, 'MEMORY.md'), 'utf8');
  for (const f of [
    'project_early.md',
    'team/reference_shared.md',
    'feedback_clash-from-loci.md',
    'user_mine.md',
    'project_both.md',
  ])
    assert.ok(index.includes(`(${f})`), `${f} in MEMORY.md`);
  assert.equal(index.split('\n').filter((l) => l.includes('(project_both.md)')).length, 1);
  assert.deepEqual(mergeMemoryDir(from, to).moved, [], 'a second merge is a no-op');
});

test("selectMemoryDir merges the first time Claude Code's folder is seen, so `memory where` hides nothing", (t) => {
  const base = tmp(t);
  const project = join(base, 'proj');
  mkdirSync(project);
  const env = { HOME: join(base, 'home'), CLAUDE_CONFIG_DIR: join(base, 'claude') } as NodeJS.ProcessEnv;
  const o = { cwd: project, env, lociHome: join(base, 'loci'), managedSettingsPath: null };
  const before = selectMemoryDir(o);
  assert.equal(before.kind, 'loci');
  addMemory(before.dir, { type: 'project', name: 'early', description: 'before Claude Code' });
  // Claude Code starts a session here: its project folder appears.
  mkdirSync(before.claude.projectDir!, { recursive: true });
  const ro = selectMemoryDir({ ...o, readOnly: true });
  assert.equal(ro.kind, 'claude');
  assert.equal(ro.merged, undefined, 'readOnly only resolves');
  const after = selectMemoryDir(o);
  assert.equal(after.kind, 'claude');
  assert.deepEqual(after.merged?.moved, ['project_early.md']);
  assert.deepEqual(
    listMemories(after.dir).map((m) => m.name),
    ['early'],
  );
  assert.match(readFileSync(join(after.dir, 'MEMORY.md'), 'utf8'), /\(project_early\.md\) — before Claude Code/);
  assert.equal(selectMemoryDir(o).merged, undefined, 'only once');
});
