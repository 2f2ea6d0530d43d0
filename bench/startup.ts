/**
 * @module bench/startup
 * Start-up of every `loci` entry as ratios to its floor, measured in one run (issue 12, point 8):
 *
 * | case | floor | target |
 * | --- | --- | --- |
 * | `loci --version`, `loci --help` | `node -e 0` | no library module loaded (counted below) |
 * | `loci search "<q>"`, N drawers | `floor-search.mjs`: better-sqlite3 + one FTS5 query on the same file | ≤ 1.3× |
 * | each hook, in the hook process (no warm server) | `node -e 0` | ≤ 1.6× |
 * | `loci mcp`: spawn → first `tools/call` answered | `bare-mcp.mjs`: one tool on the same SDK | ≤ 1.2× |
 *
 * Every case runs R times (default 20, after 2 warm-up rounds) round-robin: each round runs every
 * case once, so a change of the machine's load hits all cases alike. Each process is timed by
 * `startup/runner.py` (wall time, and CPU time = user + system from getrusage of the child, which
 * load changes much less than wall time). Ratios are of p50s. Then each case runs once more under
 * a module probe (`test/helpers/modules.ts`) that counts the modules it loads: under `dist/`, and
 * from `node_modules/` (a file of the start-up bundles stands for the modules bundled into it), and
 * the files it actually loads.
 *
 * Hooks run through the installed entry (`dist/hooks/main.js <event>`) with `LOCI_HOOK_SERVER=0`
 * (no warm server: every hook does its own work) and `LOCI_HOOK_WORKER=0` (no detached miner runs
 * during the measurements; jobs only queue). `session-start` is measured with its wake-up cache
 * invalidated before each run (computed in the hook process) and from the cache.
 *
 * With `--before DIR` (another checkout with `dist/` built, e.g. `git archive <commit>` unpacked,
 * `node_modules` linked, `npx tsc -p tsconfig.build.json`), every Loci case also runs on that build
 * in the same rounds, so before and after meet the same load.
 *
 * Usage: node --import tsx bench/startup.ts [--drawers 10000] [--runs 20] [--before DIR] [--json]
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, utimesSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { HOOK_MAIN, hookInput, hookWorld } from '../test/fixtures/hooks/support.js';
import { ROOT } from '../test/helpers/cli.js';
import { modulesLoaded } from '../test/helpers/modules.js';
import { buildHookPalace, TOPICS } from '../test/fixtures/hooks/palace.js';

const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : def;
};
const N = Number(arg('drawers', '10000'));
const RUNS = Math.max(5, Number(arg('runs', '20')));
/** Another checkout of Loci with `dist/` built (e.g. the commit before a change), measured in the same rounds. */
const BEFORE = process.argv.includes('--before') ? arg('before', '') : '';
const WARM = 2;
if (!existsSync(HOOK_MAIN)) throw new Error('dist/ is missing: run `npm run build` first');
const python = spawnSync('python3', ['-c', 'import resource']).status === 0 ? 'python3' : null;
if (!python) throw new Error('bench/startup needs python3 (its process runner measures CPU time per child)');

const here = fileURLToPath(new URL('./startup/', import.meta.url));
const FLOOR_SEARCH = join(here, 'floor-search.mjs');
const BARE_MCP = join(here, 'bare-mcp.mjs');

// ── the world: a Loci home with N drawers and memory files, a project, a transcript ─────────
const world = hookWorld({ LOCI_HOOK_SERVER: '0', LOCI_HOOK_WORKER: '0' });
const { home, project, transcript, env } = world;
const load0 = loadavg();
let t = performance.now();
const { drawers, memDir } = await buildHookPalace(world, N);
const buildSeconds = (performance.now() - t) / 1000;
const db = join(home, 'palace.db');
const QUERY = `how did we handle the ${TOPICS[0]} decision`;

// ── the process runner ─────────────────────────────────────────────────────────────────────
interface Job {
  mode?: 'mcp';
  argv: string[];
  input?: string;
  messages?: object[];
}
interface Sample {
  wall_ms: number;
  cpu_ms: number;
  status: number;
  stdout: string;
  stderr: string;
  error?: string;
}
const runner: ChildProcessWithoutNullStreams = spawn(python, [join(here, 'runner.py')], { stdio: 'pipe' });
const answers = createInterface({ input: runner.stdout })[Symbol.asyncIterator]();
async function measure(job: Job): Promise<Sample> {
  runner.stdin.write(`${JSON.stringify({ cwd: project, env, ...job })}\n`);
  const next = await answers.next();
  if (next.done) throw new Error('the process runner exited');
  const s = JSON.parse(next.value) as Sample;
  if (s.error) throw new Error(`${job.argv.join(' ')}: ${s.error}`);
  return s;
}

