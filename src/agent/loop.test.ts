/**
 * @module agent/loop.test — the agent loop against the streaming loopback server, with a small
 * in-memory conversation behind the `AgentContext` port.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { addMemory } from '../memdir/index.js';
import { createLlmProvider, type AgentMessage, type TokenUsage } from '../providers/index.js';
import { startLoopback, type Loopback } from '../../test/helpers/loopback.js';
import { streamReply } from '../../test/helpers/stream-replies.js';
import { createAgent, FILE_TOOLS, replayMessages, SHELL_TOOL, type AgentContext, type AgentEvent } from './index.js';

let server: Loopback;
before(async () => {
  server = await startLoopback();
});
after(() => server.close());

/** A conversation kept in an array; tool results over 200 characters are "persisted" (replaced by a preview). */
function memoryContext() {
  const messages: AgentMessage[] = [];
  const usages: TokenUsage[] = [];
  let archived = 0;
  const ctx: AgentContext & { usages: TokenUsage[]; archived(): number } = {
    sessionId: 'test-session',
    usages,
    archived: () => archived,
    appendUser(text, options) {
      const m: AgentMessage = {
        role: 'user',
        content: options?.memories
          ? [
              { type: 'text', text: options.memories },
              { type: 'text', text },
            ]
          : text,
      };
      messages.push(m);
      return m;
    },
    appendAssistant: (m) => void messages.push(m),
    appendToolResults(results) {
      const m: AgentMessage = {
        role: 'user',
        content: results.map((r) => ({
          type: 'tool_result' as const,
          toolUseId: r.toolUseId,
          content: r.content.length > 200 ? `${r.content.slice(0, 50)}… [persisted]` : r.content,
          ...(r.isError ? { isError: true } : {}),
        })),
      };
      messages.push(m);
      return m;
    },
    prepare: async () => ({ request: { system: 'You are a test agent.', messages: [...messages] } }),
    recordUsage: (u) => void usages.push(u),
    flushArchive: async () => {
      archived = messages.length;
      return archived;
    },
    messages: () => [...messages],
  };
  return ctx;
}

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'loci-loop-'));
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'a.ts'), 'export const answer = 42;\n');
  writeFileSync(join(dir, 'src', 'big.ts'), `${'// filler line\n'.repeat(100)}`);
  return dir;
}

const provider = () =>
  createLlmProvider({ provider: 'anthropic', baseUrl: server.url }, { env: { LOCI_LLM_API_KEY: 'k' } });

