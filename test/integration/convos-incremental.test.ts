/**
 * @module test/integration/convos-incremental
 * The conversation miner on real SQLite palaces in temp folders: growing transcripts are read from
 * the committed offset (only new drawers), a truncated last line waits for the next run, a
 * rewritten file is mined again from the start, an unchanged file writes nothing, the open last
 * exchange is stored at once and replaced as it grows, and the persisted cursors hold no secret. Every incremental
 * result is compared with a clean mine of the final file.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openPalace } from '../../src/index.js';
import { generateClaudeSession } from '../fixtures/convos/generate-claude-session.js';
import { tempDir } from '../helpers/cli.js';
import { mineAt } from '../helpers/mine.js';

type Row = {
  id: string;
  chunk_index: number;
  text: string;
  wing: string;
  room: string;
  hall: string | null;
  content_date: string | null;
  line_start: number | null;
  line_end: number | null;
};

function rows(home: string, source?: string): Row[] {
  const d = new Database(join(home, 'palace.db'), { readonly: true });
  try {
    const where = source ? 'WHERE source = ?' : '';
    return d
      .prepare(
        `SELECT id, chunk_index, text, wing, room, hall, content_date, line_start, line_end FROM drawers ${where} ` +
          'ORDER BY source, chunk_index',
      )
      .all(...(source ? [source] : [])) as Row[];
  } finally {
    d.close();
  }
}

const mine = mineAt;

/** `mine` with the clock set just after the file's mtime: the file is not idle. */
const fresh = (file: string) => ({ now: () => statSync(file).mtimeMs + 1000 });