const MCP_MESSAGES = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'loci_status', arguments: {} } },
];

// ── the cases ──────────────────────────────────────────────────────────────────────────────
interface Case {
  name: string;
  /** The case whose p50 this one is divided by, and the target ratio (undefined: a floor). */
  floor?: string;
  target?: number;
  job: () => Job;
  before?: () => void;
  expect?: RegExp;
  /** The checkout whose `dist/` modules are counted. Default: this one. */
  root?: string;
}
const node = process.execPath;
const w = { transcript, project };
let sessions = 0;
const memFile = join(memDir, 'project_redis-limiter.md');
let invalidations = 0;
const invalidate = () => {
  const at = new Date(Date.now() - 1000 * (100 + ++invalidations));
  utimesSync(memFile, at, at);
};
/** The cases of one build of Loci (`root`: a checkout with `dist/` built), names suffixed with `tag`. */
function lociCases(root: string, tag: string): Case[] {
  const bin = join(root, 'bin', 'loci.js');
  const hookMain = join(root, 'dist', 'hooks', 'main.js');
  const hook = (event: string, fixture: string, extra: Partial<Case> = {}, patch: object = {}): Case => ({
    name: `hook ${event}`,
    floor: 'node -e 0',
    target: 1.6,
    // A new session each time: recall does not repeat in a session what it already injected.
    job: () => ({
      argv: [node, hookMain, event],
      input: hookInput(fixture, w, { ...patch, session_id: `bench-${++sessions}` }),
    }),
    ...extra,
  });
  const list: Case[] = [
    { name: 'loci --version', floor: 'node -e 0', job: () => ({ argv: [node, bin, '--version'] }), expect: /\d+\.\d+/ },
    { name: 'loci --help', floor: 'node -e 0', job: () => ({ argv: [node, bin, '--help'] }), expect: /search/ },
    {
      name: 'loci search',
      floor: 'floor: better-sqlite3 + FTS5',
      target: 1.3,
      job: () => ({ argv: [node, bin, 'search', QUERY] }),
      expect: /1\. /,
    },
    hook('session-start', 'session-start.json', {
      name: 'hook session-start (wake-up computed)',
      before: invalidate,
      expect: /"SessionStart"/,
    }),
    hook('session-start', 'session-start.json', { name: 'hook session-start (cached)', expect: /"SessionStart"/ }),
    hook(
      'user-prompt-submit',
      'user-prompt-submit.json',
      { expect: /"UserPromptSubmit"/ },
      { prompt: `${QUERY}, and why?` },
    ),
    hook('stop', 'stop.json'),
    hook('pre-compact', 'pre-compact.json'),
    hook('post-compact', 'post-compact.json'),
    hook('session-end', 'session-end.json'),
    {
      name: 'loci mcp (first tools/call)',
      floor: 'floor: bare one-tool MCP server',
      target: 1.2,
      job: () => ({ mode: 'mcp', argv: [node, bin, 'mcp'], messages: MCP_MESSAGES }),
      expect: /"result"/,
    },
  ];
  return list.map((c) => ({ ...c, name: c.name + tag, root }));
}
const floors: Case[] = [
  { name: 'node -e 0', job: () => ({ argv: [node, '-e', '0'] }) },
  { name: 'floor: better-sqlite3 + FTS5', job: () => ({ argv: [node, FLOOR_SEARCH, db, QUERY] }), expect: /1\. / },
  {
    name: 'floor: bare one-tool MCP server',
    job: () => ({ mode: 'mcp', argv: [node, BARE_MCP], messages: MCP_MESSAGES }),
  },
];
// With --before DIR, each case of this build is followed by the same case on the build in DIR.
const now = lociCases(ROOT, '');
const then = BEFORE ? lociCases(BEFORE, ' (before)') : [];
const cases: Case[] = [...floors, ...now.flatMap((c, i) => (then[i] ? [c, then[i]] : [c]))];

