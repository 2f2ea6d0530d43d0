/** @module ingest/convos/parse-chat-text.test */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseDatePrefix, isoOf } from './chat-dates.js';
import { chunkExchanges, detectFormat, parseConversations, type Conversation } from './index.js';

const FIX = fileURLToPath(new URL('../../../test/fixtures/convos/chat-text/', import.meta.url));
const parse = (p: string) => parseConversations(join(FIX, p), readFileSync(join(FIX, p), 'utf8'));
const turns = (c: Conversation) => c.messages.map((m) => [m.speaker, m.text]);

describe('chat-text: quoted transcripts', () => {
  it('reads `>` runs as user turns (multi-line kept) and the text after as the reply', () => {
    const c = parse('quoted-transcript.md').conversations[0]!;
    assert.equal(c.format, 'chat-text');
    assert.equal(c.exchangeMode, 'user-turns');
    assert.deepEqual(turns(c), [
      ['user', 'How do I undo the last commit but keep my changes?'],
      [
        'assistant',
        'Use `git reset --soft HEAD~1`. The commit disappears, and its changes stay staged.\n\nIf you also want ' +
          'them unstaged, use `git reset HEAD~1` (mixed is the default).',
      ],
      ['user', 'And if I already pushed it?\nThe branch is shared with two other people.'],
      [
        'assistant',
        'Then do not rewrite history. Run `git revert HEAD`: it adds a new commit that undoes the old one, and ' +
          "nobody's clone breaks.",
      ],
      ['user', 'Thanks. What about a single file?'],
      ['assistant', '`git restore --source=HEAD~1 path/to/file` brings back the older version of just that file.'],
    ]);
    assert.equal(chunkExchanges(c).length, 3);
  });
});

describe('chat-text: role labels', () => {
  it('reads Human:/Assistant: with multi-line, indented replies', () => {
    const c = parse('human-assistant.txt').conversations[0]!;
    assert.deepEqual(
      c.messages.map((m) => m.role),
      ['user', 'assistant', 'user', 'assistant'],
    );
    assert.equal(
      c.messages[1]!.text,
      'Another process is still listening on port 3000 — usually a dev server that did not shut down.\nFind it ' +
        'with:\n\n    lsof -i :3000\n\nthen stop it with `kill <PID>`.',
    );
    assert.equal(c.messages[1]!.line, 3);
  });

  it('reads User:/AI:', () => {
    const c = parse('user-ai.txt').conversations[0]!;
    assert.deepEqual(turns(c), [
      ['user', 'Give me a name for a cat that likes boxes.'],
      ['assistant', 'How about "Cardboard Cassius"? Or just "Box".'],
      ['user', 'Shorter.'],
      ['assistant', '"Flap".'],
    ]);
  });
});

