/** @module ingest/convos/claude-incremental.test */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { generateClaudeSession, sessionIdFor } from '../../../test/fixtures/convos/generate-claude-session.js';
import {
  advanceClaudeCodeThread,
  advanceExchanges,
  chunkExchanges,
  newExchangeCursor,
  parseConversations,
  readCompleteLines,
  type ClaudeAdvance,
  type ClaudeCodeThreadState,
  type ConvoMessage,
  type ExchangeChunk,
} from './index.js';

const FIX = fileURLToPath(new URL('../../../test/fixtures/convos/claude-code/', import.meta.url));
const S = '5f0c2e1a-8b7d-4c3e-9a21-3f6d0b9e4c10';
const SESSION = join(FIX, 'projects/-home-dev-acme-api', `${S}.jsonl`);
const roundTrip = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;
const view = (c: ExchangeChunk) => ({ id: c.exchangeId, part: c.part, parts: c.parts, text: c.text, ts: c.timestamp });

/** What a miner does: reads complete lines at each cut, advances the cursor, re-reads fully on `reparse`. */
function mineIncrementally(path: string, bytes: Uint8Array, cuts: readonly number[]) {
  let state: ClaudeCodeThreadState | null = null;
  let offset = 0;
  const archived: ConvoMessage[] = [];
  let exchanges = newExchangeCursor('', 'user-turns');
  const chunks: ExchangeChunk[] = [];
  const statuses: string[] = [];
  for (const cut of [...cuts, bytes.length]) {
    const view1 = bytes.subarray(0, cut);
    const { lines, nextOffset } = readCompleteLines(view1, offset);
    const r: ClaudeAdvance = advanceClaudeCodeThread(state, lines, path);
    statuses.push(r.status);
    if (r.status === 'reparse') return { statuses, reparsed: true as const };
    if (r.status === 'full') {
      const main = r.conversations.find((c) => c.source === path);
      const msgs = main?.messages ?? [];
      archived.push(...msgs);
      exchanges = newExchangeCursor(main?.id ?? r.state.facts.sessionId ?? '', 'user-turns');
      const a = advanceExchanges(exchanges, msgs);
      chunks.push(...a.closed);
      exchanges = roundTrip(a.cursor);
    } else {
      archived.push(...r.conversation.messages);
      // the cursor is created once the conversation id is known
      if (exchanges.conversationId === '' && exchanges.open.length === 0)
        exchanges = newExchangeCursor(r.conversation.id, 'user-turns');
      const a = advanceExchanges(exchanges, r.conversation.messages);
      chunks.push(...a.closed);
      exchanges = roundTrip(a.cursor);
    }
    state = roundTrip(r.state);
    offset = nextOffset;
  }
  chunks.push(...advanceExchanges(exchanges, [], { flush: true }).closed);
  return { statuses, reparsed: false as const, archived, chunks, state: state! };
}

function seededCuts(seed: number, size: number, n: number): number[] {
  let x = seed;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out.push(x % size);
  }
  return out.sort((a, b) => a - b);
}

describe('generateClaudeSession', () => {
  it('is deterministic and prefix-stable, one complete JSON record per line', () => {
    const a = generateClaudeSession(800, 42);
    assert.equal(a, generateClaudeSession(800, 42));
    assert.notEqual(a, generateClaudeSession(800, 43));
    assert.ok(generateClaudeSession(1200, 42).startsWith(a));
    const lines = a.split('\n');
    assert.equal(lines.pop(), '');
    assert.equal(lines.length, 800);
    for (const l of lines) assert.doesNotThrow(() => JSON.parse(l));
    const avg = a.length / 800;
    assert.ok(avg > 600 && avg < 1600, `average line ${avg} bytes`);
    assert.equal(generateClaudeSession(0, 1), '');
  });

  it('parses into one session thread, with branches only when rewinds are asked for', () => {
    const plain = parseConversations('/p/g.jsonl', generateClaudeSession(3000, 5));
    assert.deepEqual(plain.warnings, []);
    assert.equal(plain.conversations.length, 1);
    assert.equal(plain.conversations[0]!.id, sessionIdFor(5));
    const rew = parseConversations('/p/g.jsonl', generateClaudeSession(3000, 5, { rewinds: true }));
    assert.ok(rew.conversations.length > 2);
    assert.ok(rew.conversations.slice(1).every((c) => c.id.startsWith(`${sessionIdFor(5)}~branch-`)));
  });
});

