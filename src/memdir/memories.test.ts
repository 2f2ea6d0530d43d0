import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixedClock } from '../core/clock.js';
import {
  addMemory,
  editMemory,
  findMemory,
  forgetMemory,
  getMemory,
  listMemories,
  parseTopicFile,
  loadMemoryIndex,
} from './index.js';

const FIX = new URL('../../test/fixtures/memdir/claude/', import.meta.url);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function tmp(t: { after: (fn: () => void) => void }): string {
  const d = mkdtempSync(join(tmpdir(), 'loci-'));
  t.after(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

test('add writes the newest variant, with Why/How, privacy and the index line', (t) => {
  const dir = join(tmp(t), 'memory');
  const clock = fixedClock(Date.UTC(2026, 2, 1, 9));
  const r = addMemory(
    dir,
    {
      type: 'feedback',
      name: 'No Mocks',
      description: 'integration tests hit a real DB',
      body: 'Use a real database in tests.',
      why: 'mocks hid a migration bug',
      how: 'open SQLite in a temp dir',
    },
    { clock },
  );
  assert.equal(r.memory.file, 'feedback_no-mocks.md');
  assert.equal(r.memory.privacy, 'private');
  assert.equal(r.memory.modified, '2026-03-01T09:00:00.000Z');
  const text = readFileSync(join(dir, 'feedback_no-mocks.md'), 'utf8');
  assert.match(text, /\*\*Why:\*\* mocks hid a migration bug\n\*\*How to apply:\*\* open SQLite in a temp dir\n$/);
  assert.equal(
    readFileSync(join(dir, 'MEMORY.md'), 'utf8'),
    '- [no-mocks](feedback_no-mocks.md) — integration tests hit a real DB\n',
  );
  const ref = addMemory(dir, { type: 'reference', name: 'Grafana', description: 'latency dashboards' }, { clock });
  assert.equal(ref.memory.privacy, 'team');
  assert.equal(ref.memory.body.trimEnd(), 'latency dashboards', 'body defaults to the description');
  const team = addMemory(dir, { type: 'project', name: 'Release', description: 'd', team: true }, { clock });
  assert.deepEqual([team.memory.file, team.memory.privacy], ['team/project_release.md', 'team']);
});

test('add refuses duplicates, bad types, bad names and private-only violations', (t) => {
  const dir = join(tmp(t), 'memory');
  addMemory(dir, { type: 'feedback', name: 'No Mocks', description: 'd' });
  assert.throws(() => addMemory(dir, { type: 'project', name: 'no mocks', description: 'd' }), {
    code: 'MEMORY_EXISTS',
  });
  assert.throws(() => addMemory(dir, { type: 'note', name: 'x', description: 'd' }), { code: 'MEMORY_INVALID_TYPE' });
  assert.throws(() => addMemory(dir, { type: 'user', name: '  ', description: 'd' }), { code: 'MEMORY_INVALID_NAME' });
  assert.throws(() => addMemory(dir, { type: 'user', name: 'a\nb', description: 'd' }), {
    code: 'MEMORY_INVALID_NAME',
  });
  assert.throws(() => addMemory(dir, { type: 'user', name: 'me', description: 'd', privacy: 'team' }), {
    code: 'MEMORY_PRIVACY_INVALID',
  });
  assert.throws(() => addMemory(dir, { type: 'user', name: 'me', description: 'd', team: true }), {
    code: 'MEMORY_PRIVACY_INVALID',
  });
  assert.throws(() => addMemory(dir, { type: 'project', name: 'p', description: 'd', privacy: 'public' }), {
    code: 'MEMORY_PRIVACY_INVALID',
  });
});

test('find by file, name or slug; not found suggests close names; ambiguity is reported', (t) => {
  const dir = join(tmp(t), 'memory');
  cpSync(FIX, dir, { recursive: true });
  assert.equal(findMemory(dir, 'user_role.md').name, 'User role and expertise');
  assert.equal(findMemory(dir, 'user_role').file, 'user_role.md');
  assert.equal(findMemory(dir, 'User role and expertise').file, 'user_role.md');
  assert.equal(findMemory(dir, 'No Mocks').file, 'feedback_no-mocks.md');
  assert.equal(findMemory(dir, 'team/reference_ci.md').name, 'ci-pipeline');
  assert.equal(getMemory(dir, 'nothing-like-it'), undefined);
  assert.throws(
    () => findMemory(dir, 'no-mock'),
    (e: { code: string; details: { suggestions: string[] } }) =>
      e.code === 'MEMORY_NOT_FOUND' && e.details.suggestions.includes('no-mocks'),
  );
  writeFileSync(join(dir, 'project_no-mocks.md'), '---\nname: no-mocks\n---\nx\n');
  assert.throws(() => findMemory(dir, 'no-mocks'), { code: 'MEMORY_AMBIGUOUS' });
});

test('edit keeps everything else, stamps modified, renames on type change; no-op edits write nothing', (t) => {
  const dir = join(tmp(t), 'memory');
  cpSync(FIX, dir, { recursive: true });
  const clock = fixedClock(Date.UTC(2026, 4, 2));
  const before = readFileSync(join(dir, 'reference_dashboards.md'), 'utf8');
  const same = editMemory(
    dir,
    'dashboards',
    { description: 'Where latency dashboards live: Grafana board "api-latency"' },
    { clock },
  );
  assert.equal(same.changed, false);
  assert.equal(readFileSync(join(dir, 'reference_dashboards.md'), 'utf8'), before);
  const r = editMemory(dir, 'dashboards', { pinned: true, privacy: 'private' }, { clock });
  assert.equal(r.changed, true);
  assert.deepEqual(
    [r.memory.pinned, r.memory.privacy, r.memory.modified],
    [true, 'private', '2026-05-02T00:00:00.000Z'],
  );
  assert.match(readFileSync(join(dir, 'reference_dashboards.md'), 'utf8'), /owner: platform-team/);
  const moved = editMemory(dir, 'no-mocks', { type: 'project' }, { clock });
  assert.equal(moved.memory.file, 'project_no-mocks.md');
  assert.ok(!existsSync(join(dir, 'feedback_no-mocks.md')));
  assert.equal(
    parseTopicFile(readFileSync(join(dir, 'project_no-mocks.md'), 'utf8'), 'project_no-mocks.md').data['metadata'] !==
      undefined,
    true,
  );
  assert.ok(readFileSync(join(dir, 'MEMORY.md'), 'utf8').includes('(project_no-mocks.md)'));
  assert.throws(() => editMemory(dir, 'project_notes', { description: 'x' }), { code: 'MEMORY_NO_FRONTMATTER' });
  const body = editMemory(dir, 'project_notes', { body: 'Dana owns payments until 2026-05-31.' }, { clock });
  assert.ok(!body.memory.hasFrontmatter);
  assert.throws(() => editMemory(dir, 'ci-pipeline', { privacy: 'private' }), { code: 'MEMORY_PRIVACY_INVALID' });
});

test('forget deletes the file and its index line', (t) => {
  const dir = join(tmp(t), 'memory');
  cpSync(FIX, dir, { recursive: true });
  const r = forgetMemory(dir, 'release-freeze');
  assert.equal(r.memory.file, 'project_release-freeze.md');
  assert.ok(!existsSync(join(dir, 'project_release-freeze.md')));
  assert.ok(!readFileSync(join(dir, 'MEMORY.md'), 'utf8').includes('release-freeze'));
  assert.throws(() => forgetMemory(dir, 'release-freeze'), { code: 'MEMORY_NOT_FOUND' });
});

function child(script: string, args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    p.stdout.on('data', (c: Buffer) => (out += c.toString()));
    p.stderr.on('data', (c: Buffer) => (err += c.toString()));
    p.on('close', (code) => resolve({ code, out, err }));
  });
}

