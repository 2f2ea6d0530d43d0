/**
 * @module test/extract
 * `extractMemories` end to end on synthetic transcripts: the explicit-case fallback, the model path
 * against a loopback Anthropic server (strict answers, one corrective retry), the taxonomy and
 * privacy rules, date rewriting, update instead of duplicate, dry runs, idempotence, CLAUDE.md
 * untouched.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { fixedClock } from '../src/core/clock.js';
import { isLociError } from '../src/core/errors.js';
import { extractMemories } from '../src/extract/index.js';
import { addMemory, listMemories } from '../src/memdir/index.js';
import { createLlmProvider } from '../src/providers/index.js';
import { startLoopback, type Loopback } from './helpers/loopback.js';
import { anthropicText, fakeTranscript } from './helpers/session.js';

let server: Loopback;
let root: string;
let dir: string;
let home: string;
let transcript: ReturnType<typeof fakeTranscript>;
const clock = fixedClock(Date.parse('2026-03-05T12:00:00Z'));

before(async () => {
  server = await startLoopback();
});
after(() => server.close());
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'loci-extract-'));
  dir = join(root, 'memory');
  home = join(root, 'home');
  mkdirSync(dir, { recursive: true });
  transcript = fakeTranscript(join(root, 'sess-1.jsonl'), 'sess-1', '/work/app');
});

function snapshot(d: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(d, { recursive: true, withFileTypes: true })) {
    if (f.isFile()) out[join(f.parentPath, f.name)] = readFileSync(join(f.parentPath, f.name), 'utf8');
  }
  return out;
}

const llm = () =>
  createLlmProvider(
    { provider: 'anthropic', baseUrl: server.url, maxRetries: 0 },
    { env: { ANTHROPIC_API_KEY: 'sk-ant-test' } },
  );

describe('extraction without a model: the explicit cases only', () => {
  it('finds "remember that", "from now on" and "don\'t … again", typed and dated, written in place', async () => {
    transcript.write([
      { user: 'Please fix the login test', at: '2026-03-04T09:00:00Z' },
      { assistant: 'Fixed it.', at: '2026-03-04T09:01:00Z' },
      { user: 'Thanks. From now on, run the linter before you tell me a change is done.', at: '2026-03-04T09:02:00Z' },
      { user: "Don't push to main directly again, open a pull request.", at: '2026-03-04T09:03:00Z' },
      { user: 'Remember that the staging database is wiped every Monday night.', at: '2026-03-04T09:04:00Z' },
      { user: 'Remember that I am the on-call engineer for payments.', at: '2026-03-04T09:05:00Z' },
      { user: 'Also remember that we ship the beta next Friday.', at: '2026-03-04T09:06:00Z' },
    ]);
    writeFileSync(join(root, 'CLAUDE.md'), '# rules\n');
    const r = await extractMemories({ dir, home, transcript: transcript.path, clock });
    assert.equal(r.mode, 'explicit');
    const byType = Object.fromEntries(r.proposals.map((p) => [p.name, p.type]));
    assert.equal(byType['run the linter before you tell'], 'feedback');
    assert.equal(byType['Dont push to main directly again'], 'feedback');
    assert.equal(byType['the staging database is wiped every'], 'project');
    assert.equal(byType['I am the on-call engineer for'], 'user');
    assert.ok(r.proposals.every((p) => p.action === 'add' && /explicit request \(no model\)/.test(p.reason)));
    const mems = listMemories(dir, { limit: Infinity });
    assert.equal(mems.length, 5);
    const beta = readFileSync(join(dir, mems.find((m) => m.name.startsWith('we-ship'))!.file), 'utf8');
    assert.match(beta, /we ship the beta on Friday 2026-03-06/);
    const fb = readFileSync(join(dir, mems.find((m) => m.name.startsWith('run-the-linter'))!.file), 'utf8');
    assert.match(fb, /\*\*Why:\*\* The user asked for it explicitly on 2026-03-04/);
    assert.match(fb, /\*\*How to apply:\*\*/);
    assert.match(fb, /metadata:\n {2}type: feedback\n {2}privacy: private/);
    const user = mems.find((m) => m.type === 'user')!;
    assert.equal(user.privacy, 'private');
    assert.match(readFileSync(join(dir, 'MEMORY.md'), 'utf8'), /\(feedback_run-the-linter/);
    assert.equal(readFileSync(join(root, 'CLAUDE.md'), 'utf8'), '# rules\n');
  });

  it('a second run with nothing new changes nothing; new turns are read alone', async () => {
    transcript.write([{ user: 'From now on, answer in French please.', at: '2026-03-04T09:00:00Z' }]);
    await extractMemories({ dir, home, transcript: transcript.path, clock });
    const before = snapshot(root);
    const again = await extractMemories({ dir, home, transcript: transcript.path, clock });
    assert.deepEqual(again.proposals, []);
    assert.deepEqual(again.turns, { from: 1, to: 1, total: 1 });
    assert.deepEqual(snapshot(root), before);
    transcript.append([{ user: 'Never use tabs in YAML files, use two spaces.', at: '2026-03-04T10:00:00Z' }]);
    const third = await extractMemories({ dir, home, transcript: transcript.path, clock });
    assert.deepEqual(third.turns, { from: 1, to: 2, total: 2 });
    assert.deepEqual(
      third.proposals.map((p) => p.name),
      ['Never use tabs in YAML files'],
    );
    // Reading everything again proposes nothing new: the memories already record it.
    const all = await extractMemories({ dir, home, transcript: transcript.path, clock, all: true });
    assert.deepEqual(all.proposals, []);
    assert.ok(all.skipped.every((s) => s.rule === 'duplicate'));
  });

  it('--dry-run proposes a diff and writes nothing (the cursor does not move)', async () => {
    transcript.write([{ user: 'Remember that the demo for ACME is on Thursday.', at: '2026-03-04T09:00:00Z' }]);
    const before = snapshot(root);
    const r = await extractMemories({ dir, home, transcript: transcript.path, clock, dryRun: true });
    assert.equal(r.written, false);
    assert.deepEqual(snapshot(root), before);
    assert.match(r.diff, /^--- \/dev\/null\n\+\+\+ b\/project_the-demo-for-acme-is-on\.md\n/);
    assert.match(r.diff, /\+the demo for ACME is on Thursday 2026-03-05/i);
    assert.equal(r.proposals[0]!.file, 'project_the-demo-for-acme-is-on.md');
    const real = await extractMemories({ dir, home, transcript: transcript.path, clock });
    assert.equal(real.proposals.length, 1);
  });
});

