/**
 * @module test/e2e/chat
 * `loci chat -p` against the streaming loopback server (the same `LOCI_LLM_*` variables as recall):
 * a turn with a tool round and `--json` figures, persisted large results, recall injecting memories,
 * the tool allow list, and the one-line error without an LLM. `-p` runs in-process (`lociIn`); the
 * session reading piped lines (stdin, its own exit) is a real child process.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chatEnv, lociAsync, tempDir, writeTree } from '../helpers/cli.js';
import { lociIn } from '../helpers/cli-in-process.js';
import { startLoopback, type Loopback } from '../helpers/loopback.js';
import { streamReply } from '../helpers/stream-replies.js';

let server: Loopback;
before(async () => {
  server = await startLoopback();
});
after(() => server.close());

const ROUTE = 'anthropic.messages';

/** A project folder and a private home; no Claude Code directories. */
function setup() {
  const t = tempDir('loci-chat-');
  const project = join(t.dir, 'project');
  writeTree(project, {
    'src/auth/token.ts': 'export function refreshToken() {\n  return rotate();\n}\n',
    'logs/build.log': `${'step ok\n'.repeat(6_000)}`,
  });
  const env: NodeJS.ProcessEnv = { ...chatEnv(t.dir, server.url), LOCI_LLM_MODEL: 'claude-sonnet-4-5' };
  return { ...t, project, env };
}

