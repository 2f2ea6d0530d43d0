/**
 * @module test/bench/transcripts
 * The real-transcripts harness: a tiny chat-log folder written here (always), and the development
 * transcripts from ../shared when they are present — there it must run over the stored question
 * set with every gold anchor found in its transcript. Quality targets are reported by the bench
 * (BENCHMARKS.md), not asserted here.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isLociError, runTranscriptsBench, type TranscriptQuestion } from '../../src/internal.js';
import { foldText, loadTranscriptQuestions } from '../../src/bench/index.js';
import { tempDir } from '../helpers/cli.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DATA = [
  process.env['LOCI_TRANSCRIPTS_DATA'],
  join(ROOT, '..', 'shared', 'data', 'transcripts'),
  '/work/shared/data/transcripts',
].find((p) => !!p && existsSync(p));
const QUESTIONS = join(ROOT, 'bench', 'data', 'transcripts-questions.json');

test('anchors fold case and punctuation', () => {
  assert.equal(foldText("The `agent_id` field — can't"), 'the agent id field can t');
});

test('a question file that is not JSON or lacks a field fails with CONFIG_INVALID', () => {
  const t = tempDir();
  after(t.cleanup);
  const notJson = join(t.dir, 'a.json');
  writeFileSync(notJson, '{ nope');
  assert.throws(
    () => loadTranscriptQuestions(notJson),
    (e: unknown) => isLociError(e, 'CONFIG_INVALID'),
  );
  const partial = join(t.dir, 'b.json');
  writeFileSync(partial, JSON.stringify({ questions: [{ id: 'q1', question: 'why?' }] }));
  assert.throws(
    () => loadTranscriptQuestions(partial),
    (e: unknown) => isLociError(e, 'CONFIG_INVALID'),
  );
  assert.throws(
    () => loadTranscriptQuestions(join(t.dir, 'missing.json')),
    (e: unknown) => isLociError(e, 'PATH_NOT_FOUND'),
  );
});

test('transcripts harness on a small folder: hits, baseline, kinds, unstored and broken gold', async () => {
  const t = tempDir();
  try {
    const dir = join(t.dir, 'data', 'chats');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'one.txt'),
      'Date: 2024-03-01\n\nAna said, "Which port does the api use?"\nBen said, "It listens on port 8123 behind the ' +
        'proxy."\n\nAna said, "Why postgres?"\nBen said, "Because the team already runs it and it has row ' +
        'level security."\n',
    );
    writeFileSync(
      join(dir, 'two.txt'),
      'Date: 2024-03-02\n\nAna said, "What about the cat?"\nBen said, "The cat is called Pixel."\n',
    );
    const qs: TranscriptQuestion[] = [
      {
        id: 'a',
        kind: 'what',
        question: 'which port is the api on?',
        file: 'chats/one.txt',
        anchors: ['port 8123 behind'],
      },
      {
        id: 'b',
        kind: 'why',
        question: 'why did we choose postgres?',
        file: 'chats/one.txt',
        anchors: ['row level security'],
      },
      {
        id: 'c',
        kind: 'what',
        question: 'what is the name of the cat?',
        file: 'chats/two.txt',
        anchors: ['called Pixel'],
      },
      {
        id: 'd',
        kind: 'what',
        question: 'what colour is the bike?',
        file: 'chats/two.txt',
        anchors: ['the bike is red'],
      },
    ];
    const r = await runTranscriptsBench({ data: join(t.dir, 'data'), questions: qs });
    assert.equal(r.n, 4);
    assert.equal(r.files, 2);
    assert.deepEqual(r.unstored, ['d']);
    assert.deepEqual(r.broken_gold, ['d']);
    assert.equal(r.loci['hits@5'], 0.75, JSON.stringify(r.per_question));
    assert.equal(r.baseline['hits@5'], 0.75);
    assert.deepEqual(Object.keys(r.by_kind), ['what', 'why']);
    assert.equal(r.by_kind['why']!.n, 1);
    // 2-fold check: questions 1 and 3 (a, c) against 2 and 4 (b, d)
    assert.equal(r.halves.odd.n, 2);
    assert.equal(r.halves.even.n, 2);
    assert.equal(r.halves.odd.loci['hits@5'], 1);
    assert.equal(r.halves.even.loci['hits@5'], 0.5);
  } finally {
    t.cleanup();
  }
});

test('the stored question set is well formed', () => {
  const qs = loadTranscriptQuestions(QUESTIONS);
  assert.ok(qs.length >= 45, `${qs.length} questions`);
  assert.ok(qs.filter((q) => q.kind === 'why').length * 3 >= qs.length, 'a third are "why" questions');
  assert.equal(new Set(qs.map((q) => q.id)).size, qs.length, 'ids are unique');
  for (const q of qs)
    for (const a of q.anchors)
      assert.ok(a.trim().split(/\s+/).length <= 8, `${q.id}: anchor "${a}" is longer than 8 words`);
});

test(
  'development transcripts: the benchmark runs over the stored questions',
  { skip: DATA ? false : 'transcripts not found at ../shared/data/transcripts (set LOCI_TRANSCRIPTS_DATA)' },
  async () => {
    const r = await runTranscriptsBench({ data: DATA!, questions: QUESTIONS });
    assert.ok(r.n >= 45);
    assert.deepEqual(r.broken_gold, [], 'every anchor occurs in its transcript');
    assert.ok(r.drawers > 0 && r.files > 20);
    for (const k of ['hits@1', 'hits@5'] as const) assert.ok(r.loci[k] >= 0 && r.baseline[k] >= 0);
    assert.ok(
      r.by_source['slack-export'] &&
        r.by_source['gemini-cli'] &&
        r.by_source['codex-cli'] &&
        r.by_source['claude-code'],
    );
  },
);
