/**
 * @module test/e2e/recall-cli
 * `loci recall …` through the CLI's entry function in-process (`lociIn`) — search, an LLM on the
 * loopback server via LOCI_LLM_* variables, session state, palace drawers, the default directory —
 * and through `runCli` with a hand-made IO.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { runCli } from '../../src/cli/main.js';
import type { CliIO } from '../../src/cli/context.js';
import { lociIn } from '../helpers/cli-in-process.js';
import { startLoopback, type Loopback } from '../helpers/loopback.js';
import { memoryFixture, recordedQuery, selectorReply } from '../fixtures/recall/support.js';

const QUERY = 'how do we run the integration tests?';

/** Environment isolating Claude Code's and Loci's homes, with no LLM configured. */
function envFor(root: string): NodeJS.ProcessEnv {
  return {
    HOME: join(root, 'userhome'),
    LOCI_HOME: join(root, 'home'),
    CLAUDE_CONFIG_DIR: '',
    CLAUDE_CODE_PROJECT_DIR_NAME: '',
    CLAUDE_CODE_DISABLE_AUTO_MEMORY: '',
    LOCI_LLM_PROVIDER: '',
    LOCI_LLM_BASE_URL: '',
    LOCI_LLM_API_KEY: '',
  };
}

let f: ReturnType<typeof memoryFixture>;
beforeEach(() => {
  f = memoryFixture();
});
afterEach(() => f.cleanup());

describe('loci recall (CLI)', () => {
  let server: Loopback;
  before(async () => {
    server = await startLoopback();
  });
  after(() => server.close());

  test('--json prints memories, text and selector; plain output is exactly the text', async () => {
    const j = await lociIn(['recall', QUERY, '--dir', f.dir, '--json'], { env: envFor(f.root) });
    assert.equal(j.code, 0, j.stderr);
    const out = JSON.parse(j.stdout);
    assert.equal(out.selector, 'search');
    assert.deepEqual(
      out.memories.map((m: { file: string }) => m.file),
      ['feedback_testing.md'],
    );
    const m = out.memories[0];
    assert.equal(m.type, 'feedback');
    assert.ok(Number.isInteger(m.age_days) && m.age_days > 1);
    assert.ok(m.bytes > 0 && m.bytes <= 4096);
    assert.match(
      out.text,
      /^<system-reminder>\n[\s\S]*<memory file="feedback_testing.md"[\s\S]*\n<\/system-reminder>$/,
    );
    assert.match(out.text, /days old\. Memories are point-in-time observations/);

    const plain = await lociIn(['recall', QUERY, '--dir', f.dir], { env: envFor(f.root) });
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(plain.stdout, `${out.text}\n`);
    assert.equal(plain.stderr, '');
  });

  test('nothing to recall: empty stdout, the reason on stderr, exit 0', async () => {
    const r = await lociIn(['recall', 'kubernetes helm chart values', '--dir', f.dir], { env: envFor(f.root) });
    assert.equal(r.code, 0);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /no memory matched the query/);
  });

  test('LOCI_LLM_PROVIDER selects with the model on the loopback server', async () => {
    server.reply('anthropic.messages', selectorReply('anthropic.select'));
    const env = {
      ...envFor(f.root),
      LOCI_LLM_PROVIDER: 'anthropic',
      LOCI_LLM_BASE_URL: server.url,
      LOCI_LLM_API_KEY: 'sk-ant-test',
    };
    const r = await lociIn(['recall', recordedQuery(), '--dir', f.dir, '--json'], { env });
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.selector, 'llm');
    assert.deepEqual(
      out.memories.map((m: { file: string }) => m.file),
      ['feedback_testing.md', 'team/reference_ci.md'],
    );
    assert.equal(server.requestsTo('anthropic.messages').at(-1)!.headers['x-api-key'], 'sk-ant-test');
  });

  test('--llm with a garbage-answering model falls back to search and says so', async () => {
    server.reply('ollama.chat', selectorReply('ollama.select_garbage'));
    const env = { ...envFor(f.root), LOCI_LLM_PROVIDER: 'ollama', LOCI_LLM_BASE_URL: server.url };
    const r = await lociIn(['recall', QUERY, '--dir', f.dir, '--llm', '--json'], { env });
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.selector, 'search');
    assert.match(out.reason, /llm selector failed \(unreadable answer/);
    assert.deepEqual(
      out.memories.map((m: { file: string }) => m.file),
      ['feedback_testing.md'],
    );
  });

  test('--llm without a configured provider is a user error', async () => {
    const r = await lociIn(['recall', QUERY, '--dir', f.dir, '--llm'], { env: envFor(f.root) });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--llm needs an LLM provider.*LOCI_LLM_PROVIDER.*\[RECALL_PROVIDER_MISSING\]/);
  });

  test('--session --record: a memory is injected once per session and bytes add up', async () => {
    const env = envFor(f.root);
    const run = async () =>
      JSON.parse(
        (await lociIn(['recall', QUERY, '--dir', f.dir, '--session', 'sess-42', '--record', '--json'], { env })).stdout,
      );
    const first = await run();
    assert.ok(first.memories.some((m: { file: string }) => m.file === 'feedback_testing.md'));
    const second = await run();
    assert.ok(!second.memories.some((m: { file: string }) => m.file === 'feedback_testing.md'));
    assert.ok(existsSync(join(f.root, 'home', 'sessions', 'sess-42.json')));
    const preview = JSON.parse(
      (await lociIn(['recall', QUERY, '--dir', f.dir, '--session', 'sess-42', '--json'], { env })).stdout,
    );
    assert.ok(
      !preview.memories.some((m: { file: string }) => m.file === 'feedback_testing.md'),
      'the state is applied without --record too',
    );
  });

  test('--with-drawers adds mined palace drawers within 10,000 characters', async () => {
    const env = envFor(f.root);
    const docs = join(f.root, 'project', 'docs');
    mkdirSync(docs, { recursive: true });
    writeFileSync(
      join(docs, 'testing.md'),
      '# Testing\n\nThe integration tests need the docker compose stack: run `make test-integration`.\n',
    );
    const mined = await lociIn(['mine', join(f.root, 'project'), '--json'], { env });
    assert.equal(mined.code, 0, mined.stderr);
    const r = await lociIn(['recall', QUERY, '--dir', f.dir, '--with-drawers', '--json'], { env });
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.ok(out.drawers.length >= 1);
    assert.equal(out.drawers[0].source, join(docs, 'testing.md'));
    assert.ok(out.chars <= 10_000 && out.text.length === out.chars);
    assert.match(out.text, /<drawer id="[^"]+" source="[^"]*testing\.md"/);
  });

  test('without --dir it uses the directory `loci memory` uses', async () => {
    const env = envFor(f.root);
    const repo = join(f.root, 'widget');
    mkdirSync(repo);
    execFileSync('git', ['init', '-q', repo]);
    execFileSync('git', ['-C', repo, 'remote', 'add', 'origin', 'git@example.com:acme/widget.git']);
    const add = await lociIn(
      [
        'memory',
        'add',
        '--type',
        'project',
        '--name',
        'Release train',
        '--description',
        'Releases ship every second Tuesday',
        '--body',
        'The release train leaves every second Tuesday at 10:00 UTC.',
      ],
      { cwd: repo, env },
    );
    assert.equal(add.code, 0, add.stderr);
    const where = JSON.parse((await lociIn(['memory', 'where', '--json'], { cwd: repo, env })).stdout);
    const out = JSON.parse(
      (await lociIn(['recall', 'when does the release train leave?', '--json'], { cwd: repo, env })).stdout,
    );
    assert.equal(out.dir, where.dir);
    assert.deepEqual(
      out.memories.map((m: { file: string }) => m.file),
      ['project_release-train.md'],
    );
  });
});

