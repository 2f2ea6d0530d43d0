/**
 * @module bench/payload
 * What the model reads: characters per MCP call and per hook answer, on a real palace.
 *
 * Builds a temp palace from the real development transcripts (`../shared/data/transcripts`,
 * `--mode convos`) and this repository (project mode), then measures
 * 1. MCP (SDK `Client` ↔ `InMemoryTransport` ↔ Loci server): for `loci_search` (default
 *    arguments, 8 queries) and `loci_wake_up` (4 wings), the characters Claude Code hands the model:
 *    `JSON.stringify(structuredContent)` when the result has one, else the text content
 *    (anthropics/claude-code#79944) — and, for comparison, the text content's length;
 * 2. hooks (`runHook` in-process, no warm server, no worker): the `additionalContext` of
 *    `SessionStart` (the wake-up, per wing) and `UserPromptSubmit` (recall, per prompt), i.e. what
 *    Claude Code wraps in its own reminder. The working directory of a hook is a temp folder named
 *    after the wing (the wing a non-git folder maps to), so the hooks see the right project.
 * Provenance checks: every search hit in the model-facing payload names its id, wing, room, source
 * and date (and line range when the drawer has one).
 *
 * Before/after: run the same file against two builds (the script imports `../dist`): e.g.
 * `git worktree add /tmp/loci-before <commit> && cp bench/payload.ts /tmp/loci-before/bench/ &&
 * (cd /tmp/loci-before && npm ci && npm run build && node --import tsx bench/payload.ts --keep /tmp/p
 * --repo $PWD/.. --transcripts …)`, then the same command with this build and the same `--keep`
 * palace (it is mined once, by the first run).
 * Usage: node --import tsx bench/payload.ts [--keep DIR] [--repo DIR] [--transcripts DIR]
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { openPalace } from '../dist/internal.js';
import { createLociMcpServer } from '../dist/mcp/index.js';
import { runHook } from '../dist/hooks/index.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const here = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The repository mined (default this one; pass the same one to a before/after pair). */
const repoRoot = resolve(arg('repo') ?? here);
const transcripts = resolve(arg('transcripts') ?? join(here, '..', 'shared', 'data', 'transcripts'));
if (!existsSync(transcripts)) {
  console.error(`payload bench: ${transcripts} is absent (the real development transcripts); nothing measured`);
  process.exit(0);
}
const keep = arg('keep');
const work = keep ?? mkdtempSync(join(tmpdir(), 'loci-bench-payload-'));
const home = join(work, 'home');
// The repository is mined under the wing a session in it resolves to (its canonical git root name).
const repoWing = (await import('../dist/internal.js')).wingForCwd(repoRoot) ?? 'loci';

// ── the palace ───────────────────────────────────────────────────────────────
const palace = await openPalace({ home, embedder: null });
if ((await palace.store.count()) === 0) {
  await palace.mine(transcripts, { mode: 'convos' });
  await palace.mine(repoRoot, { wing: repoWing });
}

/** Prompts a user of each project might type (paraphrases, not copied rare words). */
const SEARCHES: { wing: string; query: string }[] = [
  { wing: 'spotter-fum', query: 'syntax highlighting for code blocks in the transcript view' },
  { wing: 'spotter-fum', query: 'which tests were added for the live view' },
  { wing: 'session-share', query: 'how does the plugin find the current session id' },
  { wing: 'session-share', query: 'publishing a session as a gist' },
  { wing: 'athena', query: 'where should the camera pan tilt connector live' },
  { wing: 'athena', query: 'journal of what we did' },
  { wing: repoWing, query: 'how is the wake-up cache invalidated' },
  { wing: repoWing, query: '钩子如何注入记忆' },
];
const WINGS = ['spotter-fum', 'session-share', 'athena', repoWing];

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

// ── MCP ──────────────────────────────────────────────────────────────────────
const server = await createLociMcpServer({ palace, cwd: repoRoot, env: { ...process.env, LOCI_HOME: home } });
const [ct, st] = InMemoryTransport.createLinkedPair();
await server.server.connect(st);
const client = new Client({ name: 'bench', version: '0' });
await client.connect(ct);

