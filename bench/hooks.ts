/**
 * @module bench/hooks
 * Whole-process latency of the Claude Code hooks, as Claude Code pays it: one new `node` process
 * per event, the hook JSON on stdin, until the process exits. Palace of N drawers (default 50,000,
 * ~600 characters each, 10 % in the project's wing, a fifth of those in decision-like halls) plus
 * a few memory files; runs each case R times (default 25) after 3 warm-up rounds, round-robin (each
 * round runs every case once, so changes of machine load hit all cases alike); p50/p95 in ms.
 *
 * Cases: baselines (`node -e 0`, `node bin/loci.js --version`); `stop` with nothing to archive and
 * with an archive queued (every prompt, a detached worker spawned; no case is measured while a
 * worker still runs — the wait is untimed); `user-prompt-submit` with recall over the palace and `session-start` with
 * the
 * wake-up computed (cache invalidated before each run, untimed), each in the hook process (no warm
 * server: the first hook of a home) and through the warm hook server; `session-start` from the
 * wake-up cache. Hooks run through the installed entry (`dist/hooks/main.js`) and, for
 * comparison, through `bin/loci.js hook`.
 * The load average is printed with the numbers: the machine may be shared. With GNU time installed
 * each process also reports its CPU time (user + system; `cpu_p50_ms`), which load changes much
 * less than wall time (the warm server's own CPU is not in it).
 * Usage: node --import tsx bench/hooks.ts [--drawers 50000] [--runs 25]
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, readFileSync, utimesSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { buildHookPalace, TOPICS } from '../test/fixtures/hooks/palace.js';
import { HOOK_MAIN, hookInput, hookWorld, SESSION } from '../test/fixtures/hooks/support.js';
import { BIN } from '../test/helpers/cli.js';

const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : def;
};
const N = Number(arg('drawers', '50000'));
const RUNS = Math.max(20, Number(arg('runs', '25')));
if (!existsSync(HOOK_MAIN)) throw new Error('dist/ is missing: run `npm run build` first');

// The world of the hook tests (Loci home, Claude Code config, project `acme-api`, the fixture
// transcript), with the warm server and the worker on, as a user has them.
const world = hookWorld({ LOCI_HOOK_SERVER: '', LOCI_HOOK_WORKER: '' });
const { root, home, project, transcript, env } = world;
const load0 = loadavg();

// ── the palace ──────────────────────────────────────────────────────────────
const t = performance.now();
const { drawers, memDir } = await buildHookPalace(world, N);
const buildSeconds = (performance.now() - t) / 1000;

// ── measurement ─────────────────────────────────────────────────────────────
function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return +s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!.toFixed(1);
}
/** CPU time of each hook process (user + system) through GNU time, when it is installed. */
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
const cpuFile = join(root, 'cpu.txt');
function run(
  args: string[],
  input: string,
  extra: NodeJS.ProcessEnv = {},
): { ms: number; cpu: number | null; stdout: string } {
  const [cmd, argv] = TIME
    ? [TIME, ['-f', '%U %S', '-o', cpuFile, process.execPath, ...args]]
    : [process.execPath, args];
  const t0 = performance.now();
  const res = spawnSync(cmd, argv, { cwd: project, input, encoding: 'utf8', env: { ...env, ...extra } });
  const ms = performance.now() - t0;
  if (res.status !== 0 || res.stderr) throw new Error(`${args.join(' ')} failed: ${res.status} ${res.stderr}`);
  const cpu = TIME
    ? readFileSync(cpuFile, 'utf8')
        .trim()
        .split(/\s+/)
        .reduce((a, x) => a + Number(x) * 1000, 0)
    : null;
  return { ms, cpu, stdout: res.stdout };
}
const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));
const queueEmpty = () =>
  !existsSync(join(home, 'queue')) || readdirSync(join(home, 'queue')).every((n) => !n.endsWith('.json'));
const waitWorker = async () => {
  for (let k = 0; k < 600 && (existsSync(join(home, 'locks', 'hook-worker.lock')) || !queueEmpty()); k++)
    await sleep(100);
};
const w = { transcript, project };
const PROMPTS = TOPICS.map((tp) => `How did we handle the ${tp} decision, and why?`);
let appended = 0;
const appendPrompt = () => {
  appended++;
  appendFileSync(
    transcript,
    `${JSON.stringify({
      type: 'user',
      uuid: `b-${appended}`,
      sessionId: SESSION,
      cwd: '/home/dev/acme-api',
      timestamp: new Date().toISOString(),
      message: { role: 'user', content: `bench prompt ${appended}: and the retry budget?` },
    })}\n`,
  );
};
const NO_SERVER = { LOCI_HOOK_SERVER: '0' };
const upsInput = (tag: string) => (i: number) =>
  hookInput('user-prompt-submit.json', w, {
    prompt: PROMPTS[(i + 3) % PROMPTS.length],
    session_id: `bench-${tag}-${i}`,
  });
const memFile = join(memDir, 'project_redis-limiter.md');
const invalidate = (i: number) => {
  const at = new Date(Date.now() - 1000 * (100 + i));
  utimesSync(memFile, at, at);
};
const ssInput = () => hookInput('session-start.json', w);

