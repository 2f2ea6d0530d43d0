/**
 * @module test/torture/fuzz-front-ends
 * Issue 11, fuzz (front ends): generated CLI argument vectors (through `runCli` in this process,
 * plus a few real `bin/loci.js` processes), MCP tool arguments (the real server over an in-memory
 * transport with the SDK client) and hook stdin (`runHook` in process, plus real `loci hook`
 * processes). Everything runs in a sandbox folder that is the process's cwd, HOME, TMPDIR, Loci
 * home and Claude Code config. Properties: no uncaught exception, no "unexpected error" (a stack
 * trace instead of a catalogued error), exit codes 0/1/2, hooks answer '' or one JSON line and
 * exit 0, the MCP server keeps serving, and no file is written outside the palace (Loci home) or a
 * memory folder; CLI errors are in the one-line `loci: <message> [CODE]` form and MCP error
 * replies are one line and at most 8 KB whatever the argument size (issue 11 defects 2 and 5).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { openPalace, type Palace } from '../../src/internal.js';
import { createLociMcpServer, type LociMcpServer } from '../../src/mcp/index.js';
import { HOOK_EVENTS, runHook } from '../../src/hooks/index.js';
import { runCli } from '../../src/cli/main.js';
import { FIXTURES } from '../fixtures/mcp/harness.js';
import { NEEDS_BUILD } from '../fixtures/hooks/support.js';
import { BIN } from '../helpers/cli.js';
import { isOneLine, listFiles, recordFigures, TORTURE } from './support.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'loci-torture-fuzz-')));
const home = join(root, 'home');
const project = join(root, 'project');
const claude = join(root, 'claude');
const mem = join(root, 'mem');
const ENV: NodeJS.ProcessEnv = {
  HOME: join(root, 'userhome'),
  LOCI_HOME: home,
  CLAUDE_CONFIG_DIR: claude,
  TMPDIR: join(root, 'tmp'),
  LOCI_HOOK_WORKER: '0',
  LOCI_HOOK_SERVER: '0',
  LOCI_LLM_PROVIDER: '',
  LOCI_EMBEDDER: '',
  NO_COLOR: '1',
};
const counts = { cli: 0, cliSpawned: 0, mcp: 0, hook: 0, hookSpawned: 0 };
/**
 * Violations of the one-line error form (issue 11 defect 5) and of bounded MCP errors (defect 2), asserted empty at the
 * end.
 */
const oneLine: string[] = [];
const bigReplies: string[] = [];