interface Call {
  tool: string;
  args: Record<string, unknown>;
  model: number;
  text: number;
  provenance?: boolean;
}
const calls: Call[] = [];
async function call(tool: string, args: Record<string, unknown>): Promise<Call> {
  const r = (await client.callTool({ name: tool, arguments: args })) as {
    structuredContent?: unknown;
    content?: { type: string; text?: string }[];
  };
  const text = (r.content ?? []).map((c) => c.text ?? '').join('');
  const model = r.structuredContent !== undefined ? JSON.stringify(r.structuredContent) : JSON.stringify(r.content);
  const c: Call = { tool, args, model: model.length, text: text.length };
  if (tool === 'loci_search') c.provenance = hitsCarryProvenance(model);
  calls.push(c);
  return c;
}
/** Every hit in the payload names its id, wing, room, source and date. */
function hitsCarryProvenance(payload: string): boolean {
  let hits: Record<string, unknown>[] = [];
  try {
    const j = JSON.parse(payload) as { hits?: Record<string, unknown>[] };
    hits = j.hits ?? [];
  } catch {
    return false;
  }
  return hits.every(
    (h) => ['id', 'wing', 'room', 'source'].every((k) => k in h) && ('date' in h || 'content_date' in h),
  );
}
for (const s of SEARCHES) await call('loci_search', { query: s.query });
for (const w of WINGS) await call('loci_wake_up', { wing: w });
await client.close();
await server.close();
await palace.close();

// ── hooks ────────────────────────────────────────────────────────────────────
// Hooks write (sessions, usage counts, caches): they run on a copy, so a kept palace stays as mined.
const hookHome = join(work, `hooks-${process.pid}`);
cpSync(home, hookHome, { recursive: true });
const cwds = join(work, 'cwd');
const env = {
  ...process.env,
  LOCI_HOME: hookHome,
  LOCI_HOOK_SERVER: '0',
  LOCI_HOOK_WORKER: '0',
  CLAUDE_CONFIG_DIR: join(work, 'claude'),
};
const hooks: { event: string; wing: string; prompt?: string; chars: number }[] = [];
/** Fresh session ids per run: a kept palace home holds the sessions of earlier runs (already surfaced drawers). */
const run = `${process.pid}-${Date.now()}`;
const contextOf = (out: string) =>
  out
    ? ((JSON.parse(out) as { hookSpecificOutput?: { additionalContext?: string } }).hookSpecificOutput
        ?.additionalContext ?? '')
    : '';
for (const w of WINGS) {
  const cwd = w === repoWing ? repoRoot : join(cwds, w);
  mkdirSync(cwd, { recursive: true });
  const out = await runHook(
    'session-start',
    JSON.stringify({ hook_event_name: 'SessionStart', session_id: `bench-${run}-${w}`, cwd, source: 'startup' }),
    { home: hookHome, env, cwd, spawnWorker: false },
  );
  hooks.push({ event: 'SessionStart', wing: w, chars: contextOf(out).length });
}
for (const s of SEARCHES) {
  const cwd = s.wing === repoWing ? repoRoot : join(cwds, s.wing);
  const out = await runHook(
    'user-prompt-submit',
    JSON.stringify({
      hook_event_name: 'UserPromptSubmit',
      session_id: `bench-${run}-p${hooks.length}`,
      cwd,
      prompt: s.query,
    }),
    { home: hookHome, env, cwd, spawnWorker: false },
  );
  hooks.push({ event: 'UserPromptSubmit', wing: s.wing, prompt: s.query, chars: contextOf(out).length });
}

const of = (tool: string) => calls.filter((c) => c.tool === tool);
const report = {
  palace: home,
  mcp: {
    search: {
      calls: of('loci_search').length,
      model_chars: sum(of('loci_search').map((c) => c.model)),
      text_chars: sum(of('loci_search').map((c) => c.text)),
      provenance: of('loci_search').every((c) => c.provenance),
    },
    wake_up: {
      calls: of('loci_wake_up').length,
      model_chars: sum(of('loci_wake_up').map((c) => c.model)),
      text_chars: sum(of('loci_wake_up').map((c) => c.text)),
    },
    per_call: calls.map((c) => ({
      tool: c.tool,
      arg: c.args['query'] ?? c.args['wing'],
      model_chars: c.model,
      text_chars: c.text,
    })),
  },
  hooks: {
    session_start_chars: sum(hooks.filter((h) => h.event === 'SessionStart').map((h) => h.chars)),
    user_prompt_submit_chars: sum(hooks.filter((h) => h.event === 'UserPromptSubmit').map((h) => h.chars)),
    recalls_with_context: hooks.filter((h) => h.event === 'UserPromptSubmit' && h.chars > 0).length,
    per_answer: hooks,
  },
};
console.log(JSON.stringify(report, null, 2));
rmSync(hookHome, { recursive: true, force: true });
if (!keep) rmSync(work, { recursive: true, force: true });
