/**
 * @module test/e2e/convos
 * Conversation mining through the `loci` CLI (in-process, `lociIn`): every fixture format mined with
 * `--mode convos` and in auto mode, then found by `loci search` with its session id, date and
 * neighbouring exchanges; date filters and time cues; redaction (the database bytes never hold a
 * fixture secret, `--no-redact` keeps them); `loci mine --claude` on a fake Claude Code folder
 * whose sessions ran in two git repositories; flag errors.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ROOT, tempDir } from '../helpers/cli.js';
import { lociIn } from '../helpers/cli-in-process.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'convos');
const SESSION = '5f0c2e1a-8b7d-4c3e-9a21-3f6d0b9e4c10';

/** Fake secrets planted in the fixtures (see test/fixtures/convos/README.md). */
const SECRETS = [
  'S3cretPass42',
  'sk-proj-Zx8fake0TESTKEY1234567890abcdefGHIJ',
  'AKIAIOSFODNN7EXAMPLE',
  'xoxb-2048-4096-FAKEfakeFAKEfake01',
  'Wr3nchT!me-2024',
];

interface Hit {
  id: string;
  wing: string;
  room: string;
  source: string;
  content_date: string | null;
  text: string;
  context?: { id: string; chunk_index: number; text: string }[];
}

interface Case {
  /** Fixture path (relative to the fixture root) the hit must come from. */
  file: string;
  query: string;
  text: RegExp;
  /** Expected content date (prefix), or null when the format has none. */
  date: string | null;
  /** Expected `metadata.sessionId`. */
  session: string | RegExp;
  /** Texts the ±1 neighbours must match (same conversation), in chunk order. */
  neighbours?: RegExp[];
}