describe('conversation miner: incremental and idempotent', () => {
  let work: { dir: string; cleanup: () => void };
  let n = 0;
  const home = () => join(work.dir, `home-${++n}`);
  before(() => {
    work = tempDir('loci-convos-');
  });
  after(() => work.cleanup());

  test('a growing session: re-mining adds only the new exchanges and equals a clean mine', async () => {
    const lines = generateClaudeSession(1200, 11).split('\n');
    const file = join(work.dir, 'grow', 'session.jsonl');
    mkdirSync(join(work.dir, 'grow'), { recursive: true });
    writeFileSync(file, `${lines.slice(0, 400).join('\n')}\n`);
    const h = home();
    const s1 = await mine(h, file, fresh(file));
    assert.ok(s1.drawersAdded > 10, JSON.stringify(s1));
    assert.equal(s1.conversations, 1);
    const first = rows(h).map((r) => r.id);
    appendFileSync(file, `${lines.slice(400, 800).join('\n')}\n`);
    const s2 = await mine(h, file, fresh(file));
    assert.ok(s2.drawersAdded > 10);
    assert.equal(s2.drawersRemoved, 0);
    assert.equal(s2.drawersUpdated, 0);
    assert.ok(s2.bytesRead < statSync(file).size / 2, 'only the appended bytes are read');
    const second = rows(h).map((r) => r.id);
    assert.deepEqual(second.slice(0, first.length), first, 'earlier drawers are kept as they were');
    assert.equal(second.length, first.length + s2.drawersAdded);
    const clean = home();
    await mine(clean, file, fresh(file));
    assert.deepEqual(rows(h), rows(clean));
  });

  test('a truncated last line is left for the next run', async () => {
    const text = generateClaudeSession(300, 12);
    const file = join(work.dir, 'cut', 'session.jsonl');
    mkdirSync(join(work.dir, 'cut'), { recursive: true });
    const cutAt = text.indexOf('\n', Math.floor(text.length * 0.6)) + 40;
    writeFileSync(file, text.slice(0, cutAt));
    const h = home();
    const s1 = await mine(h, file, fresh(file));
    assert.equal(s1.warnings.filter((w) => /malformed/.test(w)).length, 0, 'the cut line is not parsed at all');
    writeFileSync(file, text);
    await mine(h, file, fresh(file));
    const clean = home();
    await mine(clean, file, fresh(file));
    assert.deepEqual(rows(h), rows(clean));
  });

  test('a 2 MB line (a huge tool result) cut across two runs is read whole, its tool line kept short', async () => {
    const base = {
      sessionId: 'long-1',
      cwd: '/home/dev/big',
      version: '2.1.98',
      isSidechain: false,
      userType: 'external',
    };
    const huge = 'row,value\n'.repeat(200_000); // ~2 MB
    const recs = [
      {
        ...base,
        type: 'user',
        uuid: 'u1',
        parentUuid: null,
        timestamp: '2025-06-01T10:00:00.000Z',
        message: { role: 'user', content: 'dump the table' },
      },
      {
        ...base,
        type: 'assistant',
        uuid: 'a1',
        parentUuid: 'u1',
        timestamp: '2025-06-01T10:00:01.000Z',
        message: {
          id: 'm1',
          role: 'assistant',
          content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'cat table.csv' } }],
        },
      },
      {
        ...base,
        type: 'user',
        uuid: 'r1',
        parentUuid: 'a1',
        timestamp: '2025-06-01T10:00:02.000Z',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: huge }] },
      },
      {
        ...base,
        type: 'assistant',
        uuid: 'a2',
        parentUuid: 'r1',
        timestamp: '2025-06-01T10:00:03.000Z',
        message: { id: 'm2', role: 'assistant', content: [{ type: 'text', text: 'The table has 200000 rows.' }] },
      },
      {
        ...base,
        type: 'user',
        uuid: 'u2',
        parentUuid: 'a2',
        timestamp: '2025-06-01T10:01:00.000Z',
        message: { role: 'user', content: 'thanks' },
      },
    ];
    const text = `${recs.map((r) => JSON.stringify(r)).join('\n')}\n`;
    assert.ok(text.length > 2_000_000);
    const file = join(work.dir, 'long', 'session.jsonl');
    mkdirSync(join(work.dir, 'long'), { recursive: true });
    writeFileSync(file, text.slice(0, 1_000_000)); // in the middle of the long line
    const h = home();
    const a = await mine(h, file, fresh(file));
    assert.equal(a.drawersAdded, 1, 'the open first exchange is stored at once');
    assert.equal(rows(h)[0]!.text, 'User: dump the table\nAssistant: [Bash] cat table.csv');
    writeFileSync(file, text);
    const b = await mine(h, file, fresh(file));
    assert.equal(b.drawersAdded, 2, 'the grown first exchange and the open second one');
    assert.equal(b.drawersRemoved, 1, 'the earlier drawer of the first exchange is replaced');
    const [d] = rows(h);
    assert.ok(d!.text.length < 1000, 'the tool result is a short line');
    assert.match(d!.text, /^User: dump the table\nAssistant: \[Bash\] cat table\.csv\n→ row,value ⏎ row,value/);
    const clean = home();
    await mine(clean, file, fresh(file));
    assert.deepEqual(rows(h), rows(clean));
  });

  test('a rewritten file (another prefix) is mined again from the start', async () => {
    const file = join(work.dir, 'rewrite', 'session.jsonl');
    mkdirSync(join(work.dir, 'rewrite'), { recursive: true });
    writeFileSync(file, generateClaudeSession(300, 13));
    const h = home();
    await mine(h, file, fresh(file));
    const before = new Set(rows(h).map((r) => r.id));
    writeFileSync(file, generateClaudeSession(500, 14));
    const s = await mine(h, file, fresh(file));
    assert.ok(s.drawersRemoved > 0, 'the old drawers are gone');
    const clean = home();
    await mine(clean, file, fresh(file));
    assert.deepEqual(rows(h), rows(clean));
    assert.ok(rows(h).every((r) => !before.has(r.id)));
  });

  test('other settings (part length, redaction) re-read the file and replace its drawers', async () => {
    const file = join(work.dir, 'settings', 'session.jsonl');
    mkdirSync(join(work.dir, 'settings'), { recursive: true });
    writeFileSync(file, generateClaudeSession(300, 17));
    const h = home();
    const a = await mine(h, file, fresh(file));
    const b = await mine(h, file, { ...fresh(file), maxChars: 400 });
    assert.ok(b.drawersAdded > a.drawersAdded, 'shorter parts: more drawers');
    assert.ok(b.drawersRemoved > 0, 'the old, longer parts are gone');
    assert.equal(rows(h).length, a.drawersAdded - b.drawersRemoved + b.drawersAdded);
    const clean = home();
    await mine(clean, file, { ...fresh(file), maxChars: 400 });
    assert.deepEqual(rows(h), rows(clean));
    const c = await mine(h, file, { ...fresh(file), maxChars: 400, redact: false });
    assert.deepEqual(
      [c.filesMined, c.drawersAdded, c.drawersRemoved],
      [1, 0, 0],
      'read again; nothing to redact here, so the same drawers',
    );
  });

  test('an unchanged file writes nothing: zero counts and the same database bytes', async () => {
    const file = join(work.dir, 'same', 'session.jsonl');
    mkdirSync(join(work.dir, 'same'), { recursive: true });
    writeFileSync(file, generateClaudeSession(200, 15));
    const h = home();
    await mine(h, file, fresh(file));
    const bytes = readFileSync(join(h, 'palace.db'));
    const s = await mine(h, file, fresh(file));
    assert.deepEqual(
      [s.drawersAdded, s.drawersUpdated, s.drawersRemoved, s.filesMined, s.filesUnchanged, s.conversations],
      [0, 0, 0, 0, 1, 0],
    );
    assert.ok(readFileSync(join(h, 'palace.db')).equals(bytes), 'the database file did not change');
  });

  test('the open last exchange is stored at once and replaced as it grows; flush and idle change nothing', async () => {
    const lines = generateClaudeSession(200, 16).split('\n').filter(Boolean);
    const file = join(work.dir, 'open', 'session.jsonl');
    mkdirSync(join(work.dir, 'open'), { recursive: true });
    const h = home();
    const seen = new Set<string>();
    for (const k of [40, 41, 90, 150, lines.length]) {
      writeFileSync(file, `${lines.slice(0, k).join('\n')}\n`);
      await mine(h, file, fresh(file));
      const got = rows(h);
      const clean = home();
      await mine(clean, file, fresh(file));
      assert.deepEqual(got, rows(clean), `after ${k} lines the archive equals a clean mine (open exchange included)`);
      const ids = got.map((r) => r.id);
      assert.equal(new Set(ids).size, ids.length, 'no duplicates');
      const exchanges = got.map((r) => r.chunk_index);
      assert.equal(
        new Set(exchanges).size,
        exchanges.length,
        'one drawer per chunk index: the replaced open drawer is gone',
      );
      for (const id of ids) seen.add(id);
    }
    const last = rows(h);
    assert.match(last[last.length - 1]!.text, /\S/, 'the latest words are stored');
    const again = await mine(h, file, fresh(file));
    assert.equal(again.drawersAdded + again.drawersRemoved, 0, 'unchanged: nothing written');
    const flushed = home();
    await mine(flushed, file, { ...fresh(file), flush: true, idleMinutes: 1 });
    assert.deepEqual(rows(flushed), last, '--flush / --idle-minutes are accepted and change nothing');
  });

  test('history.jsonl and Codex logs grow append-only too', async () => {
    const dir = join(work.dir, 'agents');
    mkdirSync(dir, { recursive: true });
    const history = join(dir, 'history.jsonl');
    const rec = (i: number, session: string) =>
      JSON.stringify({
        display: `prompt number ${i} about the zebra migration`,
        pastedContents: {},
        timestamp: 1749720607000 + i * 60_000,
        project: '/home/dev/zoo',
        sessionId: session,
      });
    writeFileSync(history, `${[0, 1, 2].map((i) => rec(i, 's-1')).join('\n')}\n`);
    const h = home();
    const a = await mine(h, history, fresh(history));
    assert.equal(a.drawersAdded, 3, 'prompts are complete when written: none stays open');
    appendFileSync(history, `${[3, 4].map((i) => rec(i, i === 3 ? 's-1' : 's-2')).join('\n')}\n`);
    const b = await mine(h, history, fresh(history));
    assert.equal(b.drawersAdded, 2);
    const codex = join(dir, 'rollout-2025-05-20T09-14-03-0196f2a1-7c3e-7d10-9b2a-5e8f4c1d2a3b.jsonl');
    const meta = {
      timestamp: '2025-05-20T09:14:03.000Z',
      type: 'session_meta',
      payload: { id: 'codex-session-1', cwd: '/home/dev/ledger', git: { branch: 'main' } },
    };
    const turn = (i: number) => [
      {
        timestamp: `2025-05-20T09:1${i}:10.000Z`,
        type: 'event_msg',
        payload: { type: 'user_message', message: `question ${i} about rounding` },
      },
      {
        timestamp: `2025-05-20T09:1${i}:11.000Z`,
        type: 'response_item',
        payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: `answer ${i}` }] },
      },
      {
        timestamp: `2025-05-20T09:1${i}:12.000Z`,
        type: 'event_msg',
        payload: { type: 'agent_message', message: `answer ${i}` },
      },
    ];
    const all = [meta, ...turn(1), ...turn(2), ...turn(3)].map((r) => JSON.stringify(r));
    writeFileSync(codex, `${all.slice(0, 5).join('\n')}\n`);
    await mine(h, codex, fresh(codex));
    appendFileSync(codex, `${all[5]}\n`); // a slice with a response item and no event record
    await mine(h, codex, fresh(codex));
    appendFileSync(codex, `${all.slice(6).join('\n')}\n`);
    await mine(h, codex, { flush: true });
    const clean = home();
    await mine(clean, codex, { flush: true });
    assert.deepEqual(rows(h, codex), rows(clean, codex));
    const texts = rows(h, codex).map((r) => r.text);
    assert.equal(texts.length, 3);
    assert.ok(
      texts.every((t) => (t.match(/Assistant: answer/g) ?? []).length === 1),
      'no answer doubled across the cut',
    );
    const p = await openPalace({ home: h, embedder: null });
    try {
      const d = (await p.listDrawers({ source: codex }, { limit: 1, order: 'source' })).drawers[0]!;
      assert.equal(d.metadata.sessionId, 'codex-session-1', 'the header of the first read is kept');
      assert.equal(d.metadata.gitBranch, 'main');
    } finally {
      await p.close();
    }
  });

  test('persisted cursors and drawers hold no secret; --no-redact keeps them', async () => {
    const file = join(work.dir, 'secret', 'session.jsonl');
    mkdirSync(join(work.dir, 'secret'), { recursive: true });
    const key = 'sk-ant-api03-FAKEfakeFAKEfake0123456789abcdefXYZ';
    const base = {
      sessionId: 'sec-1',
      cwd: '/home/dev/vault',
      version: '2.1.98',
      isSidechain: false,
      userType: 'external',
    };
    const recs = [
      { type: 'summary', summary: `Rotating ${key} for the billing job`, leafUuid: 'x' },
      {
        ...base,
        type: 'user',
        uuid: 'u1',
        parentUuid: null,
        timestamp: '2025-06-01T10:00:00Z',
        message: { role: 'user', content: `my key is ${key}, why is it rejected?` },
      },
      {
        ...base,
        type: 'assistant',
        uuid: 'a1',
        parentUuid: 'u1',
        timestamp: '2025-06-01T10:00:05Z',
        message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'It expired. Create a new one.' }] },
      },
      { type: 'custom-title', customTitle: `key ${key}`, sessionId: 'sec-1' },
    ];
    writeFileSync(file, `${recs.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const h = home();
    const s = await mine(h, file, fresh(file)); // the last exchange stays open, in the cursor
    assert.ok(s.redactions >= 3, JSON.stringify(s));
    const db = new Database(join(h, 'palace.db'), { readonly: true });
    const state = db.prepare('SELECT state FROM sources WHERE source = ?').pluck().get(file) as string;
    db.close();
    assert.match(state, /REDACTED/);
    assert.ok(!readFileSync(join(h, 'palace.db')).includes(key), 'no secret in the database file');
    await mine(h, file, { flush: true });
    assert.ok(!readFileSync(join(h, 'palace.db')).includes(key));
    const raw = home();
    const r = await mine(raw, file, { flush: true, redact: false });
    assert.equal(r.redactions, 0);
    assert.ok(readFileSync(join(raw, 'palace.db')).includes(key), '--no-redact stores the text as it is');
  });

  test('worker threads store exactly what the inline miner stores', async () => {
    const tree = join(import.meta.dirname, '..', 'fixtures', 'convos');
    const inline = home();
    const threaded = home();
    const a = await mine(inline, tree, { workers: 0, flush: true });
    const b = await mine(threaded, tree, { workers: 2, flush: true });
    assert.equal(b.drawersAdded, a.drawersAdded);
    assert.deepEqual(rows(threaded), rows(inline));
  });

  test('a touched but unchanged whole-file export only refreshes its bookkeeping', async () => {
    const src = join(import.meta.dirname, '..', 'fixtures', 'convos', 'chatgpt', 'conversations.json');
    const file = join(work.dir, 'export', 'conversations.json');
    mkdirSync(join(work.dir, 'export'), { recursive: true });
    writeFileSync(file, readFileSync(src));
    const h = home();
    const a = await mine(h, file);
    assert.equal(a.conversations, 3 + 2, 'three conversations and two abandoned branches');
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const b = await mine(h, file);
    assert.deepEqual([b.drawersAdded, b.drawersUpdated, b.drawersRemoved, b.filesUnchanged], [0, 0, 0, 1]);
  });
});
