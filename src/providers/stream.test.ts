/** @module providers/stream.test — streamed agent turns of the three providers against the loopback server. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isLociError } from '../core/errors.js';
import { recordingSleep, startLoopback, type Loopback } from '../../test/helpers/loopback.js';
import { rateLimited, streamReply, type ChatRoute } from '../../test/helpers/stream-replies.js';
import { createLlmProvider, type ProviderName, type StreamEvent, type StreamRequest } from './index.js';

let server: Loopback;
before(async () => {
  server = await startLoopback();
});
after(() => server.close());

const ROUTES: Record<ProviderName, ChatRoute> = {
  anthropic: 'anthropic.messages',
  openai: 'openai.chat',
  ollama: 'ollama.chat',
};

function provider(name: ProviderName, deps: { sleep?: (ms: number) => Promise<void> } = {}, timeoutMs?: number) {
  return createLlmProvider(
    { provider: name, baseUrl: server.url, ...(timeoutMs ? { timeoutMs } : {}) },
    { env: { LOCI_LLM_API_KEY: 'k' }, ...deps },
  );
}

async function collect(it: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const e of it) out.push(e);
  return out;
}

async function failure(p: Promise<unknown>): Promise<{ code: string; status?: unknown }> {
  try {
    await p;
  } catch (e) {
    if (isLociError(e)) return { code: e.code, status: (e.details as { status?: unknown }).status };
    throw e;
  }
  assert.fail('expected an error');
}

const READ_TOOL = {
  name: 'read',
  description: 'Read a file',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

const TOOL_TURN: StreamRequest = {
  system: [{ text: 'You are Loci.', cache: true }, { text: 'Today is Monday.' }],
  messages: [
    { role: 'user', content: 'read a.ts' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a.ts' } }] },
    { role: 'user', content: [{ type: 'tool_result', toolUseId: 'toolu_1', content: 'export const a = 1;' }] },
  ],
  tools: [READ_TOOL],
};

for (const name of ['anthropic', 'openai', 'ollama'] as const) {
  const route = ROUTES[name];
  describe(`${name} stream`, () => {
    it('streams text deltas and tool calls, then done with the message and usage', async () => {
      server.reply(
        route,
        streamReply(route, {
          text: 'Let me look at the file.',
          toolCalls: [{ id: 'c1', name: 'read', input: { path: 'src/a.ts', lines: [1, 20] } }],
          usage: { input: 321, output: 45, cacheRead: 200, cacheCreation: 50 },
        }),
      );
      const events = await collect(provider(name).stream(TOOL_TURN));
      const text = events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('');
      assert.equal(text, 'Let me look at the file.');
      assert.ok(events.filter((e) => e.type === 'text').length > 1, 'text arrives in several deltas');
      const uses = events.flatMap((e) => (e.type === 'tool_use' ? [e.block] : []));
      assert.equal(uses.length, 1);
      assert.equal(uses[0]!.name, 'read');
      assert.deepEqual(uses[0]!.input, { path: 'src/a.ts', lines: [1, 20] });
      const done = events.at(-1)!;
      assert.equal(done.type, 'done');
      if (done.type !== 'done') return;
      assert.equal(done.model, 'loopback-model');
      assert.deepEqual(done.message, {
        role: 'assistant',
        content: [{ type: 'text', text: 'Let me look at the file.' }, uses[0]],
      });
      const expected = {
        anthropic: { inputTokens: 321, outputTokens: 45, cacheReadTokens: 200, cacheCreationTokens: 50 },
        openai: { inputTokens: 321, outputTokens: 45, cacheReadTokens: 200, cacheCreationTokens: 0 },
        ollama: { inputTokens: 321, outputTokens: 45, cacheReadTokens: 0, cacheCreationTokens: 0 },
      }[name];
      assert.deepEqual(done.usage, expected);
      assert.equal(done.stopReason, { anthropic: 'tool_use', openai: 'tool_calls', ollama: 'stop' }[name]);
    });

    it('sends tools, tool results and the system prompt in the protocol shape', async () => {
      await collect(provider(name).stream(TOOL_TURN));
      const body = server.requestsTo(route).at(-1)!.body;
      assert.equal(body.stream, true);
      if (name === 'anthropic') {
        assert.deepEqual(body.system, [
          { type: 'text', text: 'You are Loci.', cache_control: { type: 'ephemeral' } },
          { type: 'text', text: 'Today is Monday.' },
        ]);
        assert.deepEqual(body.tools, [
          { name: 'read', description: 'Read a file', input_schema: READ_TOOL.inputSchema },
        ]);
        assert.deepEqual(body.messages[2].content, [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'export const a = 1;' },
        ]);
        assert.equal(body.max_tokens, 4096);
      } else {
        assert.deepEqual(body.messages[0], { role: 'system', content: 'You are Loci.\n\nToday is Monday.' });
        assert.deepEqual(body.tools, [
          {
            type: 'function',
            function: { name: 'read', description: 'Read a file', parameters: READ_TOOL.inputSchema },
          },
        ]);
        const call = body.messages[2].tool_calls[0];
        assert.equal(call.function.name, 'read');
        if (name === 'openai') {
          assert.deepEqual(body.stream_options, { include_usage: true });
          assert.equal(call.function.arguments, '{"path":"a.ts"}');
          assert.deepEqual(body.messages[3], { role: 'tool', tool_call_id: 'toolu_1', content: 'export const a = 1;' });
        } else {
          assert.deepEqual(call.function.arguments, { path: 'a.ts' });
          assert.deepEqual(body.messages[3], { role: 'tool', content: 'export const a = 1;', tool_name: 'read' });
        }
      }
    });

    it('retries a 429 before the first byte, honouring retry-after', async () => {
      const { sleep, waits } = recordingSleep();
      server.reply(route, rateLimited(route, 3), streamReply(route, { text: 'after the wait' }));
      const before = server.requestsTo(route).length;
      const events = await collect(provider(name, { sleep }).stream({ messages: [{ role: 'user', content: 'hi' }] }));
      assert.deepEqual(waits, [3000]);
      assert.equal(server.requestsTo(route).length - before, 2);
      const done = events.at(-1)!;
      assert.ok(done.type === 'done' && JSON.stringify(done.message).includes('after the wait'));
    });

    it('fails on an error inside the stream without retrying', async () => {
      const { sleep, waits } = recordingSleep();
      server.reply(route, streamReply(route, { text: 'partial', error: 'Overloaded' }));
      const before = server.requestsTo(route).length;
      const f = await failure(
        collect(provider(name, { sleep }).stream({ messages: [{ role: 'user', content: 'x' }] })),
      );
      assert.equal(f.code, 'PROVIDER_FAILED');
      assert.deepEqual(waits, []);
      assert.equal(server.requestsTo(route).length - before, 1);
    });

    it('fails when the stream ends before its closing event', async () => {
      server.reply(route, streamReply(route, { text: 'cut', truncate: true }));
      const f = await failure(collect(provider(name).stream({ messages: [{ role: 'user', content: 'x' }] })));
      assert.equal(f.code, 'PROVIDER_FAILED');
    });

    it('times out when the stream goes silent', async () => {
      server.reply(route, streamReply(route, { text: 'then silence', truncate: true, hang: true }));
      const f = await failure(collect(provider(name, {}, 300).stream({ messages: [{ role: 'user', content: 'x' }] })));
      assert.equal(f.code, 'TIMEOUT');
    });

    it('does not retry a 401 and reports its status', async () => {
      const { sleep, waits } = recordingSleep();
      server.reply(route, { status: 401, body: { error: { type: 'authentication_error', message: 'bad key' } } });
      const f = await failure(
        collect(provider(name, { sleep }).stream({ messages: [{ role: 'user', content: 'x' }] })),
      );
      assert.deepEqual(f, { code: 'PROVIDER_FAILED', status: 401 });
      assert.deepEqual(waits, []);
    });

    it('raises ABORTED when the caller aborts mid-stream', async () => {
      server.reply(route, streamReply(route, { text: 'a long answer that never ends', truncate: true, hang: true }));
      const ac = new AbortController();
      const events: StreamEvent[] = [];
      const run = (async () => {
        for await (const e of provider(name).stream({
          messages: [{ role: 'user', content: 'x' }],
          signal: ac.signal,
        })) {
          events.push(e);
          ac.abort();
        }
      })();
      const f = await failure(run);
      assert.equal(f.code, 'ABORTED');
      assert.ok(events.length >= 1);
    });
  });
}

describe('stream requests', () => {
  it('rejects an empty conversation and malformed blocks with INVALID_ARGUMENT', async () => {
    const llm = provider('anthropic');
    assert.equal((await failure(collect(llm.stream({ messages: [] })))).code, 'INVALID_ARGUMENT');
    const bad = { role: 'user' as const, content: [{ type: 'image' }] as never };
    assert.equal((await failure(collect(llm.stream({ messages: [bad] })))).code, 'INVALID_ARGUMENT');
  });

  it('keeps text blocks of a user turn as separate paragraphs for chat-completions servers', async () => {
    const content = [
      { type: 'text' as const, text: '<system-reminder>a memory</system-reminder>' },
      { type: 'text' as const, text: 'the prompt' },
    ];
    await collect(provider('openai').stream({ messages: [{ role: 'user', content }] }));
    const sent = server.requestsTo('openai.chat').at(-1)!.body.messages;
    assert.deepEqual(sent, [{ role: 'user', content: '<system-reminder>a memory</system-reminder>\n\nthe prompt' }]);
  });

  it('separates tool calls of servers that send no index, by their ids', async () => {
    const chunk = (delta: unknown, finish: string | null = null) =>
      `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const call = (id: string, name: string, args: string) => ({
      tool_calls: [{ id, type: 'function', function: { name, arguments: args } }],
    });
    server.reply('openai.chat', {
      chunks: [
        chunk(call('call_a', 'read', '{"path":"a.ts"}')),
        chunk(call('call_b', 'read', '{"path":"b.ts"}')),
        chunk({}, 'tool_calls'),
        'data: [DONE]\n\n',
      ],
    });
    const events = await collect(provider('openai').stream({ messages: [{ role: 'user', content: 'x' }] }));
    const uses = events.flatMap((e) => (e.type === 'tool_use' ? [[e.block.id, e.block.input['path']]] : []));
    assert.deepEqual(uses, [
      ['call_a', 'a.ts'],
      ['call_b', 'b.ts'],
    ]);
  });

  it('answers a streamed request by default with a short text (the loopback default handler)', async () => {
    const events = await collect(provider('openai').stream({ messages: [{ role: 'user', content: 'hi' }] }));
    const done = events.at(-1)!;
    assert.ok(done.type === 'done');
    assert.deepEqual(done.message, { role: 'assistant', content: [{ type: 'text', text: 'ok' }] });
  });
});