const CASES: Case[] = [
  {
    file: `claude-code/projects/-home-dev-acme-api/${SESSION}.jsonl`,
    query: 'exempt the health-check range',
    text: /Keep 5 per minute, but exempt the health-check range 10\.0\.0\.0\/8/,
    date: '2025-06-12',
    session: SESSION,
    // a title sits before the exchange it was written during
    neighbours: [/^Title: Login rate limiting/, /^Summary: This session is being continued/],
  },
  {
    file: `claude-code/projects/-home-dev-acme-api/${SESSION}/subagents/agent-a1b2c3d.jsonl`,
    query: 'review the rate limiter configuration for mistakes',
    text: /Review the rate limiter configuration/,
    date: '2025-06-12',
    session: SESSION,
  },
  {
    file: 'claude-code/projects/-home-dev-acme-api/agent-9e8d7c6b.jsonl',
    query: 'every place that reads REDIS_URL',
    text: /Find every place/,
    date: '2025-06-12',
    session: '3c2b1a09-1111-4222-8333-444455556666',
  },
  {
    file: 'claude-code/projects/-home-dev-weird/9d8c7b6a-5555-4666-8777-888899990000.jsonl',
    query: 'CSV import choke characters',
    text: /Latin-1/,
    date: '2025-06-12',
    session: '9d8c7b6a-5555-4666-8777-888899990000',
    neighbours: [/^User: Thanks, that worked/],
  },
  {
    file: 'claude-code/history.jsonl',
    query: 'webkit line clamp property',
    text: /-webkit-line-clamp/,
    date: '2025-05-02',
    session: 'history:/home/dev/notes-site',
    neighbours: [/screenshot of the broken layout/],
  },
  {
    file: 'chatgpt/conversations.json',
    query: 'GIN BTREE jsonb containment',
    text: /containment queries/,
    date: '2024-05-02',
    session: '6633b2e1-2e3f-4d6c-8b9a-1f2e3d4c5b61',
    neighbours: [/^User: And for equality on one key/],
  },
  {
    file: 'chatgpt/single-conversation.json',
    query: 'starter doubles feed bake',
    text: /starter doubles in 4 hours/,
    date: '2024-05-01',
    session: '6633a1f0-1d2e-4c5b-9a8f-0e1d2c3b4a50',
  },
  {
    file: 'claude-ai/conversations.json',
    query: 'euros nights Lisbon October',
    text: /900 euros/,
    date: '2024-09-03',
    session: '0f9e8d7c-6b5a-4938-8271-605f4e3d2c1b',
    neighbours: [/draft itinerary/],
  },
  {
    file: 'claude-ai/flat.json',
    query: 'mutex semaphore difference',
    text: /mutex and a semaphore/,
    date: null,
    session: /^claude-ai-/,
  },
  {
    file: 'slack/eng-backend',
    query: 'nightly export job timeout warehouse',
    text: /nightly export job failed again/,
    date: '2024-03-04',
    session: 'slack:eng-backend:1709542860.000200',
    neighbours: [/port 5439 was missing/],
  },
  {
    file: 'codex/sessions/2025/05/20/rollout-2025-05-20T09-14-03-0196f2a1-7c3e-7d10-9b2a-5e8f4c1d2a3b.jsonl',
    query: 'monthly balance report off by one cent',
    text: /off by one cent in March/,
    date: '2025-05-20',
    session: '0196f2a1-7c3e-7d10-9b2a-5e8f4c1d2a3b',
    neighbours: [/^User: Do it\./],
  },
  {
    file: 'codex/sessions/2025/01/08/rollout-2025-01-08-legacy.jsonl',
    query: 'rename usr variables',
    text: /Rename the `usr` variables/,
    date: null,
    session: '5e1d2c3b-4a59-4876-9a5b-4c3d2e1f0a9b',
  },
  {
    file: 'gemini/chat-2025-07-02.jsonl',
    query: 'set euo pipefail',
    text: /pipefail/,
    date: '2025-07-02',
    session: '2b3c4d5e-6f70-4819-a2b3-c4d5e6f70819',
  },
  {
    file: 'gemini/checkpoint-auth-refactor.json',
    query: 'split auth.ts into token.ts and session.ts',
    text: /Split auth\.ts/,
    date: null,
    session: /^gemini-/,
  },
  {
    file: 'gemini/tmp/8c1f0e2d/chats/session-2025-07-01T10-00-9f8e7d6c.json',
    query: 'compress hero.png losslessly oxipng',
    text: /oxipng/,
    date: '2025-07-01',
    session: '9f8e7d6c-1a2b-4c3d-8e9f-0a1b2c3d4e5f',
    neighbours: [/three biggest files/],
  },
  {
    file: 'gemini/tmp/8c1f0e2d/logs.json',
    query: 'quit',
    text: /^User: \/quit$/,
    date: '2025-07-03',
    session: 'aa11bb22-cc33-4d44-8e55-ff6677889900',
  },
  {
    file: 'chat-text/quoted-transcript.md',
    query: 'undo the last commit keep my changes',
    text: /git reset --soft/,
    date: null,
    session: /^chat-/,
    neighbours: [/already pushed/],
  },
  {
    file: 'chat-text/human-assistant.txt',
    query: 'EADDRINUSE address already in use',
    text: /lsof -i :3000/,
    date: null,
    session: /^chat-/,
    neighbours: [/pick a free port/],
  },
  {
    file: 'chat-text/user-ai.txt',
    query: 'name for a cat that likes boxes',
    text: /Cardboard Cassius/,
    date: null,
    session: /^chat-/,
    neighbours: [/Flap/],
  },
  {
    file: 'chat-text/team-chat.txt',
    query: 'standup moved planning review',
    text: /Standup moved to 10:00/,
    date: '2024-03-04',
    session: /^chat-/,
    neighbours: [/review my PR for the retry logic/],
  },
  {
    file: 'chat-text/meeting-notes.md',
    query: 'Left Hand of Darkness ice crossing',
    text: /ice crossing chapter/,
    date: '2023-05-08',
    session: /^chat-/,
    neighbours: [/novellas in summer/],
  },
];

async function search(home: string, args: string[]): Promise<{ results: Hit[] }> {
  const r = await lociIn(['search', ...args, '--json'], { home });
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as { results: Hit[] };
}

function metadata(home: string, id: string): Record<string, unknown> {
  const db = new Database(join(home, 'palace.db'), { readonly: true });
  try {
    return JSON.parse(db.prepare('SELECT metadata FROM drawers WHERE id = ?').pluck().get(id) as string) as Record<
      string,
      unknown
    >;
  } finally {
    db.close();
  }
}