describe('loci recall (in-process runCli)', () => {
  function io(root: string): CliIO & { out: string; err: string } {
    const o = {
      out: '',
      err: '',
      stdout: (s: string) => void (o.out += s),
      stderr: (s: string) => void (o.err += s),
      isTTY: false,
      readStdin: async () => '',
      env: envFor(root),
      cwd: root,
    };
    return o;
  }

  test('prints the injection, --json has the documented fields, errors exit 2', async () => {
    const a = io(f.root);
    assert.equal(
      await runCli(['recall', 'how', 'do', 'we', 'run', 'the', 'integration', 'tests?', '--dir', f.dir, '--json'], a),
      0,
      a.err,
    );
    const out = JSON.parse(a.out);
    for (const k of ['memories', 'text', 'selector']) assert.ok(k in out, k);
    assert.deepEqual(
      Object.keys(out.memories[0])
        .filter((k) => ['file', 'type', 'age_days', 'bytes'].includes(k))
        .sort(),
      ['age_days', 'bytes', 'file', 'type'],
    );

    const b = io(f.root);
    assert.equal(await runCli(['recall', QUERY, '--dir', f.dir], b), 0);
    assert.equal(b.out, `${out.text}\n`);

    const c = io(f.root);
    assert.equal(await runCli(['recall', QUERY, '--record'], c), 2);
    assert.match(c.err, /--record.*--session/);

    const d = io(f.root);
    assert.equal(await runCli(['recall', QUERY, '--dir', f.dir, '--timeout', 'soon'], d), 2);
    assert.match(d.err, /invalid --timeout/);
  });

  test('a misconfigured LOCI_LLM_PROVIDER is reported and search selects; with --llm it is an error', async () => {
    const noKey = io(f.root);
    noKey.env = { ...noKey.env, LOCI_LLM_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: '' };
    assert.equal(await runCli(['recall', QUERY, '--dir', f.dir, '--json'], noKey), 0);
    assert.equal(JSON.parse(noKey.out).selector, 'search');
    assert.match(noKey.err, /cannot be used \(anthropic needs an API key/);

    const strict = io(f.root);
    strict.env = noKey.env;
    assert.equal(await runCli(['recall', QUERY, '--dir', f.dir, '--llm'], strict), 2);
    assert.match(strict.err, /\[PROVIDER_KEY_MISSING\]/);
  });
});
