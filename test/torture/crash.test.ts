/**
 * @module test/torture/crash
 * Issue 11, crash: `TORTURE.rounds` rounds (CI 10, `npm run torture` 100) of SIGKILL at random
 * moments. Each round grows three Claude Code transcripts (cut mid-line), then starts two real
 * `loci` processes at once — one of `mine <tree>`, `mine <transcripts> --mode convos` and
 * `hook-worker` (after queueing a session-end job), and one of `memory add` and `kg add` — and kills
 * each after its own random delay. After every round the palace passes `integrity_check`, the FTS5
 * check, and has no orphan (index entry without drawer or the reverse, vector without drawer) and
 * no duplicated chunk. At the end the same operations are completed once (the recovery) and the
 * palace, graph facts and memory files equal a clean run of that recovery on the final files: 0
 * lost, 0 duplicated. The clean run uses the same code, so this holds whatever the miner stores.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addMemory, loadMemories, openPalace } from '../../src/internal.js';
import { runHook } from '../../src/hooks/index.js';
import { tidyMemoryDir } from '../../src/memdir/index.js';
import { generateClaudeSession } from '../fixtures/convos/generate-claude-session.js';
import { loci, tempDir } from '../helpers/cli.js';
import { lociIn } from '../helpers/cli-in-process.js';
import { generateTree, prose, rng } from '../helpers/corpus.js';
import { NEEDS_BUILD } from '../fixtures/hooks/support.js';
import {
  checkPalace,
  drawerRows,
  factRows,
  listFiles,
  migrated,
  recordFigures,
  runAndKill,
  TORTURE,
} from './support.js';

const SESSION = '0d7c3b1e-5a44-4c1a-9e2f-7b6a5c4d3e21';
const t = tempDir('loci-torture-crash-');
const root = t.dir;
const tree = join(root, 'tree');
const convos = join(root, 'claude', 'projects');
const hookProject = join(root, 'hooked');
const hookTranscript = join(root, 'claude-hook', 'projects', '-home-dev-hooked', `${SESSION}.jsonl`);
const transcripts = [
  join(convos, '-home-dev-torture-app', 'main.jsonl'),
  join(convos, '-home-dev-torture-app', 'branchy.jsonl'),
  hookTranscript,
];
const env = (home: string): NodeJS.ProcessEnv => ({
  LOCI_HOME: home,
  HOME: join(root, 'userhome'),
  CLAUDE_CONFIG_DIR: join(root, 'claude-hook'),
  LOCI_HOOK_WORKER: '0',
  LOCI_HOOK_SERVER: '0',
  LOCI_LLM_PROVIDER: '',
  LOCI_EMBEDDER: '',
  TMPDIR: join(root, 'tmp'),
});

type Op = { kind: string; args: string[]; prepare?: (home: string) => Promise<void> };

/**
 * Learned duration of each kind of run, ms: the kill delay is drawn in [0.3, 1.0] × this, so most
 * kills land while the process works (not only while it loads), whatever the machine's speed. A
 * run that finishes sets it to its real duration (each kind runs only a few times per test, so
 * learning must be quick on a fast machine); a killed one raises it by 30 %.
 */
const expected: Record<string, number> = {
  'mine-tree': 1500,
  'mine-convos': 1500,
  'hook-worker': 1500,
  'memory-add': 500,
  'kg-add': 600,
};

/** The memory and fact written by round `i` (the same input in the kill rounds, the recovery and the clean run). */
const memoryInput = (i: number) => ({
  type: 'project',
  name: `torture note ${i}`,
  description: `what round ${i} decided`,
  body: prose(rng(i + 1), 30),
});
const factInput = (i: number) => ({
  subject: `Torture${i}`,
  predicate: 'uses',
  object: `Tool${i % 5}`,
  validFrom: `2025-01-${String((i % 28) + 1).padStart(2, '0')}`,
});

/**
 * Queues an archive job as Claude Code's hook would: `pre-compact` while the session goes on (the
 * transcript keeps growing), `session-end` at the end (it flushes the last exchange).
 */
async function queueArchive(home: string, event: 'pre-compact' | 'session-end' = 'pre-compact'): Promise<void> {
  const stdin = JSON.stringify({
    session_id: SESSION,
    transcript_path: hookTranscript,
    cwd: hookProject,
    hook_event_name: event === 'pre-compact' ? 'PreCompact' : 'SessionEnd',
    trigger: 'auto',
    reason: 'exit',
  });
  assert.equal(await runHook(event, stdin, { home, env: env(home), cwd: hookProject, spawnWorker: false }), '');
}

