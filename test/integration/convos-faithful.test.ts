/**
 * @module test/integration/convos-faithful
 * Faithful ingestion on real SQLite palaces (issue 10 and issue 11 defect 8), with small fixtures
 * written here: subagent and compaction files join their session's wing, ignore files above the
 * mined path are not consulted, formats are recognised by content, every skipped file is counted
 * by reason, and a huge first line neither hides a transcript nor holds the whole line in memory.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from '../helpers/cli.js';
import { mineAt } from '../helpers/mine.js';

type Row = { source: string; wing: string; text: string };

function rows(home: string): Row[] {
  const d = new Database(join(home, 'palace.db'), { readonly: true });
  try {
    return d.prepare('SELECT source, wing, text FROM drawers ORDER BY source, chunk_index').all() as Row[];
  } finally {
    d.close();
  }
}

const mine = mineAt;
const auto = (home: string, path: string) => mineAt(home, path, { mode: 'auto' });

const SID = '3c9e0f6a-1111-4222-8333-944455556666';
const rec = (o: Record<string, unknown>) => JSON.stringify({ sessionId: SID, version: '2.1.100', ...o });
const turn = (u: string, p: string | null, cwd: string, q: string, a: string, side = false, agentId?: string) => [
  rec({
    type: 'user',
    uuid: `${u}u`,
    parentUuid: p,
    cwd,
    isSidechain: side,
    ...(agentId ? { agentId } : {}),
    timestamp: '2026-02-01T10:00:00.000Z',
    message: { role: 'user', content: q },
  }),
  rec({
    type: 'assistant',
    uuid: `${u}a`,
    parentUuid: `${u}u`,
    cwd,
    isSidechain: side,
    ...(agentId ? { agentId } : {}),
    timestamp: '2026-02-01T10:00:05.000Z',
    message: { id: `m${u}`, role: 'assistant', content: [{ type: 'text', text: a }] },
  }),
];

describe('faithful conversation ingestion', () => {
  let work: { dir: string; cleanup: () => void };
  let n = 0;
  const home = () => join(work.dir, `home-${++n}`);
  before(() => {
    work = tempDir('loci-faithful-');
  });
  after(() => work.cleanup());

  test('subagent and compaction files join their parent session wing; --wing still wins', async () => {
    const dir = join(work.dir, 'sessions');
    mkdirSync(join(dir, SID, 'subagents'), { recursive: true });
    writeFileSync(
      join(dir, `${SID}.jsonl`),
      `${turn('1', null, '/gone/orchard-app', 'Plan the orchard import.', 'Planned.').join('\n')}\n`,
    );
    writeFileSync(
      join(dir, SID, 'subagents', 'agent-acompact-9f1e2d.jsonl'),
      turn(
        '2',
        null,
        '/gone/orchard-app/assets',
        'Summarise the session.',
        'Summary written.',
        true,
        'acompact-9f1e2d',
      ).join('\n') + '\n',
    );
    writeFileSync(
      join(dir, SID, 'subagents', 'agent-b77.jsonl'),
      `${turn('3', null, '/gone/orchard-app/lib', 'Search the code.', 'Found it.', true, 'b77').join('\n')}\n`,
    );
    const h = home();
    await mine(h, dir);
    const wings = new Set(rows(h).map((r) => r.wing));
    assert.deepEqual([...wings], ['orchard-app']);
    const forced = home();
    await mine(forced, dir, { wing: 'mine' });
    assert.deepEqual([...new Set(rows(forced).map((r) => r.wing))], ['mine']);
  });

  test("a folder a parent repo's .gitignore excludes is mined when named; its own ignore file applies", async () => {
    const repo = join(work.dir, 'repo');
    mkdirSync(join(repo, '.git'), { recursive: true });
    mkdirSync(join(repo, 'exports', 'chats'), { recursive: true });
    writeFileSync(join(repo, '.gitignore'), 'exports/\n*.jsonl\n');
    writeFileSync(join(repo, 'exports', '.gitignore'), 'scratch.txt\n');
    writeFileSync(
      join(repo, 'exports', 'chats', `${SID}.jsonl`),
      `${turn('1', null, '/gone/orchard-app', 'Where is the export?', 'In exports.').join('\n')}\n`,
    );
    writeFileSync(join(repo, 'exports', 'scratch.txt'), 'User: hi\nBot: hello\n');
    const h = home();
    const s = await mine(h, join(repo, 'exports'));
    assert.equal(s.filesMined, 1, JSON.stringify(s));
    assert.equal(s.skipped.ignored, 1, "the folder's own .gitignore still applies");
    assert.ok(s.skippedFiles.some((f) => f.reason === 'ignored' && f.path.endsWith('scratch.txt')));
    assert.match(rows(h)[0]!.text, /Where is the export\?/);
  });

  test('formats are recognised by content: Slack day files with other names, transcripts with odd names', async () => {
    const dir = join(work.dir, 'odd');
    mkdirSync(join(dir, 'team-chat'), { recursive: true });
    const msg = (ts: string, user: string, text: string) => ({
      type: 'message',
      user,
      text,
      ts,
      user_profile: { real_name: user },
    });
    writeFileSync(
      join(dir, 'team-chat', 'day one.json'),
      JSON.stringify([
        msg('1433887200.000100', 'Ana', 'Shall we meet on Thursday?'),
        msg('1433887260.000200', 'Ben', 'Thursday works.'),
      ]),
    );
    writeFileSync(
      join(dir, 'team-chat', 'export-2.JSON'),
      JSON.stringify([msg('1433973600.000100', 'Ana', 'Room 4 is booked.')]),
    );
    writeFileSync(
      join(dir, 'session backup.txt'),
      `${turn('1', null, '/gone/orchard-app', 'Name the branch.', 'Call it orchard-import.').join('\n')}\n`,
    );
    writeFileSync(
      join(dir, 'notes.data'),
      `${turn('2', null, '/gone/orchard-app', 'And the tag?', 'v2-import.').join('\n')}\n`,
    );
    writeFileSync(join(dir, 'readme.md'), '# Not a chat\n\nJust notes.\n');
    const h = home();
    const s = await mine(h, dir);
    const text = rows(h)
      .map((r) => r.text)
      .join('\n');
    for (const said of ['Shall we meet on Thursday?', 'Room 4 is booked.', 'Call it orchard-import.', 'v2-import.'])
      assert.ok(text.includes(said), said);
    assert.equal(s.skipped.unrecognised, 1, 'readme.md is not a conversation');
    assert.equal(s.filesScanned, s.filesMined + s.filesUnchanged + s.filesSkipped, 'every file is accounted for');
  });

  test('Slack export: root metadata are companions; a new day file of a mined channel joins it', async () => {
    // Discovery looks at a file's folder only for Slack roots and channels (an unchanged re-mine classifies every
    // file): the root's JSON files stay companions and a new `YYYY-MM-DD.json` of a mined channel is read with it.
    const dir = join(work.dir, 'slack-export');
    mkdirSync(join(dir, 'general'), { recursive: true });
    const msg = (ts: string, user: string, text: string) => ({ type: 'message', user, text, ts });
    writeFileSync(join(dir, 'users.json'), JSON.stringify([{ id: 'U1', name: 'ana', real_name: 'Ana Lima' }]));
    writeFileSync(join(dir, 'channels.json'), JSON.stringify([{ id: 'C1', name: 'general' }]));
    writeFileSync(
      join(dir, 'general', '2026-01-05.json'),
      JSON.stringify([msg('1767607200.000100', 'U1', 'The launch moves to Friday.')]),
    );
    const h = home();
    const first = await mine(h, dir);
    assert.equal(first.skipped.companion, 2, JSON.stringify(first.skipped));
    assert.ok(rows(h).some((r) => r.text.includes('The launch moves to Friday.')));
    writeFileSync(
      join(dir, 'general', '2026-01-06.json'),
      JSON.stringify([msg('1767693600.000100', 'U1', 'Friday is confirmed by legal.')]),
    );
    const again = await mine(h, dir);
    assert.equal(again.skipped.companion, 2, JSON.stringify(again.skipped));
    assert.equal(again.filesScanned, again.filesMined + again.filesUnchanged + again.filesSkipped);
    const texts = rows(h).map((r) => r.text);
    assert.ok(
      texts.some((t) => t.includes('Friday is confirmed by legal.')),
      texts.join('\n'),
    );
    assert.ok(texts.some((t) => t.includes('The launch moves to Friday.')));
  });

  test('every skipped file is counted by reason; an unknown record type is reported once per run', async () => {
    const dir = join(work.dir, 'skips');
    mkdirSync(join(dir, 'node_modules', 'x'), { recursive: true });
    writeFileSync(join(dir, 'node_modules', 'x', 'a.jsonl'), '{}\n');
    writeFileSync(join(dir, 'logo.png'), 'png');
    writeFileSync(join(dir, 'plain.txt'), 'just a line of text\n');
    const odd = (u: string) =>
      [
        ...turn(u, null, '/gone/orchard-app', `Question ${u}?`, `Answer ${u}.`),
        rec({ type: 'hologram', uuid: `${u}h`, parentUuid: `${u}a` }),
      ].join('\n');
    writeFileSync(join(dir, 'a.jsonl'), `${odd('1')}\n`);
    writeFileSync(join(dir, 'b.jsonl'), `${odd('2').replaceAll(SID, 'other-session')}\n`);
    const s = await mine(home(), dir);
    assert.deepEqual(
      { ignored: s.skipped.ignored, binary: s.skipped.binary, unrecognised: s.skipped.unrecognised },
      { ignored: 1, binary: 1, unrecognised: 1 },
    );
    assert.equal(s.filesSkipped, 3);
    const unknown = s.warnings.filter((w) => w.includes('hologram'));
    assert.equal(unknown.length, 1, unknown.join('\n'));
    assert.match(unknown[0]!, /2 record\(s\) in 2 file\(s\)/);
  });

  test('a huge first line (keys after the content) neither hides a transcript nor is held whole', async () => {
    const dir = join(work.dir, 'huge');
    mkdirSync(dir, { recursive: true });
    const big = 'x'.repeat(10 * 1024 * 1024);
    // content first, envelope keys last: detection must not depend on key order
    const first = JSON.stringify({
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't0', content: big }] },
      type: 'user',
      parentUuid: null,
      uuid: '0u',
      sessionId: SID,
      cwd: '/gone/orchard-app',
      timestamp: '2026-02-01T09:59:00.000Z',
    });
    const file = join(dir, 'pasted-log');
    writeFileSync(
      file,
      `${[first, ...turn('1', '0u', '/gone/orchard-app', 'Which parser failed?', 'The CSV parser.')].join('\n')}\n`,
    );
    const h = home();
    const s = await auto(h, dir);
    assert.equal(s.filesMined, 1, JSON.stringify({ ...s, skippedFiles: undefined }));
    assert.ok(
      s.warnings.some((w) => w.includes(file) && /line 1 is 10\.0 MB/.test(w)),
      s.warnings.join('\n'),
    );
    const texts = rows(h).map((r) => r.text);
    assert.ok(texts.some((t) => t.includes('Which parser failed?') && t.includes('The CSV parser.')));
    assert.ok(
      texts.every((t) => t.length < 5000),
      'the huge record is not stored',
    );
  });
});