/** One case: what runs, and its untimed set-up. */
interface Case {
  name: string;
  args: string[];
  input: (i: number) => string;
  env?: NodeJS.ProcessEnv;
  before?: (i: number) => void;
  expect?: RegExp;
}
const cases: Case[] = [
  { name: 'baseline: node -e 0', args: ['-e', '0'], input: () => '' },
  { name: 'baseline: node bin/loci.js --version', args: [BIN, '--version'], input: () => '' },
  { name: 'stop, nothing to archive', args: [HOOK_MAIN, 'stop'], input: () => hookInput('stop.json', w) },
  {
    name: 'stop, nothing to archive (via bin/loci.js hook)',
    args: [BIN, 'hook', 'stop'],
    input: () => hookInput('stop.json', w),
  },
  {
    name: 'stop, archive queued + detached worker spawned',
    args: [HOOK_MAIN, 'stop'],
    input: () => hookInput('stop.json', w),
    env: { LOCI_HOOK_SAVE_EVERY: '1' },
    before: appendPrompt,
  },
  {
    name: `user-prompt-submit, ${drawers} drawers, in the hook process (no server)`,
    args: [HOOK_MAIN, 'user-prompt-submit'],
    input: upsInput('cold'),
    env: NO_SERVER,
    expect: /"UserPromptSubmit"/,
  },
  {
    name: `user-prompt-submit, ${drawers} drawers, warm server`,
    args: [HOOK_MAIN, 'user-prompt-submit'],
    input: upsInput('warm'),
    expect: /"UserPromptSubmit"/,
  },
  {
    name: 'user-prompt-submit, warm server (via bin/loci.js hook)',
    args: [BIN, 'hook', 'user-prompt-submit'],
    input: upsInput('bin'),
    expect: /"UserPromptSubmit"/,
  },
  {
    name: 'session-start, wake-up computed in the hook process (no server, cache invalidated)',
    args: [HOOK_MAIN, 'session-start'],
    input: ssInput,
    env: NO_SERVER,
    before: invalidate,
    expect: /"SessionStart"/,
  },
  {
    name: 'session-start, wake-up computed by the warm server (cache invalidated)',
    args: [HOOK_MAIN, 'session-start'],
    input: ssInput,
    before: invalidate,
    expect: /"SessionStart"/,
  },
  {
    name: 'session-start, wake-up from the cache',
    args: [HOOK_MAIN, 'session-start'],
    input: ssInput,
    before: () => void run([HOOK_MAIN, 'session-start'], ssInput()),
    expect: /"SessionStart"/,
  },
];

run([HOOK_MAIN, 'stop'], hookInput('stop.json', w), { LOCI_HOOK_WORKER: '0' }); // counter caught up
run([HOOK_MAIN, 'user-prompt-submit'], upsInput('start')(0)); // starts the warm server
for (let k = 0; k < 300 && !existsSync(join(home, 'run', 'hooks.sock')); k++) await sleep(100);

// Round-robin: every round runs each case once, so a change of machine load hits all cases alike.
const samples = new Map<string, { ms: number[]; cpu: number[]; chars: number[] }>(
  cases.map((c) => [c.name, { ms: [], cpu: [], chars: [] }]),
);
for (let i = -3; i < RUNS; i++) {
  for (const c of cases) {
    await waitWorker(); // no background mining during a measurement
    c.before?.(i);
    const res = run(c.args, c.input(i), c.env);
    if (c.expect && !c.expect.test(res.stdout))
      throw new Error(`${c.name}: unexpected output ${res.stdout.slice(0, 300)}`);
    if (i >= 0) {
      samples.get(c.name)!.ms.push(res.ms);
      if (res.cpu !== null) samples.get(c.name)!.cpu.push(res.cpu);
      samples.get(c.name)!.chars.push(res.stdout.trimEnd().length);
    }
  }
}
const results: Record<string, unknown> = {};
for (const [name, s] of samples) {
  results[name] = {
    runs: s.ms.length,
    p50_ms: pct(s.ms, 50),
    p95_ms: pct(s.ms, 95),
    min_ms: pct(s.ms, 0),
    max_ms: pct(s.ms, 100),
    ...(s.cpu.length ? { cpu_p50_ms: pct(s.cpu, 50) } : {}),
    mean_out_chars: Math.round(s.chars.reduce((a, b) => a + b, 0) / s.chars.length),
  };
}
await waitWorker();
for (const line of readFileSync(join(home, 'logs', 'hooks.log'), 'utf8').split('\n')) {
  if (!line.includes('"hook server listening"')) continue;
  try {
    process.kill(Number((JSON.parse(line) as { pid: number }).pid), 'SIGTERM');
  } catch {
    // gone
  }
}
const load1 = loadavg();
world.cleanup();

console.log(
  JSON.stringify(
    {
      bench: 'hooks',
      command: `node --import tsx bench/hooks.ts --drawers ${N} --runs ${RUNS}`,
      node: process.version,
      cpus: cpus().length,
      loadavg_before: load0.map((x) => +x.toFixed(2)),
      loadavg_after: load1.map((x) => +x.toFixed(2)),
      drawers,
      build_seconds: +buildSeconds.toFixed(1),
      targets: { p50_ms: 120, p95_ms: 250 },
      results,
    },
    null,
    2,
  ),
);
