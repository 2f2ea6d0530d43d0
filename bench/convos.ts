/**
 * Conversation mining speed (lexical only, `LOCI_EMBEDDER=none`).
 * Usage: node --import tsx bench/convos.ts [--mb 50] [--sessions 25] [--runs 10] [--workers N] [--keep]
 * (needs `npm run build`: the product is imported from dist/ so that tsx is not measured).
 *
 * (a) throughput: mining a set of generated Claude Code transcripts (`--mb` MB in `--sessions`
 *     files under a fake `projects/` folder) in this process, inline and with worker threads
 *     (`--workers`, default one per core but one, at most 3), without knowledge-graph extraction
 *     (`LOCI_KG_EXTRACT=0`), then inline with it (the palace's default) — MB/s of wall time and of
 *     CPU time (all threads), plus the floor of reading and hashing the same bytes;
 * (b) append latency: a 50,000-line session is mined once, then `--runs` times 10 lines are
 *     appended and `node bin/loci.js mine <file> --mode convos` is run as a whole process (with
 *     graph extraction, and alternately without) — median and p95 wall time, and the child's CPU
 *     time (user + system); for scale, the same append mined in-process (the miner's own work)
 *     and a `loci --version` process (the floor of any `loci` command: Node start-up and the
 *     CLI's module graph).
 * Prints one JSON document. The machine may be shared: compare CPU seconds, not only wall time.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openPalace } from '../dist/index.js';
import { generateClaudeSession, sessionIdFor } from '../test/fixtures/convos/generate-claude-session.js';

process.env['LOCI_EMBEDDER'] = 'none';
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'bin', 'loci.js');
const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : def;
};
const mb = Number(arg('mb', '50'));
const sessions = Number(arg('sessions', '25'));
const runs = Number(arg('runs', '10'));
const workers = process.argv.includes('--workers') ? Number(arg('workers', '0')) : undefined;
const work = mkdtempSync(join(tmpdir(), 'loci-bench-convos-'));
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!;
};
const r2 = (x: number) => Math.round(x * 100) / 100;

// ── (a) throughput ─────────────────────────────────────────────────────────
const projects = join(work, 'claude', 'projects', '-home-dev-generated-app');
mkdirSync(projects, { recursive: true });
const linesPerSession = Math.round((mb * 1e6) / sessions / 1000);
let t = performance.now();
let bytes = 0;
const files: string[] = [];
for (let i = 0; i < sessions; i++) {
  const text = generateClaudeSession(linesPerSession, 1000 + i, { rewinds: i % 5 === 0 });
  const file = join(projects, `${sessionIdFor(1000 + i)}.jsonl`);
  writeFileSync(file, text);
  files.push(file);
  bytes += Buffer.byteLength(text);
}
const genSeconds = (performance.now() - t) / 1000;

t = performance.now();
for (const f of files) createHash('sha256').update(readFileSync(f)).digest();
const floorSeconds = (performance.now() - t) / 1000;

/**
 * One timed mine of the transcript set into a fresh palace, then an unchanged re-mine. `kg`:
 * also extract knowledge-graph facts from the new drawers (the palace's default since the graph
 * was wired into ingest; `LOCI_KG_EXTRACT=0` turns it off).
 */
async function throughput(name: string, workers: number, kg: boolean) {
  process.env['LOCI_KG_EXTRACT'] = kg ? '1' : '0';
  const palace = await openPalace({ home: join(work, `home-a-${name}`), embedder: null });
  let t0 = performance.now();
  let c0 = process.cpuUsage();
  const s = await palace.mine(join(work, 'claude'), { mode: 'convos', workers });
  let c = process.cpuUsage(c0);
  const seconds = (performance.now() - t0) / 1000;
  const cpuSeconds = (c.user + c.system) / 1e6;
  t0 = performance.now();
  c0 = process.cpuUsage();
  const again = await palace.mine(join(work, 'claude'), { mode: 'convos' });
  c = process.cpuUsage(c0);
  const remine = {
    seconds: r2((performance.now() - t0) / 1000),
    cpu_seconds: r2((c.user + c.system) / 1e6),
    drawers_added: again.drawersAdded,
    files_unchanged: again.filesUnchanged,
  };
  await palace.close();
  return {
    workers,
    kg_extraction: kg,
    seconds: r2(seconds),
    mb_per_s: r2(bytes / 1e6 / seconds),
    cpu_seconds: r2(cpuSeconds),
    mb_per_cpu_s: r2(bytes / 1e6 / cpuSeconds),
    drawers: s.drawersAdded,
    conversations: s.conversations,
    remine_unchanged: remine,
  };
}
const inline = await throughput('inline', 0, false);
const threaded = await throughput('workers', workers ?? Math.max(1, Math.min(3, availableParallelism() - 1)), false);
const withGraph = await throughput('inline-kg', 0, true);
delete process.env['LOCI_KG_EXTRACT'];