const answer = (memories: unknown[]) => anthropicText(JSON.stringify({ memories }));

describe('extraction with a model (loopback Anthropic server)', () => {
  it('validates, drops what the code records, rewrites dates, updates instead of duplicating', async () => {
    addMemory(dir, {
      type: 'feedback',
      name: 'small commits',
      description: 'Keep commits small and focused',
      body: 'Keep commits small and focused.',
      why: 'Reviews',
      how: 'Always',
    });
    transcript.write([
      { user: 'Split this into small commits again please, one per concern.', at: '2026-03-04T09:00:00Z' },
      {
        tool: 'Read',
        input: { file_path: '/work/app/src/auth/session.ts' },
        result: 'export function x() {}',
        at: '2026-03-04T09:00:30Z',
      },
      { user: 'Yes, exactly like that. The release freeze starts next Friday.', at: '2026-03-04T09:01:00Z' },
    ]);
    server.reply(
      'anthropic.messages',
      answer([
        {
          type: 'project',
          name: 'session module location',
          description: 'Session handling lives in src/auth/session.ts',
          body: 'Session handling lives in src/auth/session.ts and exports x().',
          why: 'n/a',
          how: 'n/a',
          turn: 1,
          reason: 'structure',
          updates: null,
        },
        {
          type: 'project',
          name: 'release freeze',
          description: 'Release freeze starts next Friday',
          body: 'The release freeze starts next Friday; no feature merges after it.',
          why: 'The user announced it.',
          how: 'Plan work to land before it.',
          turn: 2,
          reason: 'deadline',
          updates: null,
        },
        {
          type: 'feedback',
          name: 'small commits',
          description: 'Keep commits small, one per concern',
          body: 'Keep commits small and focused, one per concern; the user confirmed this split.',
          why: 'The user confirmed the approach.',
          how: 'Split work by concern.',
          turn: 0,
          reason: 'confirmation',
          updates: 'feedback_small-commits.md',
        },
      ]),
    );
    const before = server.requests.length;
    const r = await extractMemories({ dir, home, transcript: transcript.path, clock, provider: llm() });
    assert.equal(r.mode, 'model');
    assert.equal(r.calls, 1);
    const req = server.requests[before]!;
    assert.match(req.body.system, /Types \(closed list\)/);
    assert.match(req.body.messages[0].content, /#0 \[2026-03-04T09:00:00(?:\.000)?Z\] user: Split this/);
    assert.deepEqual(
      r.skipped.map((s) => s.rule),
      ['code-location'],
    );
    assert.deepEqual(
      r.proposals.map((p) => [p.action, p.file]),
      [
        ['add', 'project_release-freeze.md'],
        ['update', 'feedback_small-commits.md'],
      ],
    );
    assert.match(
      readFileSync(join(dir, 'project_release-freeze.md'), 'utf8'),
      /starts on Friday 2026-03-06; no feature/,
    );
    const fb = readFileSync(join(dir, 'feedback_small-commits.md'), 'utf8');
    assert.match(fb, /one per concern; the user confirmed/);
    assert.equal(listMemories(dir, { limit: Infinity }).length, 2);
  });

  it('asks once more after an invalid answer; two invalid answers write nothing', async () => {
    transcript.write([{ user: 'We decided to drop Windows support in June.', at: '2026-03-04T09:00:00Z' }]);
    const good = {
      type: 'project',
      name: 'windows support dropped',
      description: 'Windows support is dropped in June',
      body: 'We decided to drop Windows support in June.',
      why: 'Decision by the team.',
      how: 'Do not add Windows-only code.',
      turn: 0,
      reason: 'decision',
      updates: null,
    };
    server.reply('anthropic.messages', anthropicText('Sure! Here are the memories: []'), answer([good]));
    const r = await extractMemories({ dir, home, transcript: transcript.path, clock, provider: llm(), dryRun: true });
    assert.equal(r.proposals.length, 1);
    const retry = server.requests.at(-1)!.body.messages;
    assert.equal(retry.length, 3);
    assert.match(retry[2].content, /That answer is invalid: not JSON/);

    const before = snapshot(root);
    server.reply('anthropic.messages', answer([{ ...good, type: 'note' }]), answer([{ ...good, why: undefined }]));
    await assert.rejects(
      extractMemories({ dir, home, transcript: transcript.path, clock, provider: llm() }),
      (e) => isLociError(e, 'EXTRACT_ANSWER_INVALID') && /"why" is missing/.test(e.message),
    );
    assert.deepEqual(snapshot(root), before);
  });

  it('never writes a user memory under team/ nor changes a team memory', async () => {
    mkdirSync(join(dir, 'team'));
    writeFileSync(
      join(dir, 'team', 'reference_ci.md'),
      '---\nname: ci\ndescription: CI dashboard\nmetadata:\n  type: reference\n---\nhttps://ci.example\n',
    );
    transcript.write([
      { user: 'I lead the platform team. CI is at https://ci.example/new', at: '2026-03-04T09:00:00Z' },
    ]);
    server.reply(
      'anthropic.messages',
      answer([
        {
          type: 'user',
          name: 'platform lead',
          description: 'User leads the platform team',
          body: 'Leads the platform team.',
          turn: 0,
        },
        {
          type: 'reference',
          name: 'ci',
          description: 'CI dashboard moved',
          body: 'https://ci.example/new',
          turn: 0,
          updates: 'team/reference_ci.md',
        },
      ]),
    );
    const r = await extractMemories({ dir, home, transcript: transcript.path, clock, provider: llm() });
    assert.deepEqual(
      r.proposals.map((p) => [p.type, p.file]),
      [['user', 'user_platform-lead.md']],
    );
    assert.equal(r.skipped[0]!.rule, 'privacy');
    assert.match(readFileSync(join(dir, 'team', 'reference_ci.md'), 'utf8'), /^https:\/\/ci\.example\n$/m);
    assert.equal(listMemories(dir).find((m) => m.type === 'user')!.privacy, 'private');
  });
});

after(() => rmSync(root, { recursive: true, force: true }));
