/**
 * @module bench/serve
 * The team server under load: a palace of N drawers (default 5,000), `loci serve` as a real child
 * process, and C clients (default 8) in this process, each looping for D seconds (default 30) over a
 * mix of operations through the JSON API with its own token: 50 % search, 25 % add, 15 % knowledge
 * graph (query, or state a fact), 10 % memory sync (append a line to the client's own memory, every
 * third time also to one memory all clients share, then `syncMemoryDir`). Reports throughput,
 * p50/p95 per operation and overall, errors, and lost writes: after the run every acknowledged
 * add must be readable, every acknowledged fact must be returned by a query, and every line a
 * client wrote into a memory that a sync acknowledged must be in the server's final text (each
 * client syncs twice more, then a fresh folder pulls everything). Baseline in the same run: the
 * same search queries in-process on the same palace before the server starts (the cost of HTTP,
 * auth and the guard is the difference).
 * Server memory: the `loci serve` process's VmRSS and VmHWM from /proc/<pid>/status when idle after
 * start, sampled every second under load (the highest VmRSS), and at the end (VmRSS, and VmHWM = peak).
 * `--database-url postgres://…` puts the palace (and the server) on PostgreSQL; `--home DIR` uses a
 * SQLite palace in DIR. A palace that already holds `--drawers` drawers (e.g. one kept by
 * `bench/search-latency.ts --keep DIR --keep-postgres`) is used as it is: its queries are then the
 * 4th–7th words of 50 of its stored drawers.
 * Needs `npm run build`. Prints one JSON document.
 * Usage: node --import tsx bench/serve.ts [--clients 8] [--seconds 30] [--drawers 5000] [--keep DIR]
 *   [--database-url postgres://…] [--home DIR]
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPalace } from '../dist/internal.js';
import { createTeamClient, syncMemoryDir, type TeamClient } from '../dist/team/index.js';
import { prose, rng } from '../test/helpers/corpus.js';

const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : def;
};
const CLIENTS = Number(arg('clients', '8'));
const SECONDS = Number(arg('seconds', '30'));
const N = Number(arg('drawers', '5000'));
const BIN = join(import.meta.dirname, '..', 'bin', 'loci.js');
const work = process.argv.includes('--keep') ? arg('keep', '') : mkdtempSync(join(tmpdir(), 'loci-bench-serve-'));
const home = process.argv.includes('--home') ? arg('home', '') : join(work, 'server');
const databaseUrl = arg('database-url', '');
const r = rng(15);
const loadAtStart = loadavg().map((x) => Math.round(x * 10) / 10);

// ── palace and baseline ──────────────────────────────────────────────────────
const palace = await openPalace({ home, env: { LOCI_KG_EXTRACT: '0', LOCI_DATABASE_URL: databaseUrl } });
const queries: string[] = [];
const stored = await palace.store.count();
if (stored >= N) {
  const { drawers } = await palace.store.list(undefined, { limit: 50, offset: Math.floor(stored / 2) });
  for (const d of drawers) queries.push(d.text.split(/\s+/).slice(3, 7).join(' '));
}
for (let i = stored; i < N; i += 1000) {
  const batch = [];
  for (let j = i; j < Math.min(N, i + 1000); j++) {
    const text = prose(r, 100);
    if (j % 50 === 0) queries.push(text.split(/\s+/).slice(3, 7).join(' '));
    batch.push({
      wing: 'proj',
      room: `r${j % 13}`,
      source: `/bench/f${Math.floor(j / 4)}.md`,
      chunkIndex: j % 4,
      text,
    });
  }
  await palace.store.put(batch);
}
while (queries.length < 50) queries.push(prose(r, 5));
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! * 100) / 100 : null;
};
const inProcess: number[] = [];
for (let i = 0; i < 200; i++) {
  const t = performance.now();
  await palace.search(queries[i % queries.length]!, { limit: 10 });
  inProcess.push(performance.now() - t);
}
await palace.close();

// ── server and tokens ────────────────────────────────────────────────────────
const env = {
  ...process.env,
  LOCI_HOME: home,
  LOCI_SERVER: '',
  LOCI_TOKEN: '',
  LOCI_KG_EXTRACT: '0',
  LOCI_DATABASE_URL: databaseUrl,
};
const tokens = Array.from({ length: CLIENTS }, (_, i) => {
  const out = spawnSync(
    process.execPath,
    [BIN, 'serve', 'token', 'create', '--user', `c${i}`, '--grant', 'proj:write', '--grant', '*:write', '--json'],
    { env, encoding: 'utf8' },
  );
  return (JSON.parse(out.stdout) as { token: string }).token;
});
const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
let serverStderr = ''; // what the server said (its errors are reported with the result)
const url = await new Promise<string>((resolve, reject) => {
  child.stderr.on('data', (d: Buffer) => {
    serverStderr += d.toString();
    const m = /team server at (http:\/\/\S+) /.exec(serverStderr);
    if (m) resolve(m[1]!);
  });
  child.once('exit', () => reject(new Error(serverStderr)));
});
process.once('exit', () => child.kill()); // never leave the server behind when the bench fails
/** VmRSS and VmHWM (peak) of the server process, in MB. */
const serverMemory = () => {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMb: Math.round(kb('VmRSS') / 102.4) / 10, hwmMb: Math.round(kb('VmHWM') / 102.4) / 10 };
};
await new Promise((res) => setTimeout(res, 2000));
const idleMemory = serverMemory();
let loadRssMb = idleMemory.rssMb;
const sampler = setInterval(() => (loadRssMb = Math.max(loadRssMb, serverMemory().rssMb)), 1000);