/** Files under the sandbox that are neither in the palace (Loci home), a memory folder nor temp. */
function strayFiles(): string[] {
  return listFiles(root, ['home', 'mem', 'tmp']).filter((f) => !/^claude\/projects\/[^/]+\/memory\//.test(f));
}
let before0: Map<string, number>;
const snapshot = () => new Map(strayFiles().map((f) => [f, statSync(join(root, f)).mtimeMs]));
function assertNoStrayWrite(what: string): void {
  const now = snapshot();
  const changed = [...now].filter(([f, m]) => before0.get(f) !== m).map(([f]) => f);
  assert.deepEqual(changed, [], `${what} wrote outside the palace and memory folders`);
}

let palace: Palace;
let server: LociMcpServer;
let client: Client;

before(async () => {
  for (const d of ['userhome', 'tmp', 'mem']) mkdirSync(join(root, d), { recursive: true });
  cpSync(join(FIXTURES, 'project'), project, { recursive: true });
  writeFileSync(
    join(root, 'session.jsonl'),
    JSON.stringify({
      type: 'user',
      uuid: 'u1',
      parentUuid: null,
      sessionId: 's',
      message: { role: 'user', content: 'hello there' },
    }) + '\n',
  );
  Object.assign(process.env, ENV);
  process.chdir(project);
  palace = await openPalace({ home });
  await palace.mine(project, { wing: 'lantern' });
  server = await createLociMcpServer({ palace, cwd: project, env: { ...process.env } });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.server.connect(a);
  client = new Client({ name: 'loci-fuzz', version: '1.0.0' });
  await client.connect(b);
  before0 = snapshot();
});

after(async () => {
  recordFigures('fuzz-front-ends', { ...counts, oneLineViolations: oneLine.length, bigMcpErrors: bigReplies.length });
  await client?.close();
  await server?.close();
  await palace?.close();
  process.chdir(tmpdir());
  rmSync(root, { recursive: true, force: true });
});

// ── generators ────────────────────────────────────────────────────────────────
const word = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom(
    '',
    '-',
    '--',
    'a\nb',
    'x'.repeat(5000),
    '..',
    '../..',
    'lantern',
    'auth',
    '2025-13-45',
    '2024-02-30',
    'NaN',
    '-1',
    '0',
    '1e309',
    '\u202eevil',
    '\uD800',
    '%s',
    'u\u0000v',
    '*x',
  ),
  fc.integer().map(String),
);
/** A path that stays in the sandbox (never absolute, never above the sandbox root). */
const localPath = fc.constantFrom('.', 'src', 'README.md', 'nope', '../session.jsonl', '..', 'src/../src', 'a\nb');
const COMMANDS: [string[], string[], number][] = [
  // [command words, options it takes, positionals]
  [['init'], ['--json'], 0],
  [['mine'], ['--json', '--wing', '--mode', '--dry-run', '--limit', '--exclude'], -1],
  [['sync'], ['--json', '--dry-run'], -1],
  [
    ['search'],
    ['--json', '-w', '-r', '--hall', '--since', '--until', '-n', '--context', '--explain', '--lexical', '--full'],
    2,
  ],
  [['status'], ['--json'], 0],
  [['get'], ['--json'], 1],
  [['list'], ['--json', '-w', '-n'], 1],
  [['memory', 'list'], ['--json', '-t', '--dir', '--user'], 0],
  [['memory', 'show'], ['--json', '--dir'], 1],
  [
    ['memory', 'add'],
    ['--json', '--dir', '-t', '-n', '-d', '-b', '--why', '--how', '--privacy', '--pinned', '--team'],
    0,
  ],
  [['memory', 'edit'], ['--json', '--dir', '-d', '-b', '-t', '--pinned', '--unpinned', '--privacy'], 1],
  [['memory', 'forget'], ['--json', '--dir'], 1],
  [['memory', 'index'], ['--json', '--dir', '--regenerate'], 0],
  [['memory', 'where'], ['--json'], 0],
  [['dream'], ['--json', '--dir', '--dry-run', '--force', '--undo'], 0],
  [['recall'], ['--json', '--dir', '--drawers', '-n'], 2],
  [['kg', 'add'], ['--json', '--from', '--to', '--source', '--confidence', '--literal', '--replace-dates'], 3],
  [['kg', 'query'], ['--json', '--as-of', '--direction', '--predicate'], 1],
  [['kg', 'timeline'], ['--json', '-n', '--cursor'], 1],
  [['kg', 'invalidate'], ['--json', '--ended'], 3],
  [['kg', 'stats'], ['--json'], 0],
  [['kg', 'entities'], ['--json'], 0],
  [['traverse'], ['--json', '--depth'], 1],
  [['diary', 'write'], ['--json', '--agent', '--topic'], 2],
  [['diary', 'read'], ['--json', '--agent', '--since', '-n'], 0],
  [['wake-up'], ['--json', '--tokens'], 0],
  [['hook'], [], 1],
  [['embed'], ['--json'], 0],
  [['nonsense'], ['--json'], 1],
];
const FLAGS = new Set([
  '--json',
  '--dry-run',
  '--explain',
  '--lexical',
  '--full',
  '--user',
  '--pinned',
  '--team',
  '--regenerate',
  '--literal',
  '--replace-dates',
  '--unpinned',
  '--drawers',
  '--force',
  '--undo',
]);

const argv = fc
  .tuple(
    fc.constantFrom(...COMMANDS),
    fc.array(fc.tuple(fc.nat(), word), { maxLength: 5 }),
    fc.array(word, { maxLength: 3 }),
    localPath,
    fc.boolean(),
  )
  .map(([[words, options, positionals], opts, pos, path, junk]) => {
    const out = [...words];
    for (const [k, v] of opts) {
      const o = options[k % Math.max(1, options.length)];
      if (!o) continue;
      if (o === '--dir') out.push(o, mem);
      else if (FLAGS.has(o)) out.push(o);
      else out.push(o, v);
    }
    if (positionals < 0) out.push(path);
    else
      out.push(
        ...pos
          .slice(0, positionals + (junk ? 1 : 0))
          .map((p) => (p.startsWith('/') || p.startsWith('~') ? `x${p}` : p)),
      );
    return out;
  });