describe('loci chat -p', () => {
  it('--json: one turn with a tool round, usage with cache figures, a persisted large result', async () => {
    const s = setup();
    server.reply(
      ROUTE,
      streamReply(ROUTE, {
        text: 'Let me look.',
        toolCalls: [
          { id: 'toolu_a', name: 'grep', input: { pattern: 'refreshToken' } },
          { id: 'toolu_b', name: 'read', input: { path: 'logs/build.log' } },
        ],
        usage: { input: 1200, output: 40, cacheRead: 800, cacheCreation: 300 },
      }),
      streamReply(ROUTE, {
        text: 'refreshToken lives in src/auth/token.ts and calls rotate().',
        usage: { input: 900, output: 25, cacheRead: 1100 },
      }),
    );
    const before = server.requestsTo(ROUTE).length;
    const r = await lociIn(['chat', '-p', 'where is the token refreshed?', '--json', '--allow', 'read,grep'], {
      cwd: s.project,
      env: s.env,
    });
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout);
    assert.deepEqual(doc, {
      answer: 'refreshToken lives in src/auth/token.ts and calls rotate().',
      turns: 2,
      usage: { input_tokens: 2100, output_tokens: 65, cache_read_tokens: 1900, cache_creation_tokens: 300 },
      compactions: 0,
      persisted_results: 1,
      memories_injected: 0,
    });
    const reqs = server.requestsTo(ROUTE).slice(before);
    assert.equal(reqs.length, 2);
    assert.deepEqual(
      reqs[0]!.body.tools.map((t: { name: string }) => t.name),
      ['read', 'grep'],
    );
    assert.ok(Array.isArray(reqs[0]!.body.system), 'system parts for Anthropic');
    assert.ok(reqs[0]!.body.system.some((p: { cache_control?: unknown }) => p.cache_control));
    assert.match(JSON.stringify(reqs[0]!.body.system), /# Tools\\n- read: .*- grep: /);
    const results = reqs[1]!.body.messages.at(-1).content;
    assert.match(results[0].content, /src\/auth\/token\.ts:1:/);
    assert.ok(results[1].content.length < 20_000, 'the large log was replaced by a preview');
    const persisted = join(s.env.LOCI_HOME!, 'tool-results');
    assert.ok(existsSync(persisted) && readdirSync(persisted).length === 1);
    s.cleanup();
  });

  it('injects recalled memories into the turn and archives the conversation into the palace', async () => {
    const s = setup();
    const add = (name: string, description: string) =>
      lociIn(['memory', 'add', '-t', 'project', '-n', name, '-d', description, '-b', `${description}.`], {
        cwd: s.project,
        env: s.env,
      });
    assert.equal((await add('token rotation', 'refresh tokens rotate every 15 minutes in the auth service')).code, 0);
    assert.equal((await add('deploy freeze', 'no deploys on Fridays, the release train leaves Thursday')).code, 0);
    server.reply(ROUTE, streamReply(ROUTE, { text: 'Tokens rotate every 15 minutes.' }));
    const before = server.requestsTo(ROUTE).length;
    const r = await lociIn(['chat', '-p', 'how often do the refresh tokens rotate in auth?', '--json'], {
      cwd: s.project,
      env: s.env,
    });
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout);
    assert.ok(doc.memories_injected >= 1 && doc.memories_injected <= 5, r.stdout);
    const sent = JSON.stringify(server.requestsTo(ROUTE)[before]!.body.messages[0]);
    assert.match(sent, /rotate every 15 minutes/);
    const found = await lociIn(['search', 'Tokens rotate every 15 minutes', '--json'], { env: s.env });
    assert.equal(found.code, 0, found.stderr);
    assert.ok(
      JSON.parse(found.stdout).results.some((h: { room: string }) => h.room === 'chat'),
      found.stdout,
    );
    s.cleanup();
  });

  it('prints the answer alone without --json, and saves the session for /resume', async () => {
    const s = setup();
    server.reply(ROUTE, streamReply(ROUTE, { text: 'Hello from the loopback model.' }));
    const r = await lociIn(['chat', '-p', 'say hello'], { cwd: s.project, env: s.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Hello from the loopback model.\n');
    assert.equal(readdirSync(join(s.env.LOCI_HOME!, 'chat')).length, 1);
    s.cleanup();
  });

  for (const [provider, route] of [
    ['openai', 'openai.chat'],
    ['ollama', 'ollama.chat'],
  ] as const) {
    it(`runs a tool round over the ${provider} protocol`, async () => {
      const s = setup();
      server.reply(
        route,
        streamReply(route, { toolCalls: [{ id: 'call_1', name: 'list', input: { pattern: 'src/**' } }] }),
        streamReply(route, { text: 'One source file.', usage: { input: 50, output: 5 } }),
      );
      const before = server.requestsTo(route).length;
      const r = await lociIn(['chat', '-p', 'how many source files?', '--json'], {
        cwd: s.project,
        env: { ...s.env, LOCI_LLM_PROVIDER: provider, LOCI_LLM_MODEL: 'llama3.2' },
      });
      assert.equal(r.code, 0, r.stderr);
      const doc = JSON.parse(r.stdout);
      assert.equal(doc.answer, 'One source file.');
      assert.equal(doc.turns, 2);
      const second = server.requestsTo(route)[before + 1]!.body;
      assert.equal(second.messages[0].role, 'system');
      assert.equal(typeof second.messages[0].content, 'string');
      const tool = second.messages.find((m: { role: string }) => m.role === 'tool');
      assert.equal(tool.content, 'src/auth/token.ts');
      s.cleanup();
    });
  }

  it('reads piped lines one after the other without a terminal (none lost while a turn runs)', async () => {
    const s = setup();
    server.reply(ROUTE, streamReply(ROUTE, { text: 'First answer.' }), streamReply(ROUTE, { text: 'Second answer.' }));
    const r = await lociAsync(['chat'], {
      cwd: s.project,
      env: s.env,
      input: 'first question here\nsecond question here\n/context\n',
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /First answer\.[\s\S]*Second answer\.[\s\S]*section\s+tokens\s+of window/);
    s.cleanup();
  });

  it('rejects an unknown tool in --allow', async () => {
    const s = setup();
    const r = await lociIn(['chat', '-p', 'x', '--allow', 'read,teleport'], { cwd: s.project, env: s.env });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /invalid --allow/);
    s.cleanup();
  });

  it('without an LLM: one line naming the variables to set, exit 2', async () => {
    const s = setup();
    const r = await lociIn(['chat', '-p', 'hello'], {
      cwd: s.project,
      env: { ...s.env, LOCI_LLM_PROVIDER: '' },
    });
    assert.equal(r.code, 2);
    assert.equal(r.stderr.trim().split('\n').length, 1);
    assert.match(r.stderr, /LOCI_LLM_PROVIDER.*LOCI_LLM_API_KEY.*LOCI_LLM_BASE_URL.*\[CHAT_PROVIDER_MISSING\]/);
    s.cleanup();
  });
});