function queueLeft(home: string): { queued: number; failed: number } {
  const q = join(home, 'queue');
  const count = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.json')).length : 0);
  return { queued: count(q), failed: count(join(q, 'failed')) };
}

/** Completes every operation once: what both the crashed palace (recovery) and the clean one get. */
async function completeAll(home: string, mem: string, rounds: number): Promise<void> {
  for (const args of [
    ['mine', tree, '--json'],
    ['mine', convos, '--mode', 'convos', '--json'],
  ]) {
    const r = await lociIn(args, { env: env(home) });
    assert.equal(r.code, 0, r.stderr);
  }
  await queueArchive(home, 'session-end');
  const w = loci(['hook-worker', '--json'], { env: env(home) });
  assert.equal(w.code, 0, w.stderr);
  for (let i = 0; i < rounds; i++) {
    try {
      addMemory(mem, memoryInput(i));
    } catch (e) {
      if ((e as { code?: string }).code !== 'MEMORY_EXISTS') throw e;
    }
  }
  const p = await openPalace({ home, embedder: null });
  try {
    const g = (await p.graph()).graph;
    for (let i = 0; i < rounds; i++) await g.addFact(factInput(i));
  } finally {
    await p.close();
  }
}

const memoryRows = (mem: string) =>
  loadMemories(mem, { limit: Infinity })
    .map((m) => JSON.stringify([m.file, m.name, m.type, m.description, m.body]))
    .sort();

interface Outcome {
  home: string;
  mem: string;
  clean: string;
  cleanMem: string;
  kills: number;
  started: number;
  perRound: string[];
}
let out: Outcome | undefined;

before(async () => {
  if (NEEDS_BUILD) return;
  generateTree(tree, 120, TORTURE.seed % 1000, 2000);
  mkdirSync(hookProject, { recursive: true });
  mkdirSync(join(root, 'tmp'), { recursive: true });
  const texts = [
    generateClaudeSession(900, 31),
    generateClaudeSession(900, 32, { rewinds: true }),
    generateClaudeSession(700, 33),
  ];
  transcripts.forEach((f) => {
    mkdirSync(join(f, '..'), { recursive: true });
    writeFileSync(f, '');
  });
  const home = join(root, 'home');
  const mem = join(root, 'mem');
  const r = rng(TORTURE.seed);
  const rounds = TORTURE.rounds;
  const written = texts.map(() => 0);
  let kills = 0;
  let started = 0;
  const perRound: string[] = [];
  const heavy: Op[] = [
    { kind: 'mine-tree', args: ['mine', tree, '--json'] },
    { kind: 'mine-convos', args: ['mine', convos, '--mode', 'convos', '--json'] },
    { kind: 'hook-worker', args: ['hook-worker', '--json'], prepare: (h) => queueArchive(h) },
  ];
  for (let round = 0; round < rounds; round++) {
    // Grow every transcript to this round's cut (most cuts fall in the middle of a line).
    texts.forEach((text, k) => {
      const cut = round === rounds - 1 ? text.length : Math.floor((text.length * (round + 0.2 + r() * 0.8)) / rounds);
      if (cut > written[k]!) {
        appendFileSync(transcripts[k]!, text.slice(written[k]!, cut));
        written[k] = cut;
      }
    });
    const m = memoryInput(round);
    const f = factInput(round);
    const light: Op[] = [
      {
        kind: 'memory-add',
        args: ['memory', 'add', '--dir', mem, '-t', m.type, '-n', m.name, '-d', m.description, '-b', m.body],
      },
      { kind: 'kg-add', args: ['kg', 'add', f.subject, f.predicate, f.object, '--from', f.validFrom, '--json'] },
    ];
    const ops = [heavy[round % heavy.length]!, light[Math.floor(r() * light.length)]!];
    const runs = await Promise.all(
      ops.map(async (op) => {
        await op.prepare?.(home);
        const delay = Math.floor(expected[op.kind]! * (0.3 + 0.7 * r()));
        const run = await runAndKill(op.args, env(home), delay);
        expected[op.kind] = run.killed ? expected[op.kind]! * 1.3 : run.ms;
        return run;
      }),
    );
    started += runs.length;
    runs.forEach((run, k) => {
      if (run.killed) kills++;
      // A run that finished must have succeeded (memory add may meet the file a killed run left).
      else if (run.code !== 0) assert.match(run.stderr, /MEMORY_EXISTS/, `${ops[k]!.kind} failed: ${run.stderr}`);
    });
    perRound.push(ops.map((op, k) => `${op.kind}:${runs[k]!.killed ? 'killed' : 'done'}`).join('+'));
    if (migrated(home)) {
      const c = checkPalace(home);
      assert.deepEqual(
        { ...c, drawers: 0 },
        { integrity: 'ok', drawers: 0, orphans: 0, duplicated: 0, orphanVectors: 0 },
        `after round ${round} (${perRound.at(-1)})`,
      );
    }
    if (existsSync(mem)) loadMemories(mem, { limit: Infinity }); // every memory file a killed writer left is readable
  }
  await completeAll(home, mem, rounds);
  const clean = join(root, 'clean-home');
  const cleanMem = join(root, 'clean-mem');
  await completeAll(clean, cleanMem, rounds);
  out = { home, mem, clean, cleanMem, kills, started, perRound };
});