function captureIO() {
  let stdout = '';
  let stderr = '';
  return {
    io: {
      stdout: (s: string) => void (stdout += s),
      stderr: (s: string) => void (stderr += s),
      isTTY: false,
      readStdin: async () => '',
      env: { ...process.env },
      cwd: project,
    },
    out: () => ({ stdout, stderr }),
  };
}

function checkErrorForm(args: string[], code: number, stderr: string): void {
  assert.ok([0, 1, 2].includes(code), `exit code ${code} for ${JSON.stringify(args)}`);
  assert.doesNotMatch(
    stderr,
    /unexpected error|\n\s+at /,
    `a crash instead of a catalogued error for ${JSON.stringify(args).slice(0, 300)}: ${stderr.slice(0, 600)}`,
  );
  if (code !== 0) {
    assert.ok(stderr.length > 0, `exit ${code} says why on stderr: ${JSON.stringify(args)}`);
    const body = stderr.replace(/\n$/, '');
    if (!isOneLine(body) || !/^loci: .* \[[A-Z_]+\]$/.test(body) || body.length > 2000)
      oneLine.push(`${JSON.stringify(args).slice(0, 200)} → ${JSON.stringify(stderr.slice(0, 200))}`);
  }
}

// ── CLI ───────────────────────────────────────────────────────────────────────
test(
  'CLI: generated argument vectors never crash and never write outside the palace or memory folder',
  { timeout: 900_000 },
  async () => {
    await fc.assert(
      fc.asyncProperty(argv, async (args) => {
        counts.cli++;
        const { io, out } = captureIO();
        const code = await runCli(args, io);
        checkErrorForm(args, code, out().stderr);
        assertNoStrayWrite(JSON.stringify(args).slice(0, 200));
      }),
      { numRuns: TORTURE.fuzzRuns * 2, seed: TORTURE.seed, endOnFailure: true },
    );
  },
);

test(
  'CLI: real processes with generated arguments exit 0/1/2 with a reason',
  { skip: NEEDS_BUILD, timeout: 900_000 },
  async () => {
    const cases = fc.sample(argv, { numRuns: 3 * TORTURE.work, seed: TORTURE.seed + 1 });
    cases.push(['get', 'a\nb'], ['embed', 'x'], ['diary', 'read'], ['search', 'x', '--since', '2025-13-45']);
    for (const args of cases) {
      counts.cliSpawned++;
      const r = spawnSync(process.execPath, [BIN, ...args], {
        cwd: project,
        env: { ...process.env },
        encoding: 'utf8',
        input: '',
        timeout: 120_000,
      });
      checkErrorForm(args, r.status ?? -1, r.stderr);
    }
    assertNoStrayWrite('spawned CLI');
  },
);

test('CLI errors are one line in the documented form `loci: <message> [CODE]`', () => {
  assert.deepEqual(oneLine, []);
});

