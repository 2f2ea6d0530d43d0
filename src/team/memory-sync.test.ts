/**
 * @module team/memory-sync.test — team memory sync between two members' folders through the server logic
 * (in-memory team store): privacy, convergence, conflicts kept side by side, tombstones, dry runs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixedClock } from '../core/clock.js';
import { createMemoryTeamStore, type TeamStore } from '../store/index.js';
import { applyMemorySync, type MemorySyncRequest } from './memory-sync.js';
import { syncMemoryDir } from './sync-client.js';

const clock = fixedClock(Date.parse('2026-01-15T12:00:00.000Z'));
const grants = [{ wing: 'proj', right: 'write' as const }];

function memory(type: string, name: string, body: string, extra = ''): string {
  return `---\nname: ${name}\ndescription: ${name} notes\nmetadata:\n  type: ${type}\n${extra}---\n${body}`;
}

function setup() {
  const root = mkdtempSync(join(tmpdir(), 'loci-sync-'));
  const store: TeamStore = createMemoryTeamStore();
  const sent: MemorySyncRequest[] = [];
  const member = (user: string) => {
    const dir = join(root, user, 'memory');
    const p = { user, tokenId: `tok_${user}`, grants };
    return {
      dir,
      write: (file: string, text: string) => {
        writeFileSync(join(dir, file), text);
      },
      read: (file: string) => readFileSync(join(dir, file), 'utf8'),
      sync: (dryRun = false) =>
        syncMemoryDir({
          dir,
          project: 'proj',
          statePath: join(root, user, 'state.json'),
          dryRun,
          send: (req) => {
            sent.push(structuredClone(req));
            return applyMemorySync(store, p, req, clock);
          },
        }),
    };
  };
  const a = member('alice');
  const b = member('bob');
  for (const m of [a, b]) mkdirSync(m.dir, { recursive: true });
  return { root, store, sent, a, b, done: () => rmSync(root, { recursive: true, force: true }) };
}

test('user and feedback memories never leave the machine; reference and team project ones do', async () => {
  const s = setup();
  s.a.write('user_role.md', memory('user', 'role', 'I am the tech lead\n'));
  s.a.write('feedback_tests.md', memory('feedback', 'tests', 'always run the tests\n', '  privacy: team\n'));
  s.a.write('project_private.md', memory('project', 'private', 'only mine\n'));
  s.a.write('project_shared.md', memory('project', 'shared', 'we ship on fridays\n', '  privacy: team\n'));
  s.a.write('reference_ci.md', memory('reference', 'ci', 'CI is at ci.example\n'));
  const r = await s.a.sync();
  assert.deepEqual(r.pushed.sort(), ['project_shared.md', 'reference_ci.md']);
  const everything = JSON.stringify(s.sent);
  for (const secret of ['tech lead', 'always run the tests', 'only mine']) assert.ok(!everything.includes(secret));
  assert.deepEqual(
    (await s.store.listMemories('proj')).map((m) => m.file),
    ['project_shared.md', 'reference_ci.md'],
  );
  const pulled = await s.b.sync();
  assert.deepEqual(pulled.written.sort(), ['project_shared.md', 'reference_ci.md']);
  assert.equal(s.b.read('reference_ci.md'), memory('reference', 'ci', 'CI is at ci.example\n'));
  assert.ok(existsSync(join(s.b.dir, 'MEMORY.md')), 'the index is rebuilt');
  s.done();
});

test('two members editing the same memory converge; a real conflict keeps both versions', async () => {
  const s = setup();
  s.a.write('reference_ci.md', memory('reference', 'ci', 'line 1\nline 2\nline 3\n'));
  await s.a.sync();
  await s.b.sync();
  s.a.write('reference_ci.md', memory('reference', 'ci', 'line 1 by alice\nline 2\nline 3\n'));
  s.b.write('reference_ci.md', memory('reference', 'ci', 'line 1\nline 2\nline 3 by bob\n'));
  await s.a.sync();
  const rb = await s.b.sync();
  assert.equal(rb.outcomes[0]?.status, 'merged');
  await s.a.sync();
  const want = memory('reference', 'ci', 'line 1 by alice\nline 2\nline 3 by bob\n');
  assert.equal(s.a.read('reference_ci.md'), want);
  assert.equal(s.b.read('reference_ci.md'), want);

  s.a.write('reference_ci.md', memory('reference', 'ci', 'line 1 by alice\nline 2 ALICE\nline 3 by bob\n'));
  s.b.write('reference_ci.md', memory('reference', 'ci', 'line 1 by alice\nline 2 BOB\nline 3 by bob\n'));
  await s.a.sync();
  const c = await s.b.sync();
  assert.deepEqual(c.conflicts, ['reference_ci.md']);
  const text = s.b.read('reference_ci.md');
  assert.match(text, /<<<<<<< bob\nline 2 BOB\n=======\nline 2 ALICE\n>>>>>>> alice \(team v\d+\)\n/);
  await s.a.sync();
  assert.equal(s.a.read('reference_ci.md'), text, 'both members hold the same text');
  s.done();
});

test('deletions propagate as tombstones; an edit wins over a concurrent deletion; dry runs write nothing', async () => {
  const s = setup();
  s.a.write('reference_a.md', memory('reference', 'a', 'a\n'));
  s.a.write('reference_b.md', memory('reference', 'b', 'b\n'));
  await s.a.sync();
  await s.b.sync();
  unlinkSync(join(s.a.dir, 'reference_a.md'));
  const dry = await s.a.sync(true);
  assert.deepEqual(dry.pushed, ['reference_a.md']);
  assert.equal((await s.store.latestMemory('proj', 'reference_a.md'))?.text, memory('reference', 'a', 'a\n'));
  await s.a.sync();
  assert.equal((await s.store.latestMemory('proj', 'reference_a.md'))?.text, null);
  await s.b.sync();
  assert.ok(!existsSync(join(s.b.dir, 'reference_a.md')), 'the tombstone reached bob');

  unlinkSync(join(s.a.dir, 'reference_b.md'));
  s.b.write('reference_b.md', memory('reference', 'b', 'b, edited by bob\n'));
  await s.b.sync();
  const r = await s.a.sync();
  assert.equal(r.outcomes.find((o) => o.file === 'reference_b.md')?.status, 'kept');
  assert.equal(s.a.read('reference_b.md'), memory('reference', 'b', 'b, edited by bob\n'));
  s.done();
});

test('a pushed user memory is refused by the server whatever the client sends', async () => {
  const store = createMemoryTeamStore();
  const p = { user: 'mallory', tokenId: 't', grants };
  const r = await applyMemorySync(
    store,
    p,
    { project: 'proj', known: {}, changes: [{ file: 'user_x.md', base: 0, text: memory('user', 'x', 'me\n') }] },
    clock,
  );
  assert.equal(r.outcomes[0]?.status, 'refused');
  assert.deepEqual(await store.listMemories('proj'), []);
});

test('secrets in a shared memory never reach the server; the local file is rewritten redacted', async () => {
  const s = setup();
  const secret = 'ghp_' + 'Zq8Lm2Vx9Rt4Kp7Wn3Hs6Jd1Fc5Gb0Ny2Ea8U';
  s.a.write('reference_ci.md', memory('reference', 'ci', `CI token ${secret}\n`));
  await s.a.sync();
  assert.ok(!JSON.stringify(s.sent).includes(secret));
  assert.match((await s.store.latestMemory('proj', 'reference_ci.md'))?.text ?? '', /\[REDACTED:github\]/);
  assert.ok(!s.a.read('reference_ci.md').includes(secret));
  assert.equal((await s.a.sync()).pushed.length, 0, 'nothing to push on the next sync');
  s.done();
});