// ── the load ────────────────────────────────────────────────────────────────
const memory = (name: string) =>
  `---\nname: ${name}\ndescription: ${name} shared notes\nmetadata:\n  type: reference\n---\n# ${name}\n`;
type Kind = 'search' | 'add' | 'kg' | 'sync';
const lat: Record<Kind, number[]> = { search: [], add: [], kg: [], sync: [] };
const errors: string[] = [];
const ackedAdds: { id: string; client: number }[] = [];
const ackedFacts: { subject: string; object: string }[] = [];
const memoryLines: string[] = [];
let conflicts = 0;

async function runClient(i: number, until: number): Promise<void> {
  const c: TeamClient = createTeamClient({ url, token: tokens[i]! });
  const dir = join(work, `c${i}`, 'memory');
  mkdirSync(dir, { recursive: true });
  const own = join(dir, `reference_c${i}.md`);
  writeFileSync(own, memory(`c${i}`));
  const shared = join(dir, 'reference_shared.md');
  const state = join(work, `c${i}`, 'state.json');
  const local = rng(100 + i);
  let n = 0;
  let pending: string[] = [];
  while (performance.now() < until) {
    n++;
    const roll = local();
    const kind: Kind = roll < 0.5 ? 'search' : roll < 0.75 ? 'add' : roll < 0.9 ? 'kg' : 'sync';
    const t = performance.now();
    try {
      if (kind === 'search') await c.call('search', { query: queries[n % queries.length], options: { limit: 10 } });
      else if (kind === 'add') {
        const res = await c.call<{ id: string }>('add', {
          input: { wing: 'proj', room: 'load', text: `client ${i} note ${n}: ${prose(local, 30)}` },
        });
        ackedAdds.push({ id: res.id, client: i });
      } else if (kind === 'kg') {
        if (n % 2) await c.call('kg', { method: 'query', args: [`member${i}`] });
        else {
          const object = `project${n}`;
          await c.call('kg', { method: 'addFact', args: [{ subject: `member${i}`, predicate: 'works_on', object }] });
          ackedFacts.push({ subject: `member${i}`, object });
        }
      } else {
        const line = `c${i} line ${n}`;
        appendFileSync(own, `${line}\n`);
        const written = [line];
        if (n % 3 === 0) {
          const base = readdirSync(dir).includes('reference_shared.md')
            ? readFileSync(shared, 'utf8')
            : memory('shared');
          writeFileSync(shared, `${base}shared ${line}\n`);
          written.push(`shared ${line}`);
        }
        pending.push(...written);
        const rep = await syncMemoryDir({
          dir,
          project: 'proj',
          statePath: state,
          send: (q) => c.call('memory-sync', q),
        });
        conflicts += rep.conflicts.length;
        memoryLines.push(...pending);
        pending = [];
      }
      lat[kind].push(performance.now() - t);
    } catch (e) {
      errors.push(`${kind}: ${(e as Error).message}`);
    }
  }
}

