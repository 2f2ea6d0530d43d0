/** @module ingest/convos/exchanges.test */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  advanceExchanges,
  chunkExchanges,
  groupExchanges,
  newExchangeCursor,
  renderMessages,
  splitText,
  type Conversation,
  type ConvoMessage,
} from './index.js';

const m = (role: ConvoMessage['role'], text: string, extra: Partial<ConvoMessage> = {}): ConvoMessage => ({
  role,
  speaker: role === 'tool' ? 'tool' : role,
  text,
  timestamp: null,
  kind: role === 'tool' ? 'tool' : 'message',
  ...extra,
});
const person = (speaker: string, text: string): ConvoMessage => ({
  role: 'user',
  speaker,
  text,
  timestamp: null,
  kind: 'message',
});
const conv = (messages: ConvoMessage[], exchangeMode: Conversation['exchangeMode'] = 'user-turns'): Conversation => ({
  format: 'chat-text',
  id: 'c1',
  title: null,
  source: '/x',
  file: '/x',
  cwd: null,
  gitBranch: null,
  startedAt: null,
  messages,
  exchangeMode,
  meta: {},
});

describe('groupExchanges', () => {
  it('user-turns: one user turn plus everything until the next user turn', () => {
    const msgs = [
      m('assistant', 'Hello, how can I help?'),
      m('user', 'Fix the test.'),
      m('user', 'It is in auth.test.ts.'),
      m('assistant', '[Bash] npm test', { kind: 'tool' }),
      m('tool', '→ 1 failing'),
      m('assistant', 'Fixed.'),
      m('user', 'Thanks'),
      m('system', 'Compacted summary', { kind: 'summary', speaker: 'summary' }),
      m('assistant', 'Anything else?'),
    ];
    const g = groupExchanges(msgs, 'user-turns').map((x) => x.map((y) => y.text));
    assert.deepEqual(g, [
      ['Hello, how can I help?'],
      ['Fix the test.', 'It is in auth.test.ts.', '[Bash] npm test', '→ 1 failing', 'Fixed.'],
      ['Compacted summary'],
      ['Thanks', 'Anything else?'],
    ]);
  });

  it('turn-pairs: one speaker turn plus the next speaker turn', () => {
    const msgs = [
      person('Caroline', 'a'),
      person('Caroline', 'b'),
      person('Melanie', 'c'),
      person('Caroline', 'd'),
      person('Melanie', 'e'),
      person('Jo', 'f'),
    ];
    const g = groupExchanges(msgs, 'turn-pairs').map((x) => x.map((y) => y.text).join(''));
    assert.deepEqual(g, ['abc', 'de', 'f']);
  });

  it('messages: every said message is its own exchange (prompt logs)', () => {
    const msgs = [m('user', 'a'), m('user', 'b'), m('assistant', '[x]', { kind: 'tool' }), m('user', 'c')];
    assert.deepEqual(
      groupExchanges(msgs, 'messages').map((x) => x.map((y) => y.text)),
      [['a'], ['b', '[x]'], ['c']],
    );
  });
});

describe('renderMessages', () => {
  it('labels a speaker once per turn, keeps newlines, labels a tool call only when its caller was not speaking', () => {
    const text = renderMessages([
      m('user', 'Line one\nline two'),
      m('assistant', 'Looking.'),
      m('assistant', '[Read a.ts]', { kind: 'tool' }),
      m('tool', '→ export {}'),
      m('assistant', 'Done.'),
      person('Caroline', 'Hi'),
      m('system', 'New title', { kind: 'title', speaker: 'title' }),
    ]);
    assert.equal(
      text,
      'User: Line one\nline two\nAssistant: Looking.\n[Read a.ts]\n→ export {}\nDone.\nCaroline: Hi\nTitle: New title',
    );
    const calls = renderMessages([
      m('user', 'run the tests'),
      m('assistant', '[Bash] npm test', { kind: 'tool' }),
      m('tool', '→ 3 passing'),
      m('assistant', 'All green.'),
    ]);
    assert.equal(calls, 'User: run the tests\nAssistant: [Bash] npm test\n→ 3 passing\nAll green.');
  });
});