// ── MCP ───────────────────────────────────────────────────────────────────────
test(
  'MCP: generated tool arguments answer a result or an isError, and the server keeps serving',
  { timeout: 900_000 },
  async () => {
    const tools = (await client.listTools()).tools;
    const value = fc.oneof(
      word,
      fc.jsonValue({ maxDepth: 2 }),
      fc.boolean(),
      fc.integer(),
      fc.constant(null),
      fc.constant('y'.repeat(200_000)),
    );
    const callArb = fc.constantFrom(...tools).chain((tool) => {
      const keys = Object.keys((tool.inputSchema.properties ?? {}) as Record<string, unknown>);
      const arg = fc.tuple(fc.constantFrom(...keys, 'extra_key', '__proto__'), value);
      return fc.tuple(fc.constant(tool.name), fc.array(arg, { maxLength: 6 }));
    });
    await fc.assert(
      fc.asyncProperty(callArb, async ([name, pairs]) => {
        counts.mcp++;
        // Paths stay inside the sandbox (path restrictions are h-harden's, issue 11 defect 7). Object.fromEntries
        // makes `__proto__` an own key, as JSON.parse of a wire message does.
        const safe = (k: string, v: unknown) =>
          (k === 'path' || k === 'file') &&
          (typeof v !== 'string' || v.startsWith('/') || v.startsWith('~') || v.includes('..'))
            ? 'src'
            : v;
        const args = Object.fromEntries(pairs.map(([k, v]) => [k, safe(k, v)])) as Record<string, unknown>;
        const r = await client.callTool({ name, arguments: args });
        const text = JSON.stringify(r);
        if (r.isError) {
          const err = (r.structuredContent as { error?: { code?: string; message?: string } } | undefined)?.error;
          assert.ok(
            err && typeof err.code === 'string' && typeof err.message === 'string',
            `${name}: an isError result carries { code, message }: ${text.slice(0, 300)}`,
          );
          if (text.length > 8192 || !isOneLine(err.message))
            bigReplies.push(`${name}: ${text.length} bytes: ${JSON.stringify(err.message.slice(0, 120))}`);
        }
        assertNoStrayWrite(`${name} ${JSON.stringify(args).slice(0, 200)}`);
      }),
      { numRuns: TORTURE.fuzzRuns * 2, seed: TORTURE.seed, endOnFailure: true },
    );
    const s = await client.callTool({ name: 'loci_status', arguments: {} });
    assert.ok(!s.isError, 'the server still answers');
  },
);

test('MCP error replies are one line and quote at most a short prefix of a bad value', () => {
  assert.deepEqual(bigReplies, []);
});

// ── hooks ─────────────────────────────────────────────────────────────────────
const field = fc.oneof(
  word,
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(join(root, 'session.jsonl'), join(root, 'nope.jsonl'), project, '.', ''),
);
const hookStdin = fc.oneof(
  fc
    .record(
      {
        session_id: field,
        transcript_path: field,
        cwd: field,
        hook_event_name: field,
        prompt: field,
        stop_hook_active: field,
        compact_summary: field,
        source: field,
        trigger: field,
      },
      { requiredKeys: [] },
    )
    .map((o) => JSON.stringify(o)),
  fc.string({ maxLength: 200 }),
  fc.json({ maxDepth: 3 }),
);
function checkHookAnswer(out: string): void {
  if (out === '') return;
  assert.ok(isOneLine(out), `a hook answer is one JSON line: ${out.slice(0, 300)}`);
  const j = JSON.parse(out) as Record<string, unknown>;
  assert.equal(typeof j, 'object');
}

test(
  'hooks: generated stdin for every event answers nothing or one JSON line, never throws',
  { timeout: 900_000 },
  async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...HOOK_EVENTS, 'Stop', 'bogus'), hookStdin, async (event, stdin) => {
        counts.hook++;
        const out = await runHook(event, stdin, { home, env: { ...process.env }, cwd: project, spawnWorker: false });
        checkHookAnswer(out);
        assertNoStrayWrite(`hook ${event}`);
      }),
      { numRuns: TORTURE.fuzzRuns * 2, seed: TORTURE.seed, endOnFailure: true },
    );
  },
);

test(
  'hooks: real `loci hook` processes with generated stdin exit 0 with nothing on stderr',
  { skip: NEEDS_BUILD, timeout: 900_000 },
  () => {
    const cases = fc.sample(fc.tuple(fc.constantFrom(...HOOK_EVENTS), hookStdin), {
      numRuns: 4 * TORTURE.work,
      seed: TORTURE.seed + 2,
    });
    for (const [event, stdin] of cases) {
      counts.hookSpawned++;
      const r = spawnSync(process.execPath, [BIN, 'hook', event], {
        cwd: project,
        env: { ...process.env },
        encoding: 'utf8',
        input: stdin,
        timeout: 120_000,
      });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stderr, '');
      checkHookAnswer(r.stdout.replace(/\n$/, ''));
    }
    assertNoStrayWrite('spawned hooks');
  },
);