function drawerIds(home: string, where = '1'): string[] {
  const db = new Database(join(home, 'palace.db'), { readonly: true });
  try {
    return db.prepare(`SELECT id FROM drawers WHERE ${where} ORDER BY id`).pluck().all() as string[];
  } finally {
    db.close();
  }
}

function dbBytes(home: string): Buffer {
  const parts: Buffer[] = [];
  for (const s of ['', '-wal']) {
    try {
      parts.push(readFileSync(join(home, `palace.db${s}`)));
    } catch {
      /* absent */
    }
  }
  return Buffer.concat(parts);
}

describe('loci mine: conversations', () => {
  let work: { dir: string; cleanup: () => void };
  let tree: string;
  let convos: string;
  let auto: string;
  before(() => {
    work = tempDir('loci-convos-e2e-');
    tree = join(work.dir, 'convos');
    cpSync(FIXTURES, tree, { recursive: true });
    convos = join(work.dir, 'home-convos');
    auto = join(work.dir, 'home-auto');
  });
  after(() => work.cleanup());

  test('--mode convos mines every format; the JSON summary adds redactions and conversations', async () => {
    const r = await lociIn(['mine', tree, '--mode', 'convos', '--flush', '--json'], { home: convos });
    assert.equal(r.code, 0, r.stderr);
    const s = JSON.parse(r.stdout);
    for (const k of [
      'files_scanned',
      'files_skipped',
      'files_unchanged',
      'drawers_added',
      'drawers_updated',
      'drawers_removed',
      'bytes_read',
      'seconds',
      'wing',
      'warnings',
      'redactions',
      'conversations',
    ]) {
      assert.ok(k in s, k);
    }
    assert.ok(s.conversations >= 25, JSON.stringify(s));
    assert.equal(s.redactions, SECRETS.length);
    assert.ok(s.drawers_added >= 50);
    assert.ok(
      s.warnings.some((w: string) => /malformed JSON/.test(w)),
      'the malformed line is reported',
    );
    const again = JSON.parse((await lociIn(['mine', tree, '--mode', 'convos', '--json'], { home: convos })).stdout);
    assert.deepEqual(
      [again.drawers_added, again.drawers_updated, again.drawers_removed, again.conversations, again.redactions],
      [0, 0, 0, 0, 0],
    );
  });

  for (const c of CASES) {
    test(`search finds ${c.file} with its session, date and neighbours`, async () => {
      const res = await search(convos, [c.query, '--context', '1', '-n', '10']);
      const hit = res.results.find((h) => h.source === join(tree, c.file) && c.text.test(h.text));
      assert.ok(
        hit,
        `no hit from ${c.file} in ${JSON.stringify(res.results.map((h) => [h.source, h.text.slice(0, 60)]))}`,
      );
      assert.equal(hit.content_date?.slice(0, 10) ?? null, c.date);
      const meta = metadata(convos, hit.id);
      if (typeof c.session === 'string') assert.equal(meta.sessionId, c.session);
      else assert.match(String(meta.sessionId), c.session);
      const ctx = hit.context ?? [];
      if (c.neighbours) {
        assert.equal(ctx.length, c.neighbours.length, JSON.stringify(ctx.map((d) => d.text.slice(0, 50))));
        c.neighbours.forEach((re, i) => assert.match(ctx[i]!.text, re));
      }
      for (const n of ctx)
        assert.equal(metadata(convos, n.id).conversationId, meta.conversationId, 'neighbours stay in the conversation');
    });
  }

  test('a tool result saved to a sidecar file is read from it', async () => {
    const hit = (await search(convos, ['login succeeds with valid credentials'])).results[0];
    assert.ok(
      hit && hit.source.endsWith(`${SESSION}.jsonl`),
      'the full output in tool-results/ is archived, not the 2 KB preview',
    );
    assert.match(hit.text, /\[Bash\] npm test/);
  });

  test('auto mode sends conversations to the conversation miner and the rest to the project miner', async () => {
    const r = await lociIn(['mine', tree, '--flush', '--json'], { home: auto });
    assert.equal(r.code, 0, r.stderr);
    const s = JSON.parse(r.stdout);
    assert.ok(s.conversations >= 25);
    // The conversations' secrets plus the example keys in the fixtures' README (project files are redacted too).
    assert.ok(s.redactions > SECRETS.length, `${s.redactions} redactions`);
    const convoSources = "source IN (SELECT source FROM sources WHERE kind = 'convo')";
    assert.deepEqual(
      drawerIds(auto, convoSources),
      drawerIds(convos),
      'the same conversation drawers as --mode convos',
    );
    const db = new Database(join(auto, 'palace.db'), { readonly: true });
    const projectFiles = (
      db.prepare("SELECT source FROM sources WHERE kind = 'project' ORDER BY source").pluck().all() as string[]
    ).map((p) => p.slice(tree.length + 1));
    db.close();
    assert.deepEqual(projectFiles, ['README.md', 'chat-text/not-a-chat.md', 'generate-claude-session.ts']);
    const hit = (await search(auto, ['webkit line clamp'])).results.find((h) => h.source.endsWith('history.jsonl'));
    assert.ok(hit, 'conversations are searchable after auto mining');
    const again = JSON.parse((await lociIn(['mine', tree, '--json'], { home: auto })).stdout);
    assert.deepEqual([again.drawers_added, again.drawers_updated, again.drawers_removed], [0, 0, 0]);
  });

  test('--since/--until filter conversation drawers by when they were said', async () => {
    const june = (
      await search(convos, ['rate limiting login', '--since', '2025-06-01', '--until', '2025-06-30', '-n', '20'])
    ).results;
    assert.ok(june.length >= 3);
    assert.ok(
      june.every((h) => h.content_date !== null && h.content_date.startsWith('2025-06')),
      JSON.stringify(june.map((h) => h.content_date)),
    );
    assert.deepEqual((await search(convos, ['GIN BTREE jsonb', '--until', '2024-04-30'])).results, []);
    assert.ok(
      (await search(convos, ['GIN BTREE jsonb', '--since', '2024-05-02', '--until', '2024-05-02'])).results.length >= 1,
    );
  });

  test('a time cue in the question ("last week") ranks by when it was said', async () => {
    const day = 86_400_000;
    const at = (daysAgo: number, minutes = 0) => new Date(Date.now() - daysAgo * day + minutes * 60_000).toISOString();
    const base = {
      sessionId: 'tc-1',
      cwd: '/home/dev/storage-lab',
      version: '2.1.98',
      isSidechain: false,
      userType: 'external',
    };
    const turn = (n: number, daysAgo: number, text: string, reply: string) => [
      {
        ...base,
        type: 'user',
        uuid: `u${n}`,
        parentUuid: n === 1 ? null : `a${n - 1}`,
        timestamp: at(daysAgo),
        message: { role: 'user', content: text },
      },
      {
        ...base,
        type: 'assistant',
        uuid: `a${n}`,
        parentUuid: `u${n}`,
        timestamp: at(daysAgo, 1),
        message: { id: `m${n}`, role: 'assistant', content: [{ type: 'text', text: reply }] },
      },
    ];
    const recs = [
      ...turn(
        1,
        200,
        'What storage engine should the ledger use? Decide the storage engine for the ledger service.',
        'We decided on PostgreSQL as the storage engine for the ledger.',
      ),
      ...turn(
        2,
        7,
        'Revisit the storage engine decision for the ledger service.',
        'We decided to move the ledger storage engine to SQLite with WAL.',
      ),
      ...turn(3, 6, 'thanks', 'You are welcome.'),
    ];
    const file = join(work.dir, 'timecue', 'tc-1.jsonl');
    mkdirSync(join(work.dir, 'timecue'), { recursive: true });
    writeFileSync(file, `${recs.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const home = join(work.dir, 'home-timecue');
    assert.equal((await lociIn(['mine', file, '--flush'], { home })).code, 0);
    const plain = (await search(home, ['what did we decide about the ledger storage engine', '-n', '2'])).results;
    assert.match(plain[0]!.text, /PostgreSQL/, 'without a cue the closer wording wins');
    const cued = (await search(home, ['what did we decide about the ledger storage engine last week', '-n', '2']))
      .results;
    assert.match(cued[0]!.text, /SQLite with WAL/, 'last week: the recent exchange first');
    assert.equal(cued[0]!.content_date!.slice(0, 10), at(7).slice(0, 10));
    const old = (
      await search(home, ['what did we decide about the ledger storage engine', '--until', at(30).slice(0, 10)])
    ).results;
    assert.deepEqual(
      old.map((h) => /PostgreSQL/.test(h.text)),
      [true],
    );
  });

  test('secrets never reach the database; --no-redact keeps them', async () => {
    const bytes0 = dbBytes(convos);
    for (const s of SECRETS) assert.ok(!bytes0.includes(s), `${s} leaked into the database`);
    // Auto mode also stored the fixture README (a project file, which quotes a key on purpose):
    // only the conversation drawers are checked there.
    const db = new Database(join(auto, 'palace.db'), { readonly: true });
    const texts = db
      .prepare("SELECT text || metadata FROM drawers WHERE source IN (SELECT source FROM sources WHERE kind = 'convo')")
      .pluck()
      .all() as string[];
    const states = db.prepare("SELECT state FROM sources WHERE kind = 'convo'").pluck().all() as string[];
    db.close();
    for (const s of SECRETS) assert.ok(![...texts, ...states].some((t) => t.includes(s)), `${s} leaked in auto mode`);
    assert.ok(
      (await search(convos, ['redis URL option'])).results.some((h) =>
        h.text.includes('redis://app:[REDACTED:url-password]@cache.internal'),
      ),
    );
    const raw = join(work.dir, 'home-raw');
    const r = JSON.parse(
      (await lociIn(['mine', tree, '--mode', 'convos', '--no-redact', '--flush', '--json'], { home: raw })).stdout,
    );
    assert.equal(r.redactions, 0);
    const bytes = dbBytes(raw);
    for (const s of SECRETS) assert.ok(bytes.includes(s), `${s} is kept with --no-redact`);
  });

  const hasGit = (() => {
    try {
      execFileSync('git', ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

  test(
    'mine --claude discovers every project under CLAUDE_CONFIG_DIR, one wing per git repository',
    { skip: hasGit ? false : 'needs the git binary to make the two repositories' },
    async () => {
      const claude = join(work.dir, 'claude-config');
      const repoA = join(work.dir, 'code', 'alpha-service');
      const repoB = join(work.dir, 'code', 'beta tool');
      for (const repo of [repoA, repoB]) {
        mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
        execFileSync('git', ['init', '-q', repo]);
      }
      const session = (id: string, cwd: string, words: string) =>
        [
          {
            type: 'user',
            uuid: `${id}-u1`,
            parentUuid: null,
            sessionId: id,
            cwd,
            timestamp: '2025-08-01T10:00:00Z',
            message: { role: 'user', content: `Please ${words}.` },
          },
          {
            type: 'assistant',
            uuid: `${id}-a1`,
            parentUuid: `${id}-u1`,
            sessionId: id,
            cwd,
            timestamp: '2025-08-01T10:00:05Z',
            message: { id: `${id}-m1`, role: 'assistant', content: [{ type: 'text', text: `Done: ${words}.` }] },
          },
          {
            type: 'user',
            uuid: `${id}-u2`,
            parentUuid: `${id}-a1`,
            sessionId: id,
            cwd,
            timestamp: '2025-08-01T10:01:00Z',
            message: { role: 'user', content: 'thanks' },
          },
        ]
          .map((r) => JSON.stringify(r))
          .join('\n') + '\n';
      // Claude Code's sanitized folder names are lossy; the wing comes from the sessions' cwd.
      const dirA = join(claude, 'projects', '-x-code-alpha-service');
      const dirB = join(claude, 'projects', '-x-code-beta-tool-src-deep');
      mkdirSync(join(dirA, 's-a1', 'subagents'), { recursive: true });
      mkdirSync(dirB, { recursive: true });
      writeFileSync(join(dirA, 's-a1.jsonl'), session('s-a1', repoA, 'tune the flamingo cache'));
      writeFileSync(
        join(dirA, 's-a1', 'subagents', 'agent-q1.jsonl'),
        session('s-a1', join(repoA, 'src'), 'audit the flamingo cache').replaceAll(
          '"isSidechain":false',
          '"isSidechain":true',
        ),
      );
      writeFileSync(join(dirB, 's-b1.jsonl'), session('s-b1', join(repoB, 'src', 'deep'), 'draw the walrus chart'));
      writeFileSync(
        join(claude, 'history.jsonl'),
        `${JSON.stringify({
          display: 'walrus chart colours',
          pastedContents: {},
          timestamp: 1754042400000,
          project: repoB,
          sessionId: 's-b1',
        })}\n`,
      );
      const home = join(work.dir, 'home-claude');
      const env = { CLAUDE_CONFIG_DIR: claude };
      const r = await lociIn(['mine', '--claude', '--json'], { home, env });
      assert.equal(r.code, 0, r.stderr);
      const s = JSON.parse(r.stdout);
      assert.equal(s.files_scanned, 4);
      assert.equal(s.conversations, 4);
      const status = JSON.parse((await lociIn(['status', '--json'], { home })).stdout);
      assert.deepEqual(Object.keys(status.wings).sort(), ['alpha-service', 'beta-tool']);
      assert.equal((await search(home, ['flamingo cache'])).results[0]!.wing, 'alpha-service');
      assert.equal((await search(home, ['walrus chart'])).results[0]!.wing, 'beta-tool');
      const again = JSON.parse((await lociIn(['mine', '--claude', '--json'], { home, env })).stdout);
      assert.deepEqual([again.drawers_added, again.files_unchanged], [0, 4]);
      const missing = await lociIn(['mine', '--claude'], {
        home,
        env: { CLAUDE_CONFIG_DIR: join(work.dir, 'nowhere') },
      });
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /\[CLAUDE_DIR_NOT_FOUND\]\n$/);
    },
  );

  test('bad flags are one clear line with a code', async () => {
    const badMode = await lociIn(['mine', tree, '--mode', 'chats'], { home: convos });
    assert.equal(badMode.code, 2);
    assert.match(badMode.stderr, /invalid --mode: "chats" — expected auto, projects, convos \[INVALID_ARGUMENT\]/);
    const noPath = await lociIn(['mine'], { home: convos });
    assert.equal(noPath.code, 2);
    assert.match(noPath.stderr, /INVALID_ARGUMENT/);
    const notChat = await lociIn(['mine', join(tree, 'chat-text', 'not-a-chat.md'), '--mode', 'convos', '--json'], {
      home: convos,
    });
    assert.equal(notChat.code, 0);
    assert.match(JSON.parse(notChat.stdout).warnings.join('\n'), /not a recognised conversation format/);
  });

  test('the summary counts skipped files per reason; --verbose lists them (issue 10)', async () => {
    const dir = join(work.dir, 'skips-e2e');
    mkdirSync(join(dir, 'sub'), { recursive: true });
    writeFileSync(join(dir, '.gitignore'), 'sub/\n');
    writeFileSync(join(dir, 'sub', 'x.txt'), 'x');
    writeFileSync(join(dir, 'readme.md'), '# notes\n');
    const home = join(work.dir, 'home-skips');
    const j = JSON.parse((await lociIn(['mine', dir, '--mode', 'convos', '--json', '--verbose'], { home })).stdout);
    assert.equal(j.skipped.ignored, 1);
    assert.equal(j.skipped.unrecognised, 2, '.gitignore and readme.md are not conversations');
    assert.equal(j.skipped.too_large, 0);
    assert.deepEqual(
      j.skipped_files
        .map((f: { reason: string; path: string }) => `${f.reason} ${f.path.slice(dir.length + 1)}`)
        .sort(),
      ['ignored sub', 'unrecognised .gitignore', 'unrecognised readme.md'],
    );
    const plain = JSON.parse((await lociIn(['mine', dir, '--mode', 'convos', '--json'], { home })).stdout);
    assert.equal(plain.skipped_files, undefined, 'listed only with --verbose');
    const text = await lociIn(['mine', dir, '--mode', 'convos', '--verbose'], { home });
    assert.match(text.stdout, /3 skipped: 1 ignored, 2 unrecognised/);
    assert.match(text.stdout, /skipped \(ignored\) .*sub\n/);
  });
});