describe('agent loop', () => {
  it('runs tool rounds until the model answers, summing usage', async () => {
    const route = 'anthropic.messages';
    server.reply(
      route,
      streamReply(route, {
        text: 'Reading both files.',
        toolCalls: [
          { id: 't1', name: 'read', input: { path: 'src/a.ts' } },
          { id: 't2', name: 'read', input: { path: 'src/big.ts' } },
        ],
        usage: { input: 100, output: 10, cacheRead: 5 },
      }),
      streamReply(route, { text: 'The answer is 42.', usage: { input: 300, output: 7, cacheCreation: 9 } }),
    );
    const context = memoryContext();
    const events: AgentEvent[] = [];
    const agent = createAgent({ provider: provider(), context, tools: FILE_TOOLS, cwd: project() });
    const r = await agent.runTurn('what is the answer?', { onEvent: (e) => events.push(e) });
    assert.equal(r.answer, 'The answer is 42.');
    assert.equal(r.modelCalls, 2);
    assert.deepEqual(r.usage, { inputTokens: 400, outputTokens: 17, cacheReadTokens: 5, cacheCreationTokens: 9 });
    assert.equal(r.persistedResults, 1);
    assert.equal(context.usages.length, 2);
    assert.equal(context.archived(), 4);
    assert.deepEqual(
      events.filter((e) => e.type === 'tool_call').map((e) => e.type === 'tool_call' && e.input['path']),
      ['src/a.ts', 'src/big.ts'],
    );
    const second = server.requestsTo(route).at(-1)!.body;
    assert.equal(second.tools.length, FILE_TOOLS.length);
    const results = second.messages[2].content;
    assert.equal(results[0].tool_use_id, 't1');
    assert.match(results[0].content, /export const answer = 42;/);
  });

  it('reports unknown tools and declined shell commands to the model as errors', async () => {
    const route = 'anthropic.messages';
    server.reply(
      route,
      streamReply(route, {
        toolCalls: [
          { id: 'u1', name: 'teleport', input: {} },
          { id: 'u2', name: 'shell', input: { command: 'rm -rf /' } },
        ],
      }),
      streamReply(route, { text: 'Understood.' }),
    );
    const agent = createAgent({ provider: provider(), context: memoryContext(), tools: [SHELL_TOOL], cwd: project() });
    await agent.runTurn('do something');
    const results = server.requestsTo(route).at(-1)!.body.messages[2].content;
    assert.equal(results[0].is_error, true);
    assert.match(results[0].content, /unknown tool teleport/);
    assert.equal(results[1].is_error, true);
    assert.match(results[1].content, /declined/);
  });

  it('stops at the model-call limit', async () => {
    const route = 'anthropic.messages';
    const loop = streamReply(route, { toolCalls: [{ name: 'list', input: {} }] });
    server.reply(route, loop, loop);
    const agent = createAgent({
      provider: provider(),
      context: memoryContext(),
      tools: FILE_TOOLS,
      cwd: project(),
      maxModelCalls: 2,
    });
    const r = await agent.runTurn('list forever');
    assert.equal(r.modelCalls, 2);
    assert.equal(r.truncated, true);
  });

  it('injects at most five recalled memories into the prompt', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loci-loop-mem-'));
    for (let i = 0; i < 7; i++) {
      addMemory(dir, {
        type: 'project',
        name: `deploy step ${i}`,
        description: `deploy pipeline staging rollout step ${i}`,
        body: `The deploy pipeline rollout step ${i} runs on staging first.`,
      });
    }
    const context = memoryContext();
    const agent = createAgent({ provider: provider(), context, cwd: project(), recall: { dir, waitMs: 30_000 } });
    const events: AgentEvent[] = [];
    const r = await agent.runTurn('how does the deploy pipeline rollout work on staging?', {
      onEvent: (e) => events.push(e),
    });
    assert.ok(r.memoriesInjected >= 1 && r.memoriesInjected <= 5, `injected ${r.memoriesInjected}`);
    const first = context.messages()[0]!;
    assert.ok(Array.isArray(first.content));
    assert.match(JSON.stringify(first.content[0]), /system-reminder/);
    const shown = events.find((e) => e.type === 'memories');
    assert.ok(shown && shown.type === 'memories' && shown.files.length === r.memoriesInjected);
  });

  it('answers an interrupted call with a note so that the roles keep alternating', async () => {
    const route = 'anthropic.messages';
    server.reply(route, streamReply(route, { text: 'half an answer', error: 'Overloaded' }));
    const context = memoryContext();
    const agent = createAgent({ provider: provider(), context, cwd: project() });
    await assert.rejects(agent.runTurn('hello there'), { code: 'PROVIDER_FAILED' });
    const roles = context.messages().map((m) => m.role);
    assert.deepEqual(roles, ['user', 'assistant']);
    assert.match(JSON.stringify(context.messages()[1]), /half an answer.*the turn was interrupted/);
    assert.equal(context.archived(), 2);
  });

  it('shows the context nudge to the model for the call only, and tells the person', async () => {
    const route = 'anthropic.messages';
    const context = memoryContext();
    const prepare = context.prepare;
    context.prepare = async () => ({ ...(await prepare()), check: { fraction: 0.93, nudge: 'Context 93 % full.' } });
    const events: AgentEvent[] = [];
    await createAgent({ provider: provider(), context, cwd: project() }).runTurn('hi there', {
      onEvent: (e) => events.push(e),
    });
    const sent = server.requestsTo(route).at(-1)!.body.messages.at(-1);
    assert.deepEqual(sent.content, [
      { type: 'text', text: 'hi there' },
      { type: 'text', text: 'Context 93 % full.' },
    ]);
    assert.equal(context.messages()[0]!.content, 'hi there');
    assert.ok(events.some((e) => e.type === 'notice' && e.text.includes('93 %')));
  });

  it('replays saved messages into a fresh context in order', () => {
    const saved: AgentMessage[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'x', name: 'list', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 'x', content: 'a.ts' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'one file' }] },
    ];
    const context = memoryContext();
    replayMessages(context, saved);
    assert.deepEqual(context.messages(), saved);
  });
});