test('two writers at once lose no memory; the last index lists them all', async (t) => {
  const base = tmp(t);
  const dir = join(base, 'memory');
  const script = join(base, 'writer.mts');
  const lib = new URL('./index.ts', import.meta.url).href;
  writeFileSync(
    script,
    `import { addMemory } from ${JSON.stringify(lib)};
const [dir, who, n] = process.argv.slice(2);
const results = [];
for (let i = 0; i < Number(n); i++) {
  if (i === 5) {
    try { addMemory(dir, { type: 'project', name: 'shared race', description: who }); results.push('won'); }
    catch (e) { results.push(e.code); }
  }
  const type = i % 2 ? 'feedback' : 'reference';
  addMemory(dir, { type, name: who + ' memory ' + i, description: 'written by ' + who });
}
process.stdout.write(JSON.stringify(results));
`,
  );
  const [a, b] = await Promise.all([child(script, [dir, 'alpha', '40']), child(script, [dir, 'beta', '40'])]);
  assert.equal(a.code, 0, a.err);
  assert.equal(b.code, 0, b.err);
  const race = [...JSON.parse(a.out), ...JSON.parse(b.out)].sort();
  assert.deepEqual(race, ['MEMORY_EXISTS', 'won'], 'exactly one writer creates a name');
  const files = readdirSync(dir).filter((f) => f.endsWith('.md') && f !== 'MEMORY.md');
  assert.equal(files.length, 81);
  assert.ok(!readdirSync(dir).some((f) => f.endsWith('.tmp')), 'no temp files left');
  const listed = listMemories(dir);
  assert.equal(listed.length, 81);
  for (const m of listed) assert.ok(m.description.startsWith('written by') || m.name === 'shared-race');
  const index = loadMemoryIndex(dir);
  assert.equal(index.truncated, false);
  for (const f of files) assert.ok(index.text.includes(`(${f})`), `${f} in MEMORY.md`);
});
