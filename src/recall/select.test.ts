/**
 * @module recall/select.test
 * Memory selection with a scripted LLM on the loopback server (Anthropic, OpenAI-compatible and
 * Ollama wire shapes, recorded answers), with failing, slow and garbage LLMs, and without any LLM.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { startLoopback, type Loopback } from '../../test/helpers/loopback.js';
import { memoryFixture, recordedQuery, selectorReply, selectorRequest } from '../../test/fixtures/recall/support.js';
import { createLlmProvider, type LlmProvider } from '../providers/index.js';
import { parseSelectionAnswer, resolveNames, selectRelevantMemories } from './index.js';
import type { MemoryEntry } from '../memdir/index.js';

let server: Loopback;
let f: ReturnType<typeof memoryFixture>;
before(async () => {
  server = await startLoopback();
});
after(() => server.close());
beforeEach(() => {
  f = memoryFixture();
});
afterEach(() => f.cleanup());

const env = { ANTHROPIC_API_KEY: 'sk-ant-test', OPENAI_API_KEY: 'sk-test' };
const noRetry = { maxRetries: 0 };
const anthropic = () => createLlmProvider({ provider: 'anthropic', baseUrl: server.url, ...noRetry }, { env });
const openai = () => createLlmProvider({ provider: 'openai', baseUrl: server.url, ...noRetry }, { env });
const ollama = () => createLlmProvider({ provider: 'ollama', baseUrl: server.url, ...noRetry }, { env });

describe('selectRelevantMemories with a scripted LLM', () => {
  it('anthropic: sends the recorded selector request and returns the chosen files', async () => {
    server.reply('anthropic.messages', selectorReply('anthropic.select'));
    const sel = await selectRelevantMemories(recordedQuery(), { dir: f.dir, provider: anthropic() });
    assert.deepEqual(sel, { files: ['feedback_testing.md', 'team/reference_ci.md'], selector: 'llm' });
    assert.deepEqual(server.requestsTo('anthropic.messages').at(-1)!.body, selectorRequest('anthropic.select'));
  });

  it('openai-compatible: same prompt as a system message', async () => {
    server.reply('openai.chat', selectorReply('openai.select'));
    const sel = await selectRelevantMemories(recordedQuery(), { dir: f.dir, provider: openai() });
    assert.deepEqual(sel, { files: ['feedback_testing.md'], selector: 'llm' });
    assert.deepEqual(server.requestsTo('openai.chat').at(-1)!.body, selectorRequest('openai.select'));
  });

  it('ollama: a fenced answer with a bare basename resolves to team/reference_ci.md', async () => {
    server.reply('ollama.chat', selectorReply('ollama.select'));
    const sel = await selectRelevantMemories(recordedQuery(), { dir: f.dir, provider: ollama() });
    assert.deepEqual(sel, { files: ['team/reference_ci.md', 'feedback_testing.md'], selector: 'llm' });
    assert.deepEqual(server.requestsTo('ollama.chat').at(-1)!.body, selectorRequest('ollama.select'));
  });

  it('the prompt is selective: at most N files, "none" allowed, JSON only, data not instructions', async () => {
    server.reply('anthropic.messages', selectorReply('anthropic.select'));
    await selectRelevantMemories(recordedQuery(), { dir: f.dir, provider: anthropic(), max: 3 });
    const body = server.requestsTo('anthropic.messages').at(-1)!.body as {
      system: string;
      messages: { content: string }[];
    };
    assert.match(body.system, /clearly be useful/);
    assert.match(body.system, /at most 3\./);
    assert.match(body.system, /\[\] is a valid/);
    assert.match(body.system, /only a JSON array of filenames/);
    assert.match(body.system, /Ignore any instructions/);
    assert.doesNotMatch(body.messages[0]!.content, /npm publish/, 'bodies are never sent, only descriptions');
  });

  it('prose around a fenced array, and an object wrapping the list, are parsed', async () => {
    server.reply('anthropic.messages', selectorReply('anthropic.select_prose'));
    assert.deepEqual(await selectRelevantMemories(recordedQuery(), { dir: f.dir, provider: anthropic() }), {
      files: ['feedback_testing.md'],
      selector: 'llm',
    });
    server.reply('openai.chat', selectorReply('openai.select_object'));
    assert.deepEqual((await selectRelevantMemories(recordedQuery(), { dir: f.dir, provider: openai() })).files, [
      'feedback_testing.md',
      'project_auth_migration.md',
    ]);
  });

  it('an empty answer is a valid "none" (no search fallback)', async () => {
    server.reply('openai.chat', selectorReply('openai.select_none'));
    const sel = await selectRelevantMemories(recordedQuery(), { dir: f.dir, provider: openai() });
    assert.deepEqual(sel.files, []);
    assert.equal(sel.selector, 'llm');
  });

  it('caps the answer at max and drops repeats', async () => {
    server.reply('anthropic.messages', selectorReply('anthropic.select_too_many'));
    const sel = await selectRelevantMemories(recordedQuery(), { dir: f.dir, provider: anthropic() });
    assert.equal(sel.files.length, 5);
    assert.equal(new Set(sel.files).size, 5);
  });

  it('excludes already surfaced files from the manifest and from the answer', async () => {
    server.reply('anthropic.messages', selectorReply('anthropic.select'));
    const sel = await selectRelevantMemories(recordedQuery(), {
      dir: f.dir,
      provider: anthropic(),
      alreadySurfaced: new Set(['feedback_testing.md']),
    });
    assert.deepEqual(sel.files, ['team/reference_ci.md']);
    const content = (server.requestsTo('anthropic.messages').at(-1)!.body as { messages: { content: string }[] })
      .messages[0]!.content;
    assert.doesNotMatch(content, /feedback_testing\.md/);
  });
});

describe('selectRelevantMemories falls back to search', () => {
  const fellBack = (sel: { files: string[]; selector: string; reason?: string }, why: RegExp) => {
    assert.equal(sel.selector, 'search');
    assert.match(sel.reason ?? '', why);
    assert.match(sel.reason ?? '', /used search/);
    assert.ok(sel.files.includes('feedback_testing.md'), `search found the testing memory: ${JSON.stringify(sel)}`);
  };

  it('on an HTTP error', async () => {
    server.reply('anthropic.messages', {
      status: 500,
      body: { type: 'error', error: { type: 'api_error', message: 'Internal server error' } },
    });
    fellBack(
      await selectRelevantMemories(recordedQuery(), { dir: f.dir, provider: anthropic() }),
      /HTTP 500|api_error/,
    );
  });

  it('on a dropped connection', async () => {
    server.reply('openai.chat', { fail: 'reset' });
    fellBack(await selectRelevantMemories(recordedQuery(), { dir: f.dir, provider: openai() }), /failed/);
  });

  it('on a slow model (timeout)', async () => {
    server.reply('ollama.chat', { fail: 'hang' });
    fellBack(
      await selectRelevantMemories(recordedQuery(), { dir: f.dir, provider: ollama(), timeoutMs: 150 }),
      /timed out after 150 ms/,
    );
  });

  it('on a provider that ignores its abort signal and never answers', async () => {
    const stuck: LlmProvider = { name: 'openai', model: 'stuck', complete: () => new Promise(() => {}) };
    fellBack(
      await selectRelevantMemories(recordedQuery(), { dir: f.dir, provider: stuck, timeoutMs: 50 }),
      /timed out/,
    );
  });

  it('on a garbage answer', async () => {
    server.reply('ollama.chat', selectorReply('ollama.select_garbage'));
    fellBack(await selectRelevantMemories(recordedQuery(), { dir: f.dir, provider: ollama() }), /unreadable answer/);
  });

  it('on an answer naming only unknown files (path traversal included)', async () => {
    server.reply('anthropic.messages', selectorReply('anthropic.select_unknown'));
    fellBack(await selectRelevantMemories(recordedQuery(), { dir: f.dir, provider: anthropic() }), /unknown files/);
  });

  it('on malformed JSON from the server', async () => {
    server.reply('anthropic.messages', { fail: 'malformed' });
    fellBack(await selectRelevantMemories(recordedQuery(), { dir: f.dir, provider: anthropic() }), /failed/);
  });
});

describe('selectRelevantMemories without an LLM', () => {
  it('selects by hybrid search over name, description and body', async () => {
    assert.deepEqual(await selectRelevantMemories('how do we run the integration tests?', { dir: f.dir }), {
      files: ['feedback_testing.md'],
      selector: 'search',
    });
    assert.deepEqual((await selectRelevantMemories('OAuth2 deadline for the auth rewrite', { dir: f.dir })).files, [
      'project_auth_migration.md',
    ]);
    assert.deepEqual(
      (await selectRelevantMemories('staging rollback', { dir: f.dir })).files,
      ['project_deploy_notes.md'],
      'a file without frontmatter is found by its body',
    );
    assert.deepEqual((await selectRelevantMemories('flaky dashboard', { dir: f.dir })).files, ['team/reference_ci.md']);
  });

  it('returns nothing, with a reason: nothing matches, everything was surfaced, or no files', async () => {
    const miss = await selectRelevantMemories('kubernetes helm chart values', { dir: f.dir });
    assert.deepEqual(miss, { files: [], selector: 'search', reason: 'no memory matched the query' });
    const all = new Set([
      'feedback_testing.md',
      'feedback_release.md',
      'project_auth_migration.md',
      'project_deploy_notes.md',
      'team/reference_ci.md',
      'user_role.md',
    ]);
    assert.match(
      (await selectRelevantMemories('integration tests', { dir: f.dir, alreadySurfaced: all })).reason!,
      /already surfaced/,
    );
    assert.match(
      (await selectRelevantMemories('integration tests', { dir: `${f.root}/nowhere` })).reason!,
      /no memory files/,
    );
    assert.equal((await selectRelevantMemories('   ', { dir: f.dir })).reason, 'empty query');
  });

  it('an aborted selection returns no files and does not search', async () => {
    const ac = new AbortController();
    ac.abort();
    assert.deepEqual(await selectRelevantMemories('integration tests', { dir: f.dir, signal: ac.signal }), {
      files: [],
      selector: 'search',
      reason: 'aborted',
    });
  });

  it('never throws: an unreadable directory path becomes a reason', async () => {
    const sel = await selectRelevantMemories('integration tests', { dir: '\0bad' });
    assert.deepEqual(sel.files, []);
    assert.equal(sel.selector, 'search');
  });
});

describe('parseSelectionAnswer and resolveNames', () => {
  it('reads arrays in fences, prose, objects and cut-off answers; rejects garbage', () => {
    assert.deepEqual(parseSelectionAnswer('["a.md", "b.md"]'), ['a.md', 'b.md']);
    assert.deepEqual(parseSelectionAnswer('[]'), []);
    assert.deepEqual(parseSelectionAnswer('Sure! ```json\n["a.md"]\n``` hope it helps'), ['a.md']);
    assert.deepEqual(parseSelectionAnswer('I pick [1] no wait: ["a.md"]'), ['a.md']);
    assert.deepEqual(parseSelectionAnswer('{"selected_memories": [{"file": "a.md"}]}'), ['a.md']);
    assert.deepEqual(parseSelectionAnswer('["feedback_testing.md", "reference_ci.md"'), [
      'feedback_testing.md',
      'reference_ci.md',
    ]);
    assert.deepEqual(parseSelectionAnswer('["a \\"q\\".md"]'), ['a "q".md']);
    assert.equal(parseSelectionAnswer('The testing memory looks relevant.'), undefined);
    assert.equal(parseSelectionAnswer('[1, 2]'), undefined);
    assert.equal(parseSelectionAnswer(''), undefined);
  });

  it('maps names to manifest files and drops unknown ones', () => {
    const entries = ['feedback_testing.md', 'team/reference_ci.md', 'Project_X.md'].map(
      (file) => ({ file }) as MemoryEntry,
    );
    assert.deepEqual(
      resolveNames(
        ['./feedback_testing.md', 'reference_ci', 'project_x.md', '`feedback_testing.md`', 'nope.md', '../etc/passwd'],
        entries,
      ),
      ['feedback_testing.md', 'team/reference_ci.md', 'Project_X.md'],
    );
  });
});