describe('chat-text: people', () => {
  it('reads any speaker names, timestamps and date headers', () => {
    const c = parse('team-chat.txt').conversations[0]!;
    assert.equal(c.exchangeMode, 'turn-pairs');
    assert.deepEqual(
      c.messages.map((m) => [m.speaker, m.timestamp]),
      [
        ['Priya Natarajan', '2024-03-04T09:12:00.000Z'],
        ['Tomás Ferreira', '2024-03-04T09:13:00.000Z'],
        ['Jun Park', '2024-03-04T09:20:00.000Z'],
        ['Priya Natarajan', '2024-03-05T08:55:00.000Z'],
        ['Tomás Ferreira', '2024-03-05T08:57:00.000Z'],
      ],
    );
    assert.equal(
      c.messages[2]!.text,
      'Can someone review my PR for the retry logic?\nIt changes the backoff from linear to exponential:\n- first ' +
        'retry after 1s\n- then 2s, 4s, 8s (capped at 30s)',
    );
    assert.equal(c.title, 'team-chat');
  });

  it('reads meeting notes: title, bold and Date: headers, `said,` lines, labels that are not speakers', () => {
    const c = parse('meeting-notes.md').conversations[0]!;
    assert.equal(c.title, 'Book club — planning notes');
    assert.deepEqual(c.meta.speakers, ['Caroline', 'Melanie']);
    assert.deepEqual(
      c.messages.map((m) => [m.speaker, m.timestamp!.slice(0, 10)]),
      [
        ['Caroline', '2023-05-08'],
        ['Melanie', '2023-05-08'],
        ['Caroline', '2023-05-08'],
        ['Melanie', '2023-05-08'],
        ['Caroline', '2023-05-09'],
        ['Melanie', '2023-05-09'],
      ],
    );
    assert.equal(
      c.messages[1]!.text,
      'I went to the author talk at the library yesterday, they discussed exactly that chapter!\nNote: Melanie ' +
        'will share her notes from the talk.',
    );
    assert.equal(c.messages[3]!.text, "Then let's read Binti — it's under a hundred pages.");
    const chunks = chunkExchanges(c);
    assert.equal(chunks.length, 3);
    assert.equal(
      chunks[0]!.text,
      'Caroline: I finally finished "The Left Hand of Darkness". The ice crossing chapter stayed with me for ' +
        'days.\nMelanie: I went to the author talk at the library yesterday, they discussed exactly that ' +
        'chapter!\nNote: Melanie will share her notes from the talk.',
    );
  });

  it('does not take a document with `Label: value` lines for a chat', () => {
    assert.equal(detectFormat(join(FIX, 'not-a-chat.md'), readFileSync(join(FIX, 'not-a-chat.md'), 'utf8')), null);
    const forced = parseConversations(join(FIX, 'not-a-chat.md'), readFileSync(join(FIX, 'not-a-chat.md'), 'utf8'), {
      format: 'chat-text',
    });
    assert.ok(forced.warnings.some((w) => w.includes('no dialogue structure')));
    assert.ok(
      forced.conversations[0]!.messages.every((m) => m.speaker === 'note'),
      'nothing is lost: read as a note',
    );
  });

  it('needs two speakers and a majority of lines', () => {
    assert.equal(detectFormat('/n/a.txt', 'Alice: one\nAlice: two\nAlice: three\n'), null);
    assert.equal(
      detectFormat(
        '/n/a.txt',
        'Intro paragraph.\n\nAlice: hi\n\nSome prose.\n\nMore prose.\n\nBob: ok\n\nEnd prose.\n',
      ),
      null,
    );
    // multi-line messages: speakers open most paragraphs
    assert.equal(
      detectFormat('/n/a.txt', 'Alice: hi\nsome prose here\nmore prose\n\nBob: ok\nand prose\n'),
      'chat-text',
    );
    assert.equal(detectFormat('/n/a.txt', 'Alice: hi\nBob: hello\n'), 'chat-text');
    assert.equal(detectFormat('/n/a.txt', '**Alice:** hi there\n**Bob**: hello\n'), 'chat-text');
    assert.equal(detectFormat('/n/a.md', 'José María: hola\nZoë Saldaña-Ruiz: hi!\n'), 'chat-text');
  });

  it('keeps newlines and continuation lines with the previous speaker, code fences included', () => {
    const text = 'Ana: look at this:\n```\nBob: not a speaker inside a fence\n```\nBob: I see it.\n';
    const c = parseConversations('/n/c.md', text).conversations[0]!;
    assert.deepEqual(turns(c), [
      ['Ana', 'look at this:\n```\nBob: not a speaker inside a fence\n```'],
      ['Bob', 'I see it.'],
    ]);
  });
});

describe('chat dates', () => {
  const cases: [string, string][] = [
    ['2023-05-08', '2023-05-08T00:00:00.000Z'],
    ['2023-05-08 14:02', '2023-05-08T14:02:00.000Z'],
    ['8 May 2023', '2023-05-08T00:00:00.000Z'],
    ['8th May, 2023', '2023-05-08T00:00:00.000Z'],
    ['May 8, 2023', '2023-05-08T00:00:00.000Z'],
    ['Monday, May 8th 2023 at 2:05 pm', '2023-05-08T14:05:00.000Z'],
    ['1:56 pm on 8 May, 2023', '2023-05-08T13:56:00.000Z'],
    ['Sept 3 2024', '2024-09-03T00:00:00.000Z'],
  ];
  for (const [s, iso] of cases) it(s, () => assert.equal(isoOf(parseDatePrefix(s)!.parts), iso));
  it('rejects impossible dates', () => {
    assert.equal(parseDatePrefix('2023-02-30'), null);
    assert.equal(parseDatePrefix('31 April 2023'), null);
    assert.equal(parseDatePrefix('hello'), null);
  });
});