describe('chunkExchanges', () => {
  it('gives stable exchange ids, speakers, timestamps, uuids and line ranges', () => {
    const c = conv([
      m('user', 'Q1', { timestamp: '2024-01-01T00:00:00.000Z', uuid: 'u1', line: 3 }),
      m('assistant', 'A1', { timestamp: '2024-01-01T00:00:05.000Z', uuid: 'a1', line: 4 }),
      m('user', 'Q2', { uuid: 'u2', line: 9 }),
    ]);
    const chunks = chunkExchanges(c);
    assert.deepEqual(
      chunks.map((x) => [
        x.exchangeId,
        x.exchangeIndex,
        x.part,
        x.parts,
        x.text,
        x.speakers,
        x.timestamp,
        x.firstUuid,
        x.lastUuid,
        x.messageCount,
        x.lineStart,
        x.lineEnd,
        x.kind,
      ]),
      [
        [
          'c1:0',
          0,
          0,
          1,
          'User: Q1\nAssistant: A1',
          ['user', 'assistant'],
          '2024-01-01T00:00:00.000Z',
          'u1',
          'a1',
          2,
          3,
          4,
          'exchange',
        ],
        ['c1:1', 1, 0, 1, 'User: Q2', ['user'], null, 'u2', 'u2', 1, 9, 9, 'exchange'],
      ],
    );
  });

  it('splits long exchanges at paragraph, then sentence boundaries, every part keeping the exchange id', () => {
    const para = (n: number) =>
      Array.from({ length: n }, (_, i) => `Sentence number ${i} explains one more detail of the plan.`).join(' ');
    const c = conv([m('user', 'Explain the plan.'), m('assistant', `${para(12)}\n\n${para(12)}\n\n${para(40)}`)]);
    const chunks = chunkExchanges(c, { maxChars: 800 });
    assert.ok(chunks.length >= 4);
    for (const ch of chunks) {
      assert.equal(ch.exchangeId, 'c1:0');
      assert.equal(ch.parts, chunks.length);
      assert.ok(ch.text.length <= 800);
      assert.match(ch.text, /[.:]$/, 'ends at a sentence or paragraph boundary');
    }
    assert.deepEqual(
      chunks.map((x) => x.part),
      chunks.map((_, i) => i),
    );
  });

  it('gives each part of a long exchange its own time and line range (issue 10)', () => {
    const long = (tag: string) =>
      Array.from({ length: 14 }, (_, i) => `${tag} sentence ${i} adds one more detail.`).join(' ');
    const c = conv([
      m('user', 'Plan it.', { timestamp: '2024-01-01T21:18:00.000Z', line: 10 }),
      m('assistant', long('Early'), { timestamp: '2024-01-01T21:19:00.000Z', line: 11 }),
      m('assistant', '[Bash] make', { kind: 'tool', timestamp: '2024-01-01T21:20:00.000Z', line: 12 }),
      m('tool', '→ ok', { timestamp: '2024-01-01T21:21:00.000Z', line: 13 }),
      m('assistant', long('Late') + ' The default port is 1100.', { timestamp: '2024-01-01T21:24:00.000Z', line: 20 }),
    ]);
    const chunks = chunkExchanges(c, { maxChars: 600 });
    assert.ok(chunks.length >= 2);
    const last = chunks[chunks.length - 1]!;
    assert.match(last.text, /port is 1100/);
    assert.equal(last.timestamp, '2024-01-01T21:24:00.000Z');
    assert.equal(last.lineEnd, 20);
    assert.ok((last.lineStart ?? 0) > 10, `the last part starts after the prompt's line, got ${last.lineStart}`);
    assert.equal(chunks[0]!.timestamp, '2024-01-01T21:18:00.000Z');
    assert.equal(chunks[0]!.lineStart, 10);
  });

  it('starts a part with prose rather than a tool line when it can (issue 10)', () => {
    const prose = Array.from({ length: 8 }, (_, i) => `Point ${i} is explained here in a few words.`).join(' ');
    const msgs: ConvoMessage[] = [m('user', 'Go.')];
    for (let k = 0; k < 6; k++) {
      msgs.push(
        m('assistant', `${prose} (${k})`),
        m('assistant', `[Read src/file${k}.ts]`, { kind: 'tool' }),
        m('tool', `→ contents of file ${k}`),
      );
    }
    const chunks = chunkExchanges(conv(msgs), { maxChars: 700 });
    assert.ok(chunks.length >= 3);
    for (const ch of chunks)
      assert.doesNotMatch(ch.text, /^(?:Assistant: )?\[|^→/, `part ${ch.part} starts with a tool line`);
  });

  it('never drops a short exchange and never emits an empty one', () => {
    const c = conv([m('user', 'ok'), m('assistant', '   '), m('user', 'y')]);
    assert.deepEqual(
      chunkExchanges(c).map((x) => x.text),
      ['User: ok', 'User: y'],
    );
  });
});

describe('splitText', () => {
  it('merges a tail shorter than minChars into the previous part', () => {
    const text = `${'word '.repeat(50).trim()}. End.`; // 255 chars: "End." alone would be a 4-char part
    assert.deepEqual(splitText(text, 250, 0).length, 2);
    assert.deepEqual(splitText(text, 250, 20), [text]);
    const p2 = splitText(`${'alpha '.repeat(40).trim()}.\n\nTiny.`, 245, 20);
    assert.equal(p2.length, 1);
    assert.ok(p2[0]!.endsWith('Tiny.'));
  });

  it('never cuts a word and loses nothing (property)', () => {
    const word = fc.stringMatching(/^[a-zé日]{1,12}[.!?,]?$/);
    const sep = fc.constantFrom(' ', ' ', ' ', '\n', '\n\n', '  ');
    const textArb = fc
      .array(fc.tuple(word, sep), { minLength: 1, maxLength: 400 })
      .map((xs) => xs.map(([w, s]) => w + s).join(''));
    fc.assert(
      fc.property(textArb, fc.integer({ min: 40, max: 600 }), (text, max) => {
        const parts = splitText(text, max, 0);
        const words = (s: string) => s.split(/\s+/).filter(Boolean);
        assert.deepEqual(parts.flatMap(words), words(text));
        for (const p of parts) assert.ok(p.length <= max, `${p.length} > ${max}`);
      }),
      { numRuns: 200 },
    );
  });

  it("keeps the indentation of a part's first line (a nested list item, a line of code)", () => {
    const text = `${'Intro sentence here. '.repeat(10).trim()}\n\n   - **nested item** (MODIFIED)\n     - detail`;
    const parts = splitText(text, 240, 0);
    assert.equal(parts.length, 2);
    assert.equal(parts[1], '   - **nested item** (MODIFIED)\n     - detail');
    // a cut inside a line still drops the spaces at the cut
    assert.ok(splitText('word '.repeat(100), 120).every((p) => !p.startsWith(' ')));
  });

  it('cuts a single over-long token hard, without splitting a surrogate pair', () => {
    const parts = splitText('😀'.repeat(300), 201);
    assert.ok(parts.every((p) => !/[\ud800-\udbff]$/.test(p)));
    assert.equal(parts.join(''), '😀'.repeat(300));
  });
});

describe('advanceExchanges', () => {
  it('closes exchanges only when the next one starts; flush closes the last', () => {
    let cur = newExchangeCursor('c1', 'user-turns');
    const a = advanceExchanges(cur, [m('user', 'Q1'), m('assistant', 'A1 part')]);
    assert.deepEqual(a.closed, []);
    assert.deepEqual(
      a.open.map((x) => x.text),
      ['User: Q1\nAssistant: A1 part'],
    );
    cur = a.cursor;
    const b = advanceExchanges(cur, [m('assistant', 'more'), m('user', 'Q2')]);
    assert.deepEqual(
      b.closed.map((x) => [x.exchangeId, x.text]),
      [['c1:0', 'User: Q1\nAssistant: A1 part\nmore']],
    );
    assert.deepEqual(
      b.open.map((x) => x.exchangeId),
      ['c1:1'],
    );
    const c = advanceExchanges(b.cursor, [], { flush: true });
    assert.deepEqual(
      c.closed.map((x) => x.exchangeId),
      ['c1:1'],
    );
    assert.equal(c.cursor.nextIndex, 2);
    assert.deepEqual(c.cursor.open, []);
  });

  it('closes a title or summary at once without closing the exchange it was written during', () => {
    const r = advanceExchanges(newExchangeCursor('c1', 'user-turns'), [
      m('user', 'Q'),
      m('system', 'T', { kind: 'title', speaker: 'title' }),
    ]);
    assert.deepEqual(
      r.closed.map((x) => [x.kind, x.exchangeIndex]),
      [['title', 0]],
    );
    assert.deepEqual(
      r.open.map((x) => [x.kind, x.exchangeIndex, x.text]),
      [['exchange', 1, 'User: Q']],
    );
    const r2 = advanceExchanges(r.cursor, [m('assistant', 'A')]);
    assert.deepEqual(
      r2.open.map((x) => x.text),
      ['User: Q\nAssistant: A'],
    );
  });

  it('never splits a prompt from its reply on metadata (titles, summaries) (issue 10)', () => {
    const msgs = [
      m('user', 'What port?'),
      m('system', 'Port question', { kind: 'title', speaker: 'title' }),
      m('system', 'Other session summary', { kind: 'summary', speaker: 'summary' }),
      m('assistant', 'Port 1100.'),
      m('system', 'Later title', { kind: 'title', speaker: 'title' }),
      m('assistant', 'Done.'),
    ];
    const g = groupExchanges(msgs, 'user-turns').map((x) => x.map((y) => y.text));
    assert.deepEqual(g, [
      ['Port question'],
      ['Other session summary'],
      ['Later title'],
      ['What port?', 'Port 1100.', 'Done.'],
    ]);
  });

  it('equals chunkExchanges on the whole conversation for any batching (property)', () => {
    const msgArb = fc.oneof(
      fc
        .constantFrom('user', 'assistant', 'tool')
        .chain((role) =>
          fc.string({ minLength: 1, maxLength: 300 }).map((t) => m(role as ConvoMessage['role'], `${role} ${t}`)),
        ),
      fc.constant(m('system', 'Summary text', { kind: 'summary', speaker: 'summary' })),
      fc.constantFrom('Ann', 'Ben', 'Cy').map((s) => person(s, `${s} says hi`)),
    );
    fc.assert(
      fc.property(
        fc.array(msgArb, { maxLength: 60 }),
        fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 8 }),
        fc.constantFrom('user-turns' as const, 'turn-pairs' as const, 'messages' as const),
        (msgs, cuts, mode) => {
          const c = conv(msgs, mode);
          const expected = chunkExchanges(c, { maxChars: 300 });
          let cur = newExchangeCursor('c1', mode);
          const got = [];
          let pos = 0;
          for (const cut of [...cuts].sort((x, y) => x - y)) {
            const r = advanceExchanges(cur, msgs.slice(pos, Math.max(pos, cut)), { maxChars: 300 });
            got.push(...r.closed);
            cur = JSON.parse(JSON.stringify(r.cursor));
            pos = Math.max(pos, cut);
          }
          got.push(...advanceExchanges(cur, msgs.slice(pos), { maxChars: 300, flush: true }).closed);
          assert.deepEqual(got, expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
