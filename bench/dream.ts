/**
 * Memory consolidation (`loci dream`) of a generated 150-file memory folder with a scripted model
 * on a loopback server (Anthropic wire protocol): tokens sent, and wall time excluding the model.
 * Usage: npm run bench -- dream [--files 150] [--runs 5] [--keep] [--json]
 *
 * - Folder: `--files` topic files in Claude Code's format (seeded, deterministic): the four types,
 *   a tenth under `team/`, ~7% exact and ~7% near duplicates, ~10% with relative dates, ~10% naming
 *   a file that does not exist; a MEMORY.md; 8 sessions beside it; a CLAUDE.md.
 * - Model: the loopback answers each batch by deleting its first project memory (so the model's
 *   plan is applied too) and reports `input_tokens` = request characters / 4.
 * - Measured per run (fresh copy of the folder each time): tokens sent, model time (inside
 *   `complete()`), wall time, and wall time excluding the model.
 * - Baseline in the same rounds: the deterministic steps alone (no model) on the same folder, and
 *   the floor of reading every file and rebuilding MEMORY.md (`loadMemories` + `rebuildIndex`).
 * - Budget (exit 1 when missed): tokens sent ≤ 400 per memory (60,000 for 150 files), and wall time
 *   excluding the model ≤ 2,000 ms (median).
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startLoopback } from '../test/helpers/loopback.js';
import { fixedClock } from '../src/core/clock.js';
import { runDream, type DreamResult } from '../src/dream/index.js';
import { loadMemories, rebuildIndex } from '../src/memdir/index.js';
import { createLlmProvider, type LlmProvider } from '../src/providers/index.js';

const args = process.argv.slice(2);
const opt = (name: string, def: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? Number(args[i + 1]) : def;
};
const FILES = opt('files', 150);
const RUNS = opt('runs', 5);
const keep = args.includes('--keep');
const asJson = args.includes('--json');
const NOW = Date.parse('2026-03-10T12:00:00Z');
const BUDGET = { tokensPerMemory: 400, wallExclModelMs: 2_000 };

/** mulberry32: a small seeded generator. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'queue parser release migration cache index schema deploy review branch token budget worker ' +
  'session export import search ranking latency dashboard runner fixture module config retry ' +
  'timeout backoff format lint bundle vector graph drawer palace wing room hall summary hook'
).split(' ');
const TYPES = ['user', 'feedback', 'project', 'reference'] as const;

function sentence(r: () => number, n: number): string {
  return Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]!).join(' ');
}

/** Writes the generated folder; returns its path. */
function generate(root: string): string {
  const r = rng(42);
  const dir = join(root, 'claude', 'projects', '-bench', 'memory');
  mkdirSync(join(dir, 'team'), { recursive: true });
  const index: string[] = [];
  const bodies: string[] = [];
  for (let i = 0; i < FILES; i++) {
    const type = TYPES[i % 4]!;
    const team = i % 10 === 9 && type !== 'user';
    const kind = r();
    // Duplicates copy an earlier memory of the same type (only those are merged).
    const same = bodies.filter((_, j) => j % 4 === i % 4);
    const pick = () => same[Math.floor(r() * same.length)]!;
    let body: string;
    if (kind < 0.07 && same.length) body = pick();
    else if (kind < 0.14 && same.length) body = `${pick()}\nalso ${sentence(r, 3)}`;
    else {
      body = `${sentence(r, 14)}.\n${sentence(r, 12)}.`;
      if (kind < 0.24) body += ' The review is due next Friday.';
      else if (kind < 0.34) body += ` See src/legacy/${WORDS[i % WORDS.length]}.ts for details.`;
    }
    bodies.push(body);
    const whyHow =
      type === 'feedback' || type === 'project'
        ? `\n**Why:** ${sentence(r, 8)}\n**How to apply:** ${sentence(r, 8)}`
        : '';
    const name = `${type}-${i}-${WORDS[i % WORDS.length]}`;
    const file = `${team ? 'team/' : ''}${type}_${name}.md`;
    const modified = new Date(NOW - Math.floor(r() * 90) * 86_400_000).toISOString();
    writeFileSync(
      join(dir, ...file.split('/')),
      `---\nname: ${name}\ndescription: ${sentence(r, 9)}\nmetadata:\n  type: ${type}\n` +
        `${team ? '  privacy: team\n' : ''}modified: ${modified}\n---\n\n${body}${whyHow}\n`,
    );
    index.push(`- [${name}](${file}) — ${sentence(r, 6)}`);
  }
  writeFileSync(join(dir, 'MEMORY.md'), index.join('\n') + '\n');
  for (let s = 0; s < 8; s++) {
    const p = join(dir, '..', `s${s}.jsonl`);
    const rec = (role: string, text: string) =>
      JSON.stringify({
        type: role,
        timestamp: new Date(NOW - s * 3_600_000).toISOString(),
        message: { content: text },
      });
    const lines = Array.from({ length: 20 }, (_, k) => rec(k % 2 ? 'assistant' : 'user', sentence(r, 25)));
    writeFileSync(p, lines.join('\n') + '\n');
    utimesSync(p, (NOW - s * 3_600_000) / 1000, (NOW - s * 3_600_000) / 1000);
  }
  mkdirSync(join(root, 'proj'), { recursive: true });
  writeFileSync(join(root, 'proj', 'CLAUDE.md'), `# Rules\n\n${sentence(r, 40)}\n`);
  return dir;
}

