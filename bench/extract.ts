/**
 * Memory extraction on the development transcripts (`../shared/data/transcripts`), never copied.
 * Usage: npm run build && node --import tsx bench/extract.ts [--data DIR] [--json] [--show N]
 *
 * 1. **Explicit cases (no model)**: the explicit-case extractor over every transcript; every
 *    candidate is listed (type and text, cut to 100 characters) so precision can be judged by reading.
 * 2. **Scripted model**: `extractForProject` through the real Anthropic wire protocol against a
 *    loopback server whose "model" is a script. The script proposes what a careless model would:
 *    legitimate memories (the user's preferences, corrections, confirmations, deadlines — tagged
 *    `legit` in their reason) and bait derivable from the code or git (file locations and what code
 *    does from the agent's prose, build/test commands from tool calls, commit hashes from tool
 *    output, "uses <library>" — tagged `bait:<kind>`). The pipeline writes into a temp memory
 *    folder. Reported: baits caught by the rule set (recall), legitimate memories wrongly dropped,
 *    and — re-reading every written file independently — memories written that the rule set calls
 *    derivable, that name a file the session touched, or that carry a commit hash seen in its tool
 *    output (the claim: all three are 0).
 * The script is the same for every transcript (general rules, no per-file tuning). Wall time is
 * reported excluding nothing (the scripted model answers in microseconds).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import {
  createLlmProvider,
  derivableReason,
  explicitCandidates,
  extractForProject,
  readSession,
  sessionFiles,
  type Proposal,
  type Skipped,
} from '../dist/internal.js';
import { startLoopback, type RecordedRequest, type Reply } from '../test/helpers/loopback.js';

const args = process.argv.slice(2);
const arg = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const DATA = arg('--data') ?? join(import.meta.dirname, '..', '..', 'shared', 'data', 'transcripts');
const SHOW = Number(arg('--show') ?? 12);

function files(dir: string): string[] {
  const out: string[] = [];
  for (const n of readdirSync(dir).sort()) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (!n.endsWith('.md')) out.push(p);
  }
  return out;
}

// ── the scripted model ──
type Mem = Record<string, unknown>;
const TURN = /^#(\d+) \[[^\]]*\] (user|assistant|tool): (.*)$/;
const PREF =
  /\b(?:don'?t|do not|never|always|prefer|please use|instead of|stop|from now on|no,|wrong|exactly|perfect)\b/i;
const DEADLINE =
  /\b(?:deadline|tomorrow|next week|by (?:monday|tuesday|wednesday|thursday|friday)|due|release|launch|demo)\b/i;
const PATHISH = /(?:[\w.-]+\/)+[\w.-]+\.[a-z]{1,5}\b/;
const CMD = /^\[Bash\] ((?:npm|npx|yarn|pnpm|cargo|pytest|make|go|mix|python3? -m|uv|bun) [^\n]{0,60})/;
const HASHRE = /\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,12}\b/;
const USES = /\b(?:uses|built with|written in)\s+([A-Z][\w.]+)/;

const sentence = (s: string): string => (s.split(/(?<=[.!?])\s/)[0] ?? s).slice(0, 200).trim();
const words = (s: string, n: number): string =>
  s
    .replace(/[^\w\s-]/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, n)
    .join(' ') || 'note';

function script(req: RecordedRequest): Reply {
  const content = String(req.body?.messages?.[0]?.content ?? '');
  const out: Mem[] = [];
  const add = (m: Mem) => out.length < 8 && out.push(m);
  for (const line of content.split('\n')) {
    const m = TURN.exec(line);
    if (!m) continue;
    const turn = Number(m[1]);
    const role = m[2]!;
    const text = m[3]!;
    const base = { turn, updates: null };
    if (role === 'user' && text.length < 600 && PREF.test(text)) {
      const s = sentence(text);
      add({
        ...base,
        type: 'feedback',
        name: words(s, 5),
        description: s.slice(0, 140),
        body: s,
        why: 'The user said so while reviewing the work.',
        how: 'Apply it in later sessions of this project.',
        reason: 'legit:preference',
      });
    } else if (role === 'user' && text.length < 600 && DEADLINE.test(text)) {
      const s = sentence(text);
      add({
        ...base,
        type: 'project',
        name: words(s, 5),
        description: s.slice(0, 140),
        body: s,
        why: 'Said by the user.',
        how: 'Plan around it.',
        reason: 'legit:plan',
      });
    } else if (role === 'assistant' && PATHISH.test(text)) {
      const p = PATHISH.exec(text)![0];
      add({
        ...base,
        type: 'project',
        name: `${words(p, 4)} location`,
        description: `The logic lives in ${p}`,
        body: `The relevant code lives in ${p}; it handles this feature.`,
        why: 'n/a',
        how: 'n/a',
        reason: 'bait:code-location',
      });
    } else if (role === 'assistant' && USES.test(text)) {
      const lib = USES.exec(text)![1]!;
      add({
        ...base,
        type: 'project',
        name: `uses ${lib}`,
        description: `The project uses ${lib}`,
        body: `The project uses ${lib}.`,
        why: 'n/a',
        how: 'n/a',
        reason: 'bait:dependency',
      });
    } else if (role === 'tool' && CMD.test(text)) {
      const c = CMD.exec(text)![1]!.trim();
      add({
        ...base,
        type: 'reference',
        name: `command ${words(c, 3)}`,
        description: `Tests are run with \`${c}\``,
        body: `Tests are run with \`${c}\`.`,
        reason: 'bait:repo-command',
      });
    } else if (role === 'tool' && HASHRE.test(text)) {
      const h = HASHRE.exec(text)![0];
      add({
        ...base,
        type: 'project',
        name: `commit ${h}`,
        description: `Commit ${h} holds the change`,
        body: `Commit ${h} holds the change discussed here.`,
        why: 'n/a',
        how: 'n/a',
        reason: 'bait:git-history',
      });
    }
  }
  return {
    body: {
      id: 'msg_script',
      type: 'message',
      role: 'assistant',
      model: 'scripted',
      content: [{ type: 'text', text: JSON.stringify({ memories: out }) }],
      stop_reason: 'end_turn',
      usage: { input_tokens: Math.ceil(content.length / 4), output_tokens: 10 },
    },
  };
}

// ── run ──
const all = files(DATA);
const server = await startLoopback();
server.handle('anthropic.messages', script);
const provider = createLlmProvider(
  { provider: 'anthropic', baseUrl: server.url, maxRetries: 0 },
  { env: { ANTHROPIC_API_KEY: 'scripted' } },
);
const explicit: { file: string; type: string; text: string }[] = [];
const byRule: Record<string, number> = {};
const bait = { total: 0, caught: 0, byKind: {} as Record<string, { total: number; caught: number }> };
const legit = { total: 0, dropped: 0, droppedAs: [] as string[] };
const check = { written: 0, derivable: 0, sessionFile: 0, seenHash: 0, examples: [] as string[] };
const exposure = { prompts: 0, byRule: {} as Record<string, number>, samples: [] as string[] };
let calls = 0;
let promptChars = 0;
const t0 = performance.now();
for (const f of all) {
  const rel = relative(DATA, f);
  const s = await readSession(f);
  for (const c of explicitCandidates(s.turns)) explicit.push({ file: rel, type: c.type, text: c.body.slice(0, 100) });
  // Exposure: every short user prompt taken as a project memory — what would the rules drop?
  for (const t of s.turns.filter((x) => x.role === 'user' && x.text.length < 600)) {
    exposure.prompts++;
    const d = derivableReason({ type: 'project', name: 'prompt', description: '', body: t.text }, {});
    if (d) {
      exposure.byRule[d.rule] = (exposure.byRule[d.rule] ?? 0) + 1;
      if (exposure.samples.length < SHOW)
        exposure.samples.push(`${d.rule}: ${t.text.replace(/\s+/g, ' ').slice(0, 110)}`);
    }
  }
  const work = mkdtempSync(join(tmpdir(), 'loci-bench-extract-'));
  try {
    const before = server.requests.length;
    const { result } = await extractForProject({
      home: join(work, 'home'),
      transcript: f,
      cwd: work,
      dir: join(work, 'mem'),
      env: { HOME: work, CLAUDE_CONFIG_DIR: join(work, 'claude') },
      provider,
      maxCalls: 1000,
    });
    calls += result.calls;
    for (const r of server.requests.slice(before)) promptChars += r.raw.length;
    const reasons = (p: { reason: string }) => /\b(legit|bait):[\w-]+/.exec(p.reason)?.[0] ?? '';
    const tally = (tag: string, dropped: boolean, rule?: string) => {
      if (tag.startsWith('bait:')) {
        const k = (bait.byKind[tag.slice(5)] ??= { total: 0, caught: 0 });
        bait.total++;
        k.total++;
        if (dropped) {
          bait.caught++;
          k.caught++;
        }
      } else if (tag.startsWith('legit:')) {
        legit.total++;
        if (dropped && rule !== 'duplicate') {
          legit.dropped++;
          legit.droppedAs.push(`${rule}`);
        }
      }
    };
    // Skipped entries carry no reason tag: look the candidate up by name in the requests' answers.
    const tagOf = new Map<string, string>();
    for (const r of server.requests.slice(before)) {
      const answer = JSON.parse((script(r) as { body: { content: { text: string }[] } }).body.content[0]!.text) as {
        memories: Mem[];
      };
      for (const m of answer.memories) tagOf.set(String(m['name']), String(m['reason']));
    }
    for (const p of result.proposals as Proposal[]) tally(reasons(p), false);
    for (const sk of result.skipped as Skipped[]) {
      byRule[sk.rule] = (byRule[sk.rule] ?? 0) + 1;
      const tag = [...tagOf.entries()].find(([n]) => sk.name.startsWith(n.slice(0, 20)))?.[1] ?? '';
      tally(tag, true, sk.rule);
    }
    // Independent re-read of what was written.
    const touched = sessionFiles(s.turns.filter((t) => t.role === 'tool').map((t) => t.text));
    const hashes = new Set(
      s.turns.filter((t) => t.role === 'tool').flatMap((t) => t.text.match(new RegExp(HASHRE.source, 'g')) ?? []),
    );
    const mem = join(work, 'mem');
    const names = existsSync(mem) ? readdirSync(mem) : [];
    for (const name of names.filter((n) => n.endsWith('.md') && n !== 'MEMORY.md')) {
      const text = readFileSync(join(mem, name), 'utf8');
      const body = text.replace(/^---[\s\S]*?\n---\n/, '');
      const type = /type: (\w+)/.exec(text)?.[1] ?? 'project';
      const desc = /description: (.*)/.exec(text)?.[1] ?? '';
      check.written++;
      const d = derivableReason({ type: type as 'project', name, description: desc, body }, { files: touched });
      if (d) check.derivable++;
      if (touched.some((p) => p.length > 4 && body.includes(p))) check.sessionFile++;
      if ([...hashes].some((h) => body.includes(h))) check.seenHash++;
      if (check.examples.length < SHOW) check.examples.push(`${rel.split('/').pop()!.slice(0, 28)} ${type}: ${desc}`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
const wallMs = performance.now() - t0;
await server.close();

const report = {
  machine: { nproc: cpus().length, node: process.version },
  transcripts: all.length,
  explicit: { candidates: explicit.length, list: explicit },
  exposure,
  scripted: {
    modelCalls: calls,
    promptChars,
    wallMs: Math.round(wallMs),
    skippedByRule: byRule,
    bait: { ...bait, recall: bait.total ? +(bait.caught / bait.total).toFixed(3) : null },
    legit,
    written: check,
  },
};
if (args.includes('--json')) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
else {
  const w = (s: string) => process.stdout.write(`${s}\n`);
  w(`transcripts: ${all.length} (${DATA}); machine: ${cpus().length} cores, Node ${process.version}`);
  w(`\nexplicit cases (no model): ${explicit.length}`);
  for (const e of explicit) w(`  ${e.file.padEnd(60).slice(0, 60)} ${e.type.padEnd(9)} ${e.text}`);
  const dropped = Object.values(exposure.byRule).reduce((a, b) => a + b, 0);
  w(`\nuser prompts (< 600 chars) read as project memories: ${exposure.prompts}; dropped by the rules: ${dropped}`);
  w(`  ${JSON.stringify(exposure.byRule)}`);
  for (const x of exposure.samples) w(`    ${x}`);
  w(`\nscripted model: ${calls} calls, ${promptChars} request characters, ${Math.round(wallMs)} ms wall`);
  w(`  bait caught by the rule set: ${bait.caught}/${bait.total}`);
  for (const [k, v] of Object.entries(bait.byKind)) w(`    ${k.padEnd(15)} ${v.caught}/${v.total}`);
  w(`  legitimate memories dropped as derivable: ${legit.dropped}/${legit.total} ${legit.droppedAs.join(', ')}`);
  w(`  skipped by rule: ${JSON.stringify(byRule)}`);
  w(
    `  written: ${check.written}; of them derivable by the rule set: ${check.derivable}, naming a session file: ` +
      `${check.sessionFile}, carrying a commit hash seen in tool output: ${check.seenHash}`,
  );
  for (const e of check.examples) w(`    ${e}`);
}
