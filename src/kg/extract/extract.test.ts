/**
 * @module kg/extract/extract.test — one example per extraction rule, the precision guards, speakers, dates, mentions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createMemoryGraphStore, extractFromDrawer, type ExtractionInput, type ExtractionResult } from '../index.js';

const drawer = (text: string, extra: Partial<ExtractionInput> = {}): ExtractionInput => ({
  id: 'd1',
  text,
  contentDate: '2023-05-10T13:56:00.000Z',
  speakers: ['Ana'],
  wing: 'proj',
  room: 'general',
  ...extra,
});
const facts = (r: ExtractionResult) => [
  ...r.facts.map(
    (f) =>
      `${f.subject} ${f.predicate} ${f.object}${f.literal ? ' (literal)' : ''} @${String(f.validFrom).slice(0, 10)}`,
  ),
  ...r.invalidations.map(
    (i) =>
      `END ${i.subject} ${i.predicate} ${i.object} @${String(i.ended).slice(0, 10)}` +
      `${i.recordIfMissing ? ' (record)' : ''}`,
  ),
];
const one = (text: string, extra?: Partial<ExtractionInput>) => facts(extractFromDrawer(drawer(text, extra)));

test('relation rules: one example each (the table of ARCHITECTURE.md)', () => {
  const table: [string, string[]][] = [
    [
      'We switched from npm to pnpm last week.',
      ['proj uses pnpm @2023-05-01', 'END proj uses npm @2023-05-01 (record)'],
    ],
    ["We're migrating to Postgres.", ['proj uses Postgres @2023-05-10']],
    ['I moved to Lisbon in 2021.', ['Ana lives_in Lisbon @2021-01-01']],
    ['We decided to go with SQLite.', ['proj chose SQLite @2023-05-10']],
    ['Maya is using `zod` now.', ['Maya uses zod @2023-05-10']],
    ['We started using Turborepo in 2022.', ['proj uses Turborepo @2022-01-01']],
    ['We no longer rely on MongoDB.', ['END proj uses MongoDB @2023-05-10']],
    ['Maya works for Acme Inc.', ['Maya works_at Acme Inc @2023-05-10']],
    ['Sam is working on billing-service.', ['Sam works_on billing-service @2023-05-10']],
    ['I joined the Platform Team two weeks ago.', ['Ana member_of Platform Team @2023-04-26']],
    ['Dr. Chen joined Stanford University in 2021.', ['Dr. Chen works_at Stanford University @2021-01-01']],
    [
      'Priya left Globex yesterday.',
      ['END Priya works_at Globex @2023-05-09', 'END Priya member_of Globex @2023-05-09'],
    ],
    ['Maya was assigned to auth-migration on May 8.', ['Maya assigned_to auth-migration @2023-05-08']],
    ['I assigned @maya to Billing.', ['maya assigned_to Billing @2023-05-10']],
    ['Acme Inc is headquartered in Paris.', ['Acme Inc located_in Paris @2023-05-10']],
    ['I live in Porto.', ['Ana lives_in Porto @2023-05-10']],
    ["Maya's manager is Sam Lee.", ['Maya reports_to Sam Lee @2023-05-10']],
    ['My role is tech lead.', ['Ana role tech lead (literal) @2023-05-10']],
    ['Our status is blocked.', ['proj status blocked (literal) @2023-05-10']],
    ['I went to a LGBTQ support group yesterday.', ['Ana attended LGBTQ support group @2023-05-09']],
    [
      'I started playing acoustic guitar about five years ago.',
      ['Ana started playing acoustic guitar (literal) @2018-05-10'],
    ],
  ];
  for (const [text, want] of table) assert.deepEqual(one(text), want, text);
});

test('precision: negations, modals, futures, questions, pronouns and plain nouns give nothing', () => {
  for (const text of [
    'He switched to Rust.',
    'They use Go.',
    'I would switch to pnpm if I could.',
    "We'll use pnpm.",
    'Did you switch to pnpm?',
    'We are not using Redis.',
    "I don't use Docker.",
    'Maybe we should use Kafka.',
    "Let's use pnpm.",
    'I switched to decaf.',
    'I use my phone a lot.',
    'I went to the store yesterday.',
    'We are using a new approach.',
    'The team is based in Berlin.',
    'Priya quit.',
    'If we migrate to Deno, tests break.',
  ]) {
    assert.deepEqual(one(text), [], text);
  }
});

test('first person: "I" is the turn speaker, "we" the wing; unknown speakers resolve nothing', () => {
  const chat =
    'Caroline: I joined a mentorship program last weekend.\nMelanie: I moved to Denver on May 1. We use Notion for ' +
    'notes.';
  assert.deepEqual(one(chat, { speakers: ['Caroline', 'Melanie'] }), [
    'Caroline member_of mentorship program @2023-05-06',
    'Melanie lives_in Denver @2023-05-01',
    'proj uses Notion @2023-05-10',
  ]);
  assert.deepEqual(one('I moved to Denver.', { speakers: [] }), []);
  assert.deepEqual(one('user: I switched to pnpm.\nassistant: I moved to `bun`.', { speakers: [] }), []);
  assert.deepEqual(
    facts(extractFromDrawer(drawer('user: I switched to pnpm.', { speakers: [] }), { userName: 'Sam' })),
    ['Sam uses pnpm @2023-05-10'],
  );
  assert.deepEqual(facts(extractFromDrawer(drawer('We switched to pnpm.'), { weIsWing: false })), []);
  assert.deepEqual(one('I moved to Denver.', { speakers: [], metadata: { speaker: 'Zoe' } }), [
    'Zoe lives_in Denver @2023-05-10',
  ]);
  assert.deepEqual(one('Note: we use pnpm.\nTODO: fix it.', { speakers: [] }), ['proj uses pnpm @2023-05-10']);
});

test('a date phrase belongs to the nearest relation; no date falls back to the content date, or null', () => {
  assert.deepEqual(one('We are now using Vitest and we dropped Jest yesterday.'), [
    'proj uses Vitest @2023-05-10',
    'END proj uses Jest @2023-05-09',
  ]);
  assert.deepEqual(one('We switched to pnpm.', { contentDate: null }), ['proj uses pnpm @null']);
  assert.deepEqual(one('We switched to pnpm yesterday.', { contentDate: null }), ['proj uses pnpm @null']);
  assert.deepEqual(one('We switched to pnpm on 2024-02-01.', { contentDate: null }), ['proj uses pnpm @2024-02-01']);
});

test('entities: speakers, @mentions, files, tools, organisations, honorifics, repeated names; no code', () => {
  const text = [
    'Ana: ping @maya about `src/kg/index.ts` and package.json; see https://x.example/a/b.html.',
    'Bo: Postgres or pnpm? Acme Inc and Dr. Chen agree. The Big Apple is big. The Big Apple is loud.',
    'Ana: Rust is fine, said Node.js fans.',
    '```ts',
    'const React = require("Vue Router Thing");',
    '```',
  ].join('\n');
  const r = extractFromDrawer(drawer(text, { speakers: ['Ana', 'Bo'] }));
  const got = r.entities.map((e) => `${e.name}<${e.type}>`).sort();
  assert.deepEqual(
    got,
    [
      'Acme Inc<organisation>',
      'Ana<person>',
      'Big Apple<unknown>',
      'Bo<person>',
      'Dr. Chen<person>',
      'Node.js<tool>',
      'Postgres<tool>',
      'package.json<file>',
      'pnpm<tool>',
      'maya<person>',
      'src/kg/index.ts<file>',
    ].sort(),
  );
  assert.ok(r.entities.every((e) => e.sources?.[0] === 'd1'));
});

test('labels are not speakers: declared speakers are complete; a Label: value list is no dialogue', () => {
  const names = (text: string, speakers: string[]) =>
    extractFromDrawer(drawer(text, { speakers }))
      .entities.filter((e) => e.type === 'person')
      .map((e) => e.name)
      .sort();
  // a parsed conversation declares its speakers (here the two roles): markdown labels are not people
  const reply = [
    'user: which option?',
    'assistant: **Option A**: integrate first.',
    '**Rationale**: the capture code is stable.',
    '**Risk**: refactoring.',
    'Co-authored-by: Someone <a@b.c>',
  ].join('\n');
  assert.deepEqual(names(reply, ['user', 'assistant']), []);
  // a Slack day: `Environmental Risk Score: 2.798` is a value line, not a third speaker
  const slack = 'U1: what is the score?\nEnvironmental Risk Score: 2.798\nProbability: 78 %\nU2: good question';
  assert.deepEqual(names(slack, ['U1', 'U2']), ['U1', 'U2']);
  // declared handles in lower case are speakers too
  assert.deepEqual(names('jkim: can you link the paper?\nneerajt: sure', ['jkim', 'neerajt']), ['jkim', 'neerajt']);
  // no declared speakers: four labels said once each are a list; two names speaking twice are a dialogue
  const list = 'Current Status: green\nTechnical State: fine\nPersonality: terse\nCollaboration Style: short';
  assert.deepEqual(names(list, []), []);
  const chat = 'Maya: I moved to Lisbon.\nSam: nice\nMaya: yes\nSam: ok';
  assert.deepEqual(names(chat, []), ['Maya', 'Sam']);
});

test('backticked URLs, fragments, hashes, random ids and generic words are not entities; folders are', () => {
  const text =
    'See `https://upload.wikimedia.org/a/b.svg`, `file://`, `agent-` text, the hash `e/e0`, `4/4f/...`, ' +
    'commit `f0bf20a`, extension `eimadpbcbfnmbkopoojfekhnkhdbieeh`, `__MODULE__`, the `limit` and `offset` ' +
    'params of `main` in `config`, no `*_live_test.exs` file, nor *_live_test.exs, `agent-xxx`, `ALLOW`; ' +
    'keep `js/` and `spotter-fum.3`.';
  const got = extractFromDrawer(drawer(text)).entities.map((e) => `${e.name}<${e.type}>`);
  assert.deepEqual(got.sort(), ['Ana<person>', 'js/<identifier>', 'spotter-fum.3<identifier>'].sort());
});

test('extraction never throws and its output is accepted by the store (property)', async () => {
  const g = createMemoryGraphStore();
  const words = fc.constantFrom(
    'We',
    'I',
    'Maya',
    'switched',
    'to',
    'from',
    'pnpm',
    'Acme Inc',
    'joined',
    'the',
    'team',
    'moved',
    'Berlin',
    'use',
    'yesterday',
    'last week',
    '`x-y`',
    '@bo',
    "'s",
    'role',
    'is',
    'lead',
    '.',
    '?',
    '\n',
    'Ana:',
    'É',
    '认证',
    'not',
  );
  await fc.assert(
    fc.asyncProperty(
      fc.array(words, { maxLength: 40 }),
      fc.option(fc.constantFrom('2023-05-10', '2023-05-10T10:00:00Z', 'garbage'), { nil: null }),
      async (ws, date) => {
        const r = extractFromDrawer(drawer(ws.join(' '), { contentDate: date }));
        const res = await g.apply(r, { lenient: true });
        assert.equal(res.facts.length + res.skipped.filter((s) => s.kind === 'fact').length, r.facts.length);
      },
    ),
    { numRuns: 300 },
  );
});