const t0 = performance.now();
await Promise.all(Array.from({ length: CLIENTS }, (_, i) => runClient(i, t0 + SECONDS * 1000)));
const elapsed = (performance.now() - t0) / 1000;
clearInterval(sampler);

// ── lost writes ──────────────────────────────────────────────────────────────
const check = createTeamClient({ url, token: tokens[0]! });
let lostAdds = 0;
for (const a of ackedAdds) if (!(await check.call<{ drawer: unknown }>('get', { id: a.id })).drawer) lostAdds++;
let lostFacts = 0;
const bySubject = new Map<string, Set<string>>();
for (const f of ackedFacts) {
  if (!bySubject.has(f.subject)) {
    // The timeline holds every fact ever stated about the subject (closed windows included).
    const page = await check.call<{ items: { objectName: string | null; object: string }[] }>('kg', {
      method: 'timeline',
      args: [f.subject, { limit: 100_000 }],
    });
    bySubject.set(f.subject, new Set(page.items.map((x) => (x.objectName ?? x.object).toLowerCase())));
  }
  if (!bySubject.get(f.subject)!.has(f.object.toLowerCase())) lostFacts++;
}
for (let round = 0; round < 2; round++)
  for (let i = 0; i < CLIENTS; i++) {
    const c = createTeamClient({ url, token: tokens[i]! });
    await syncMemoryDir({
      dir: join(work, `c${i}`, 'memory'),
      project: 'proj',
      statePath: join(work, `c${i}`, 'state.json'),
      send: (q) => c.call('memory-sync', q),
    });
  }
const fresh = join(work, 'fresh', 'memory');
mkdirSync(fresh, { recursive: true });
await syncMemoryDir({
  dir: fresh,
  project: 'proj',
  statePath: join(work, 'fresh', 'state.json'),
  send: (q) => check.call('memory-sync', q),
});
const all = readdirSync(fresh)
  .filter((f) => f.endsWith('.md'))
  .map((f) => readFileSync(join(fresh, f), 'utf8'))
  .join('\n');
const lostLines = memoryLines.filter((l) => !all.includes(`${l}\n`)).length;
// No shared memory at all (a run too short for any client to write one) counts as converged.
const sharedText = (dir: string) =>
  existsSync(join(dir, 'reference_shared.md')) ? readFileSync(join(dir, 'reference_shared.md'), 'utf8') : '';
const converged = Array.from({ length: CLIENTS }, (_, i) => sharedText(join(work, `c${i}`, 'memory'))).every(
  (t) => t === sharedText(fresh),
);

const endMemory = serverMemory();
child.kill('SIGTERM');
const exitCode = await new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
const every = Object.values(lat).flat();
const result = {
  machine: {
    cpus: cpus().length,
    node: process.version,
    loadAverage: { start: loadAtStart, end: loadavg().map((x) => Math.round(x * 10) / 10) },
  },
  setup: {
    clients: CLIENTS,
    seconds: SECONDS,
    drawers: Math.max(N, stored),
    engine: databaseUrl ? 'postgresql' : 'sqlite',
    mix: '50% search, 25% add, 15% kg, 10% memory sync',
  },
  throughput: Math.round((every.length / elapsed) * 10) / 10,
  ops: Object.fromEntries(Object.entries(lat).map(([k, v]) => [k, { n: v.length, p50: pct(v, 50), p95: pct(v, 95) }])),
  overall: { n: every.length, p50: pct(every, 50), p95: pct(every, 95) },
  baseline: { inProcessSearch: { n: inProcess.length, p50: pct(inProcess, 50), p95: pct(inProcess, 95) } },
  errors: { count: errors.length, first: errors.slice(0, 5) },
  lostWrites: { adds: lostAdds, facts: lostFacts, memoryLines: lostLines },
  acknowledged: { adds: ackedAdds.length, facts: ackedFacts.length, memoryLines: memoryLines.length },
  memory: { conflictsReported: conflicts, converged },
  serverMemory: {
    idleAfterStart: idleMemory,
    maxRssUnderLoadMb: loadRssMb,
    atEnd: endMemory,
  },
  serverExit: exitCode,
  serverStderr: serverStderr
    .split('\n')
    .filter((l) => l && !l.includes('team server at'))
    .slice(0, 8),
};
process.stdout.write(JSON.stringify(result, null, 2) + '\n');
if (!process.argv.includes('--keep')) rmSync(work, { recursive: true, force: true });