/** Wraps a provider to time `complete()`. */
function timed(llm: LlmProvider, acc: { ms: number; calls: number }): LlmProvider {
  return {
    name: llm.name,
    model: llm.model,
    async complete(req) {
      const t = performance.now();
      try {
        return await llm.complete(req);
      } finally {
        acc.ms += performance.now() - t;
        acc.calls++;
      }
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const server = await startLoopback();
server.handle('anthropic.messages', (req) => {
  const text = JSON.stringify(req.body);
  const first = /### (project_[\w-]+\.md)/.exec(String(req.body?.messages?.[0]?.content ?? ''))?.[1];
  const actions = first ? [{ action: 'delete', file: first, reason: 'bench: a later fact contradicts it' }] : [];
  return {
    body: {
      id: 'msg_bench',
      type: 'message',
      role: 'assistant',
      model: 'claude-haiku-4-5',
      content: [{ type: 'text', text: JSON.stringify({ actions }) }],
      stop_reason: 'end_turn',
      usage: { input_tokens: Math.ceil(text.length / 4), output_tokens: 40 },
    },
  };
});
const llm = createLlmProvider(
  { provider: 'anthropic', baseUrl: server.url, maxRetries: 0 },
  { env: { ANTHROPIC_API_KEY: 'sk-bench' } },
);

const root = mkdtempSync(join(tmpdir(), 'loci-bench-dream-'));
const source = generate(join(root, 'source'));
const rows: { wall: number; model: number; exclModel: number; tokens: number; calls: number; changes: number }[] = [];
const rulesOnly: number[] = [];
const floor: number[] = [];
let last: DreamResult | undefined;
try {
  for (let run = 0; run < RUNS; run++) {
    const copy = (name: string) => {
      const d = join(root, `${name}-${run}`, 'memory');
      cpSync(source, d, { recursive: true });
      cpSync(join(source, '..'), join(d, '..'), {
        recursive: true,
        filter: (s) => s.endsWith('.jsonl') || s === join(source, '..'),
      });
      return d;
    };
    // Floor: read every file, rebuild the index.
    const f = copy('floor');
    let t = performance.now();
    loadMemories(f, { limit: Infinity });
    rebuildIndex(f, { regenerate: true });
    floor.push(performance.now() - t);
    // Rules only.
    const d0 = copy('rules');
    t = performance.now();
    await runDream({
      dir: d0,
      home: join(root, `home-r${run}`),
      projectRoot: join(root, 'source', 'proj'),
      clock: fixedClock(NOW),
      force: true,
    });
    rulesOnly.push(performance.now() - t);
    // Whole consolidation with the scripted model.
    const d = copy('model');
    const acc = { ms: 0, calls: 0 };
    t = performance.now();
    last = await runDream({
      dir: d,
      home: join(root, `home-m${run}`),
      projectRoot: join(root, 'source', 'proj'),
      clock: fixedClock(NOW),
      force: true,
      llm: timed(llm, acc),
    });
    const wall = performance.now() - t;
    rows.push({
      wall,
      model: acc.ms,
      exclModel: wall - acc.ms,
      tokens: last.tokensSent,
      calls: acc.calls,
      changes: last.changes.length,
    });
  }
} finally {
  await server.close();
  if (!keep) rmSync(root, { recursive: true, force: true });
}

const out = {
  machine: { cpus: availableParallelism(), node: process.version },
  files: FILES,
  runs: RUNS,
  tokensSent: rows[0]!.tokens,
  tokensPerMemory: Math.round(rows[0]!.tokens / FILES),
  modelCalls: rows[0]!.calls,
  changes: rows[0]!.changes,
  changesByAction: last
    ? Object.fromEntries(
        ['merge', 'rewrite-dates', 'delete', 'index'].map((a) => [
          a,
          last!.changes.filter((c) => c.action === a).length,
        ]),
      )
    : {},
  wallMs: Math.round(median(rows.map((r) => r.wall))),
  modelMs: Math.round(median(rows.map((r) => r.model))),
  wallExclModelMs: Math.round(median(rows.map((r) => r.exclModel))),
  baseline: { rulesOnlyMs: Math.round(median(rulesOnly)), readAndIndexMs: Math.round(median(floor)) },
  budget: BUDGET,
};
const ok = out.tokensPerMemory <= BUDGET.tokensPerMemory && out.wallExclModelMs <= BUDGET.wallExclModelMs;
if (asJson) console.log(JSON.stringify({ ...out, withinBudget: ok }, null, 2));
else {
  console.log(JSON.stringify(out, null, 2));
  console.log(
    `\n${FILES} memories: ${out.tokensSent} tokens sent (${out.tokensPerMemory}/memory, ` +
      `budget ${BUDGET.tokensPerMemory}), ${out.modelCalls} model calls; wall ${out.wallMs} ms, ` +
      `excluding the model ${out.wallExclModelMs} ms (budget ${BUDGET.wallExclModelMs}); ` +
      `rules only ${out.baseline.rulesOnlyMs} ms; read + index ${out.baseline.readAndIndexMs} ms` +
      ` — ${ok ? 'within budget' : 'OVER BUDGET'}`,
  );
}
process.exit(ok ? 0 : 1);
