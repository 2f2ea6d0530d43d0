/**
 * @module test/e2e/convos-cli
 * More of conversation mining through the `loci` CLI (in-process, `lociIn`), each test on its own
 * small input: a time cue in the question ranks by when it was said; `loci mine --claude` on a fake
 * Claude Code folder whose sessions ran in two git repositories; flag errors; the skip summary.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/cli.js';
import { lociIn } from '../helpers/cli-in-process.js';
import { FIXTURES, search } from '../helpers/convos.js';

describe('loci mine: conversations, one input per test', () => {
  let work: { dir: string; cleanup: () => void };
  let tree: string;
  let convos: string;
  before(() => {
    work = tempDir('loci-convos-cli-');
    tree = join(work.dir, 'convos');
    mkdirSync(join(tree, 'chat-text'), { recursive: true });
    cpSync(join(FIXTURES, 'chat-text', 'not-a-chat.md'), join(tree, 'chat-text', 'not-a-chat.md'));
    convos = join(work.dir, 'home-convos');
  });
  after(() => work.cleanup());

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
      // an unchanged run names the wings the drawers are in, not a folder
      assert.equal(again.wing, 'alpha-service, beta-tool');
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