after(() => t.cleanup());

test('crash rounds kill real writers mid-way, and every palace in between is sound', { skip: NEEDS_BUILD }, () => {
  const o = out!;
  assert.ok(
    o.kills >= Math.ceil(o.started / 3),
    `at least a third of the runs were killed mid-way (${o.kills}/${o.started}: ${o.perRound.join(', ')})`,
  );
  for (const kind of ['mine-tree', 'mine-convos', 'hook-worker']) {
    if (TORTURE.rounds >= 9)
      assert.ok(
        o.perRound.some((p) => p.includes(`${kind}:killed`)),
        `${kind} was killed at least once`,
      );
  }
});

/** `mine-tree 8/10, …`: kills over runs of each kind. */
function killedByKind(perRound: string[]): string {
  const runs = new Map<string, [number, number]>();
  for (const p of perRound.flatMap((r) => r.split('+'))) {
    const [kind, how] = p.split(':') as [string, string];
    const c = runs.get(kind) ?? [0, 0];
    runs.set(kind, [c[0] + (how === 'killed' ? 1 : 0), c[1] + 1]);
  }
  return [...runs].map(([k, [a, b]]) => `${k} ${a}/${b}`).join(' ');
}

test('after recovery the palace equals a clean run: 0 lost, 0 duplicated, 0 orphans', { skip: NEEDS_BUILD }, () => {
  const o = out!;
  const c = checkPalace(o.home);
  const got = drawerRows(o.home);
  const want = drawerRows(o.clean);
  const have = new Set(got);
  const expected = new Set(want);
  const lost = want.filter((r) => !have.has(r)).length;
  const extra = got.filter((r) => !expected.has(r)).length;
  recordFigures('crash', {
    killedByKind: killedByKind(o.perRound),
    rounds: TORTURE.rounds,
    processes: o.started,
    kills: o.kills,
    drawers: want.length,
    lost,
    duplicated: extra + c.duplicated,
    orphans: c.orphans + c.orphanVectors,
    integrity: c.integrity,
  });
  assert.equal(c.integrity, 'ok');
  assert.deepEqual(
    { lost, extra, duplicated: c.duplicated, orphans: c.orphans, orphanVectors: c.orphanVectors },
    { lost: 0, extra: 0, duplicated: 0, orphans: 0, orphanVectors: 0 },
  );
  assert.deepEqual(got, want);
  assert.ok(want.length > 300, `${want.length} drawers`);
  assert.deepEqual(factRows(o.home, 'torture'), factRows(o.clean, 'torture'));
  assert.equal(factRows(o.home, 'torture').length, TORTURE.rounds);
  assert.deepEqual(queueLeft(o.home), { queued: 0, failed: 0 }, 'every archive job completed, none failed');
});

test('after recovery the memory files equal a clean run', { skip: NEEDS_BUILD }, () => {
  const o = out!;
  assert.deepEqual(memoryRows(o.mem), memoryRows(o.cleanMem));
  assert.equal(memoryRows(o.mem).length, TORTURE.rounds);
});

test(
  "the next open of the memory folder (after the writers' grace minute) removes killed writers' temp files and " +
    'repairs MEMORY.md',
  { skip: NEEDS_BUILD },
  () => {
    const mem = out!.mem;
    const report = tidyMemoryDir(mem, Date.now() + 61_000);
    assert.deepEqual(report.errors, []);
    assert.deepEqual(
      listFiles(mem).filter((f) => /\.tmp$/.test(f)),
      [],
    );
    const index = readFileSync(join(mem, 'MEMORY.md'), 'utf8');
    for (const f of listFiles(mem).filter((n) => n.endsWith('.md') && n !== 'MEMORY.md'))
      assert.ok(index.includes(`(${f})`), `${f} is in MEMORY.md`);
  },
);