// ── (b) append and re-mine as a whole process ───────────────────────────────
const big = join(work, 'big', 'session.jsonl');
mkdirSync(dirname(big), { recursive: true });
const all = generateClaudeSession(50_000 + runs * 30, 4242).split('\n');
let next = 50_000;
const appendLines = () => {
  appendFileSync(big, `${all.slice(next, next + 10).join('\n')}\n`);
  next += 10;
};
writeFileSync(big, `${all.slice(0, next).join('\n')}\n`);
const home = join(work, 'home-b');
const CPU_HOOK =
  'data:text/javascript,process.on("exit",()=>{const ' +
  'u=process.cpuUsage();process.stderr.write("\\nCPU_US "+(u.user+u.system)+"\\n")})';
const mine = (kg: boolean) => {
  const t1 = performance.now();
  const r = spawnSync(process.execPath, ['--import', CPU_HOOK, BIN, 'mine', big, '--mode', 'convos', '--json'], {
    env: { ...process.env, LOCI_HOME: home, LOCI_EMBEDDER: 'none', LOCI_KG_EXTRACT: kg ? '1' : '0' },
    encoding: 'utf8',
  });
  const ms = performance.now() - t1;
  if (r.status !== 0) throw new Error(`loci mine failed: ${r.stderr}`);
  const cpuUs = Number(/CPU_US (\d+)/.exec(r.stderr)?.[1] ?? NaN);
  return { ms, cpuMs: cpuUs / 1000, summary: JSON.parse(r.stdout) as { drawers_added: number } };
};
const first = mine(true);
const runsOf = {
  kg: { wall: [] as number[], cpu: [] as number[] },
  plain: { wall: [] as number[], cpu: [] as number[] },
};
let appended = 0;
for (let i = 0; i < runs; i++) {
  for (const kg of [true, false]) {
    appendLines();
    const r = mine(kg);
    const into = kg ? runsOf.kg : runsOf.plain;
    into.wall.push(r.ms);
    into.cpu.push(r.cpuMs);
    appended += r.summary.drawers_added;
  }
}
const unchanged = mine(true);

// The same append in-process (the miner's own work, without process start-up), and the floor of
// any `loci` process on this machine (`loci --version`: Node start-up and the CLI's module graph).
process.env['LOCI_KG_EXTRACT'] = '0';
const inProcess: number[] = [];
for (let i = 0; i < runs; i++) {
  appendLines();
  const t1 = performance.now();
  const p = await openPalace({ home, embedder: null });
  await p.mine(big, { mode: 'convos' });
  await p.close();
  inProcess.push(performance.now() - t1);
}
delete process.env['LOCI_KG_EXTRACT'];
const floor: number[] = [];
for (let i = 0; i < runs; i++) {
  const t1 = performance.now();
  spawnSync(process.execPath, [BIN, '--version']);
  floor.push(performance.now() - t1);
}
const bigMb = readFileSync(big).length / 1e6;
if (!process.argv.includes('--keep')) rmSync(work, { recursive: true, force: true });

console.log(
  JSON.stringify(
    {
      bench: 'convos',
      throughput: {
        sessions,
        lines_per_session: linesPerSession,
        megabytes: r2(bytes / 1e6),
        generate_seconds: r2(genSeconds),
        inline,
        worker_threads: threaded,
        inline_with_kg_extraction: withGraph,
        baseline_read_and_hash: { seconds: r2(floorSeconds), mb_per_s: r2(bytes / 1e6 / floorSeconds) },
        machine: { cores: availableParallelism(), load_average_1m: r2(loadavg()[0] ?? 0) },
      },
      append_latency: {
        session_lines: 50_000,
        session_mb: r2(bigMb),
        first_mine_ms: Math.round(first.ms),
        runs,
        median_ms: Math.round(quantile(runsOf.kg.wall, 0.5)),
        p95_ms: Math.round(quantile(runsOf.kg.wall, 0.95)),
        cpu_median_ms: Math.round(quantile(runsOf.kg.cpu, 0.5)),
        cpu_p95_ms: Math.round(quantile(runsOf.kg.cpu, 0.95)),
        without_kg_extraction: {
          median_ms: Math.round(quantile(runsOf.plain.wall, 0.5)),
          p95_ms: Math.round(quantile(runsOf.plain.wall, 0.95)),
          cpu_median_ms: Math.round(quantile(runsOf.plain.cpu, 0.5)),
        },
        drawers_added: appended,
        unchanged_ms: Math.round(unchanged.ms),
        unchanged_cpu_ms: Math.round(unchanged.cpuMs),
        in_process_median_ms: r2(quantile(inProcess, 0.5)),
        in_process_p95_ms: r2(quantile(inProcess, 0.95)),
        loci_version_process_median_ms: Math.round(quantile(floor, 0.5)),
      },
    },
    null,
    2,
  ),
);
