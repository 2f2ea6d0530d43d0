/**
 * @module bench/mcp
 * MCP latency: a palace of N drawers (default 50,000, ~800 characters of prose each, 5 wings,
 * 23 rooms, written with `palace.store.put` batches), then
 * 1. in-process tool calls through the whole protocol path (SDK `Client` ↔ `InMemoryTransport` ↔
 *    Loci `McpServer`): p50/p95 of `loci_status`, `loci_get_drawer`, `loci_list_wings` and
 *    `loci_search` (200 queries of 3–6 words taken from the drawers); baseline in the same run,
 *    alternating call by call: the same library call made directly (`palace.status()`,
 *    `palace.get()`, …), and the median difference (the MCP layer: argument and result
 *    validation, mapping, the SDK's request/response path and client-side schema checks);
 * 2. cold start of the built `loci mcp` over stdio, median of 10 (spawn → `initialize` answered →
 *    first `tools/call` answered); baselines in the same run: `loci --version` (node + CLI and
 *    library load) and a bare one-tool server on the same SDK and zod (the SDK's own floor).
 * Needs `npm run build`. Prints one JSON document.
 * Usage: node --import tsx bench/mcp.ts [--drawers 50000] [--runs 10] [--keep DIR] [--cold-only]
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { openPalace } from '../dist/internal.js';
import { createLociMcpServer } from '../dist/mcp/index.js';
import { prose, rng } from '../test/helpers/corpus.js';

const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : def;
};
const N = Number(arg('drawers', '50000'));
const RUNS = Number(arg('runs', '10'));
const r = rng(11);
const work = process.argv.includes('--keep') ? arg('keep', '') : mkdtempSync(join(tmpdir(), 'loci-bench-mcp-'));
const home = join(work, 'home');

// ── build the palace ─────────────────────────────────────────────────────────
const palace = await openPalace({ home });
const t = performance.now();
const sample: string[] = [];
for (let i = await palace.store.count(); i < N; i += 5000) {
  const batch = [];
  for (let j = i; j < Math.min(N, i + 5000); j++) {
    const text = prose(r, 130);
    if (j % 250 === 0) sample.push(text);
    batch.push({
      wing: `w${j % 5}`,
      room: `r${j % 23}`,
      source: `/bench/file${Math.floor(j / 8)}.md`,
      chunkIndex: j % 8,
      contentDate: `2026-0${1 + (j % 9)}-1${j % 10}`,
      text,
    });
  }
  await palace.store.put(batch);
}
const buildSeconds = (performance.now() - t) / 1000;
const queries: string[] = [];
for (let i = 0; i < 200; i++) {
  const words = (sample[i % Math.max(1, sample.length)] ?? prose(r, 130))
    .replace(/[^\p{L}\s]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const start = Math.floor(r() * Math.max(1, words.length - 8));
  queries.push(words.slice(start, start + 3 + Math.floor(r() * 4)).join(' '));
}
const ids = (await palace.listDrawers({}, { limit: 200, offset: 0 })).drawers.map((d) => d.id);

// ── in-process tool calls ────────────────────────────────────────────────────
function pct(xs: number[], p: number) {
  const s = [...xs].sort((a, b) => a - b);
  return +s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!.toFixed(3);
}
/** Times the MCP call and the direct library call of each input alternately (order flipped every time). */
async function pair(n: number, viaMcp: (i: number) => Promise<unknown>, direct: (i: number) => Promise<unknown>) {
  for (let i = 0; i < 10; i++) await Promise.all([viaMcp(i), direct(i)]); // warm-up
  const m: number[] = [];
  const d: number[] = [];
  const over: number[] = [];
  for (let i = 0; i < n; i++) {
    const run = async (fn: (i: number) => Promise<unknown>) => {
      const t0 = performance.now();
      await fn(i);
      return performance.now() - t0;
    };
    let x: number;
    let y: number;
    if (i % 2) {
      x = await run(viaMcp);
      y = await run(direct);
    } else {
      y = await run(direct);
      x = await run(viaMcp);
    }
    m.push(x);
    d.push(y);
    over.push(x - y);
  }
  return {
    calls: n,
    mcp: { p50_ms: pct(m, 50), p95_ms: pct(m, 95) },
    direct_library_call: { p50_ms: pct(d, 50), p95_ms: pct(d, 95) },
    mcp_overhead_median_ms: pct(over, 50),
  };
}