// Round-robin: every round runs each case once.
const samples = new Map<string, { wall: number[]; cpu: number[] }>(cases.map((c) => [c.name, { wall: [], cpu: [] }]));
t = performance.now();
for (let i = -WARM; i < RUNS; i++) {
  for (const c of cases) {
    c.before?.();
    const s = await measure(c.job());
    if (s.status !== 0 || (c.expect && !c.expect.test(s.stdout)))
      throw new Error(`${c.name}: exit ${s.status}, stdout ${s.stdout.slice(0, 300)} stderr ${s.stderr.slice(0, 300)}`);
    if (i < 0) continue;
    samples.get(c.name)!.wall.push(s.wall_ms);
    samples.get(c.name)!.cpu.push(s.cpu_ms);
  }
}
const measureSeconds = (performance.now() - t) / 1000;
runner.stdin.end();

// ── module counts (one probed run per case, untimed) ────────────────────────────────────────
function modules(c: Case): { dist: number; deps: number; files: number } {
  c.before?.();
  const job = c.job();
  // An MCP server gets its requests at once and stdin closed: it exits after answering.
  const input = job.mode === 'mcp' ? MCP_MESSAGES.map((m) => JSON.stringify(m)).join('\n') + '\n' : (job.input ?? '');
  const r = modulesLoaded(job.argv.slice(1), { cwd: project, env, input });
  // Modules (a bundle file stands for the modules bundled into it) and files actually loaded.
  return { ...count(r.files, join(c.root ?? ROOT, 'dist')), files: r.raw.length };
}
const count = (files: string[], dist: string) => ({
  dist: files.filter((f) => f.startsWith(dist)).length,
  deps: files.filter((f) => f.includes('/node_modules/')).length,
});

// ── report ──────────────────────────────────────────────────────────────────────────────────
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const r1 = (x: number) => Math.round(x * 10) / 10;
const r2 = (x: number) => Math.round(x * 100) / 100;
const rows = cases.map((c) => {
  const s = samples.get(c.name)!;
  const f = c.floor ? samples.get(c.floor)! : undefined;
  const m = modules(c);
  return {
    case: c.name,
    wall_p50_ms: r1(p50(s.wall)),
    cpu_p50_ms: r1(p50(s.cpu)),
    ...(f
      ? {
          vs: c.floor,
          wall_ratio: r2(p50(s.wall) / p50(f.wall)),
          cpu_ratio: r2(p50(s.cpu) / p50(f.cpu)),
          ...(c.target ? { target: c.target } : {}),
        }
      : {}),
    modules_dist: m.dist,
    modules_deps: m.deps,
    files_loaded: m.files,
  };
});
const load1 = loadavg();
world.cleanup();

const report = {
  bench: 'startup',
  command: `node --import tsx bench/startup.ts --drawers ${N} --runs ${RUNS}${BEFORE ? ` --before ${BEFORE}` : ''}`,
  node: process.version,
  cpus: cpus().length,
  loadavg_before: load0.map(r2),
  loadavg_after: load1.map(r2),
  drawers,
  query: QUERY,
  build_seconds: r1(buildSeconds),
  measure_seconds: r1(measureSeconds),
  rows,
};
if (process.argv.includes('--json')) console.log(JSON.stringify(report, null, 2));
else {
  const head = ['case', 'wall p50', 'cpu p50', 'vs', 'wall ×', 'cpu ×', 'target', 'dist mods', 'dep mods', 'files'];
  const table = [
    head,
    ...rows.map((r) => [
      r.case,
      `${r.wall_p50_ms} ms`,
      `${r.cpu_p50_ms} ms`,
      r.vs ?? '',
      r.wall_ratio?.toString() ?? '',
      r.cpu_ratio?.toString() ?? '',
      r.target ? `≤ ${r.target}` : '',
      String(r.modules_dist),
      String(r.modules_deps),
      String(r.files_loaded),
    ]),
  ];
  const widths = head.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  const line = (row: string[]) => `| ${row.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(
    `startup: ${report.command}\nnode ${report.node}, ${report.cpus} cpus, load ${report.loadavg_before.join(' ')} → ` +
      `${report.loadavg_after.join(' ')}; ${drawers} drawers; query ${JSON.stringify(QUERY)}\n`,
  );
  console.log([line(head), line(head.map((_, i) => '-'.repeat(widths[i]!))), ...table.slice(1).map(line)].join('\n'));
}