describe('advanceClaudeCodeThread', () => {
  it('archives exactly what a full read gives, whatever the byte cuts (generated session)', () => {
    const text = generateClaudeSession(2500, 11);
    const bytes = new TextEncoder().encode(text);
    const full = parseConversations('/p/g.jsonl', text).conversations[0]!;
    const expected = chunkExchanges(full).map(view);
    for (const seed of [1, 2, 3]) {
      const r = mineIncrementally('/p/g.jsonl', bytes, seededCuts(seed, bytes.length, 40));
      assert.equal(r.reparsed, false, r.statuses.join(','));
      assert.deepEqual(r.archived, full.messages);
      assert.deepEqual(r.chunks.map(view), expected);
      assert.ok(r.state.tail.length <= 64 + 300, `tail ${r.state.tail.length}`);
      assert.equal(r.state.messages, full.messages.length);
    }
  });

  it('gives the same result for every split point of the fixture session, or asks to reparse at a rewind', () => {
    const text = readFileSync(SESSION, 'utf8');
    const bytes = new TextEncoder().encode(text);
    const full = parseConversations(SESSION, text).conversations[0]!;
    const lineEnds: number[] = [];
    bytes.forEach((b, i) => b === 10 && lineEnds.push(i + 1));
    lineEnds.forEach((end, i) => {
      const line = i + 1;
      const r = mineIncrementally(SESSION, bytes, [end]);
      if (line < 24) {
        // the appended part holds the rewind (line 24) or the branch it abandons (lines 22–23)
        assert.equal(r.reparsed, true, `split after line ${line}: ${r.statuses.join(',')}`);
      } else {
        assert.equal(r.reparsed, false, `split after line ${line}: ${r.statuses.join(',')}`);
        assert.deepEqual(r.archived, full.messages, `split after line ${line}`);
        assert.deepEqual(r.chunks.map(view), chunkExchanges(full).map(view));
      }
    });
  });

  it('keeps parallel tool results when a read stops between them', () => {
    const text = readFileSync(SESSION, 'utf8');
    const lines = text.split('\n').slice(0, -1);
    const a = advanceClaudeCodeThread(null, lines.slice(0, 17), SESSION); // ends on the sibling result (line 17)
    assert.equal(a.status, 'full');
    const b = advanceClaudeCodeThread(roundTrip(a.state), lines.slice(17, 21), SESSION);
    assert.equal(b.status, 'append');
    if (b.status !== 'append') return;
    assert.deepEqual(
      b.conversation.messages.map((m) => m.text.slice(0, 14)),
      ['→ 1→{ ⏎ 2→  "n', '[Edit src/rout', '→ The file /ho', 'Added `loginLi'],
    );
  });

  it('answers reparse on a rewind in the appended lines, then continues after a full re-read', () => {
    const text = generateClaudeSession(400, 9);
    const lines = text.split('\n').slice(0, -1);
    const first = advanceClaudeCodeThread(null, lines, '/p/g.jsonl');
    assert.equal(first.status, 'full');
    // a new prompt that continues from the session's first user message: a rewind
    const firstUser = JSON.parse(lines.find((l) => l.includes('"type":"user"'))!) as {
      uuid: string;
      sessionId: string;
    };
    const rewind = JSON.stringify({
      type: 'user',
      uuid: 'rw-1',
      parentUuid: firstUser.uuid,
      sessionId: firstUser.sessionId,
      timestamp: '2026-01-01T00:00:00Z',
      message: { role: 'user', content: 'Start over: use SQLite instead.' },
    });
    const r = advanceClaudeCodeThread(roundTrip(first.state), [rewind], '/p/g.jsonl');
    assert.equal(r.status, 'reparse');
    if (r.status === 'reparse') assert.match(r.reason, /rewind|before the cursor/);
    const again = advanceClaudeCodeThread(null, [...lines, rewind], '/p/g.jsonl');
    assert.equal(again.status, 'full');
    if (again.status !== 'full') return;
    assert.equal(again.conversations[0]!.messages.at(-1)!.text, 'Start over: use SQLite instead.');
    assert.ok(again.conversations.some((c) => c.id.endsWith('~branch-1')));
    const next = JSON.stringify({
      type: 'assistant',
      uuid: 'rw-2',
      parentUuid: 'rw-1',
      sessionId: firstUser.sessionId,
      timestamp: '2026-01-01T00:00:09Z',
      message: { id: 'm-rw', role: 'assistant', content: [{ type: 'text', text: 'Switched to SQLite.' }] },
    });
    const cont = advanceClaudeCodeThread(roundTrip(again.state), [next], '/p/g.jsonl');
    assert.equal(cont.status, 'append');
    if (cont.status === 'append')
      assert.deepEqual(
        cont.conversation.messages.map((m) => m.text),
        ['Switched to SQLite.'],
      );
  });

  it('answers reparse when another thread group appears, and on an unknown cursor version', () => {
    const lines = readFileSync(SESSION, 'utf8').split('\n').slice(0, -1);
    const a = advanceClaudeCodeThread(null, lines, SESSION);
    const side = JSON.stringify({
      type: 'user',
      uuid: 'sc-1',
      parentUuid: null,
      isSidechain: true,
      agentId: 'zz',
      sessionId: S,
      message: { role: 'user', content: 'side task' },
    });
    assert.equal(advanceClaudeCodeThread(roundTrip(a.state), [side], SESSION).status, 'reparse');
    const bad = { ...roundTrip(a.state), v: 2 } as unknown as ClaudeCodeThreadState;
    assert.equal(advanceClaudeCodeThread(bad, [], SESSION).status, 'reparse');
  });

  it('follows a long chain of progress records across reads without keeping it all', () => {
    const lines = readFileSync(SESSION, 'utf8').split('\n').slice(0, -1);
    let r = advanceClaudeCodeThread(null, lines, SESSION) as ClaudeAdvance;
    let parent = '0a1b2c3d-0000-4000-8000-000000000035'; // the last record of the fixture
    for (let batch = 0; batch < 10; batch++) {
      const progress = Array.from({ length: 100 }, (_, i) => {
        const u = `p-${batch}-${i}`;
        const rec = JSON.stringify({
          type: 'progress',
          uuid: u,
          parentUuid: parent,
          sessionId: S,
          data: { type: 'bash_progress', output: 'still running' },
        });
        parent = u;
        return rec;
      });
      assert.notEqual(r.status, 'reparse');
      if (r.status === 'reparse') return;
      r = advanceClaudeCodeThread(roundTrip(r.state), progress, SESSION);
      assert.equal(r.status, 'append');
      if (r.status === 'append') assert.ok(r.state.tail.length <= 64 + 256, `tail ${r.state.tail.length}`);
    }
    if (r.status === 'reparse') return;
    const next = JSON.stringify({
      type: 'user',
      uuid: 'after-progress',
      parentUuid: parent,
      sessionId: S,
      message: { role: 'user', content: 'Is it done yet?' },
    });
    const done = advanceClaudeCodeThread(roundTrip(r.state), [next], SESSION);
    assert.equal(done.status, 'append');
    if (done.status === 'append')
      assert.deepEqual(
        done.conversation.messages.map((m) => m.text),
        ['Is it done yet?'],
      );
  });

  it('appends nothing for noise-only lines and keeps line numbers absolute', () => {
    const text = generateClaudeSession(300, 4);
    const lines = text.split('\n').slice(0, -1);
    const a = advanceClaudeCodeThread(null, lines.slice(0, 200), '/p/g.jsonl');
    const noise = JSON.stringify({ type: 'queue-operation', operation: 'enqueue', sessionId: sessionIdFor(4) });
    const b = advanceClaudeCodeThread(roundTrip(a.state), [noise, ''], '/p/g.jsonl');
    assert.equal(b.status, 'append');
    if (b.status !== 'append') return;
    assert.deepEqual(b.conversation.messages, []);
    assert.equal(b.state.nextLine, 203);
    const c = advanceClaudeCodeThread(roundTrip(b.state), lines.slice(200), '/p/g.jsonl');
    assert.equal(c.status, 'append');
    if (c.status === 'append') assert.ok(c.conversation.messages.every((m) => m.line === undefined || m.line >= 203));
  });
});