const COLD_ONLY = process.argv.includes('--cold-only');
let tools: Record<string, unknown> | string = 'skipped (--cold-only)';
if (!COLD_ONLY) {
  const server = await createLociMcpServer({ palace });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.server.connect(a);
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(b);
  await client.listTools();
  const call = async (name: string, args: Record<string, unknown>) => {
    const res = await client.callTool({ name, arguments: args });
    if (res.isError) throw new Error(JSON.stringify(res.content));
  };
  const q = (i: number) => queries[i % queries.length]!;
  const id = (i: number) => ids[i % ids.length]!;
  tools = {
    loci_status: await pair(
      200,
      () => call('loci_status', {}),
      () => palace.status(),
    ),
    loci_get_drawer: await pair(
      500,
      (i) => call('loci_get_drawer', { drawer_id: id(i) }),
      (i) => palace.get(id(i)),
    ),
    loci_list_wings: await pair(
      200,
      () => call('loci_list_wings', {}),
      () => palace.listWings(),
    ),
    loci_search: await pair(
      200,
      (i) => call('loci_search', { query: q(i), limit: 10 }),
      (i) => palace.search(q(i), { limit: 10 }),
    ),
    loci_search_lexical: await pair(
      200,
      (i) => call('loci_search', { query: q(i), limit: 10, mode: 'lexical' }),
      (i) => palace.search(q(i), { limit: 10, mode: 'lexical' }),
    ),
  };
  await client.close();
  await server.close();
}
const status = await palace.status();
await palace.close();

// ── cold start of `loci mcp` ─────────────────────────────────────────────────
const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
};
const CALL = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'loci_status', arguments: {} } };

// Baseline: the smallest server on the same SDK (one tool, zod schemas, stdio), no Loci at all.
const bare = join(work, 'bare-sdk-server.mjs');
writeFileSync(
  bare,
  `import { McpServer } from ${JSON.stringify(import.meta.resolve('@modelcontextprotocol/sdk/server/mcp.js'))};
import { StdioServerTransport } from
  ${JSON.stringify(import.meta.resolve('@modelcontextprotocol/sdk/server/stdio.js'))};
import * as z from ${JSON.stringify(import.meta.resolve('zod'))};
const s = new McpServer({ name: 'bare', version: '1' });
s.registerTool('loci_status', { description: 'd', inputSchema: {}, outputSchema: { ok: z.boolean() } }, async () => ({
  content: [{ type: 'text', text: 'ok' }],
  structuredContent: { ok: true },
}));
await s.connect(new StdioServerTransport());
process.stdin.on('end', () => process.exit(0));
`,
);

/**
 * CPU time (user + system) a live process has used so far, from /proc (Linux; 10 ms ticks), or
 * null elsewhere. Less sensitive than wall time to other load on the machine.
 */
function cpuMs(pid: number | undefined): number | null {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return null;
  }
}

type Cold = { initialize_ms: number; first_call_ms: number; cpu_ms: number | null };
function coldStart(args: string[] = ['bin/loci.js', 'mcp']): Promise<Cold> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, {
      env: { ...process.env, LOCI_HOME: home },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let buf = '';
    let init = 0;
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const msg = JSON.parse(buf.slice(0, nl)) as { id?: number };
        buf = buf.slice(nl + 1);
        if (msg.id === 1) {
          init = performance.now() - t0;
          child.stdin.write(
            `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n${JSON.stringify(CALL)}\n`,
          );
        } else if (msg.id === 2) {
          const first = performance.now() - t0;
          const cpu = cpuMs(child.pid);
          child.stdin.end();
          child.once('exit', () =>
            resolve({ initialize_ms: +init.toFixed(1), first_call_ms: +first.toFixed(1), cpu_ms: cpu }),
          );
        }
      }
    });
    child.once('error', reject);
    child.stdin.write(`${JSON.stringify(INIT)}\n`);
  });
}
const median = (xs: number[]) => +[...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!.toFixed(1);
const cold: Cold[] = [];
for (let i = 0; i < RUNS; i++) cold.push(await coldStart());
const bareRuns: Cold[] = [];
for (let i = 0; i < RUNS; i++) bareRuns.push(await coldStart([bare]));
const version: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const t0 = performance.now();
  spawnSync(process.execPath, ['bin/loci.js', '--version']);
  version.push(performance.now() - t0);
}
if (!process.argv.includes('--keep')) rmSync(work, { recursive: true, force: true });

console.log(
  JSON.stringify(
    {
      bench: 'mcp',
      node: process.version,
      cpus: cpus().length,
      load_average_1m: +loadavg()[0]!.toFixed(2),
      drawers: status.drawers,
      db_mb: +(status.bytes / 1e6).toFixed(1),
      build_seconds: +buildSeconds.toFixed(1),
      tool_calls_in_process: tools,
      cold_start: {
        runs: RUNS,
        initialize_median_ms: median(cold.map((c) => c.initialize_ms)),
        first_tool_call_median_ms: median(cold.map((c) => c.first_call_ms)),
        first_tool_call_min_ms: Math.min(...cold.map((c) => c.first_call_ms)),
        baseline_loci_version_median_ms: median(version),
        first_tool_call_cpu_median_ms: cold[0]?.cpu_ms === null ? null : median(cold.map((c) => c.cpu_ms ?? 0)),
        baseline_bare_sdk_server_first_call_median_ms: median(bareRuns.map((c) => c.first_call_ms)),
        baseline_bare_sdk_server_cpu_median_ms:
          bareRuns[0]?.cpu_ms === null ? null : median(bareRuns.map((c) => c.cpu_ms ?? 0)),
      },
      targets: { tool_call_p50_ms: 5, cold_start_ms: 500 },
    },
    null,
    2,
  ),
);
