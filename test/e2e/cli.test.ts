/**
 * @module test/e2e/cli
 * The palace core through the `loci` CLI: init, mine, search (English, Chinese, Japanese), status,
 * get, list, incremental re-mining, prune/sync, and clear errors. Commands run in-process through
 * the CLI's entry function (`lociIn`); the binary is spawned for `--help`/`--version` (the smoke
 * test of the front end).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { loci, tempDir, writeTree } from '../helpers/cli.js';
import { lociIn } from '../helpers/cli-in-process.js';

const PROJECT: Record<string, string | Buffer> = {
  'README.md':
    '# Demo project\n\nThis project stores **verbatim** memories for agents.\n\n## Install\n\nRun the installer ' +
    'and then mine a folder.\n',
  'docs/auth.md':
    '# Authentication\n\nWe decided to migrate the authentication module to OAuth2 because the old session cookies ' +
    'leaked.\n',
  'docs/zh.md': '# 认证\n\n我们决定把认证模块迁移到OAuth2。\n',
  'docs/ja.md': '# 認証\n\n私たちは認証モジュールをOAuth2に移行することに決めました。\n',
  'src/search/rank.ts':
    'export function reciprocalRankFusion(lists: string[][], k = 60) {\n  return lists.length * k;\n}\n\nexport ' +
    'function bm25Weight(tf: number) {\n  return tf / (tf + 1.2);\n}\n',
  'node_modules/pkg/index.js': 'module.exports = "should never be mined";\n',
  '.gitignore': 'secret-notes.txt\nbuild/\n',
  'secret-notes.txt': 'ignored by gitignore zebra\n',
  'build/out.js': 'ignored build output zebra\n',
  '.lociignore': 'private/\n',
  'private/diary.md': 'ignored by lociignore zebra\n',
  'image.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 1, 2, 3]),
};

describe('loci CLI (palace core)', () => {
  let work: { dir: string; cleanup: () => void };
  let home: string;
  let proj: string;
  before(() => {
    work = tempDir();
    home = join(work.dir, 'home');
    proj = join(work.dir, 'demo');
    writeTree(proj, PROJECT);
  });
  after(() => work.cleanup());

  test('--help and --version work', async () => {
    const h = loci(['--help'], { home });
    assert.equal(h.code, 0);
    for (const cmd of ['mine', 'search', 'status', 'get', 'list', 'init', 'sync'])
      assert.match(h.stdout, new RegExp(`\\b${cmd}\\b`));
    assert.match(loci(['--version'], { home }).stdout, /\d+\.\d+\.\d+/);
    assert.match(loci(['search', '--help'], { home }).stdout, /--wing/);
  });

  test('init is idempotent and status works on an empty home', async () => {
    const fresh = join(work.dir, 'fresh-home');
    const s = await lociIn(['status', '--json'], { home: fresh });
    assert.equal(s.code, 0, s.stderr);
    assert.deepEqual(JSON.parse(s.stdout).drawers, 0);
    assert.equal((await lociIn(['init'], { home: fresh })).code, 0);
    const again = await lociIn(['init', '--json'], { home: fresh });
    assert.equal(again.code, 0);
    assert.equal(JSON.parse(again.stdout).drawers, 0);
  });

  test('--home overrides LOCI_HOME', async () => {
    const other = join(work.dir, 'other-home');
    const r = await lociIn(['--home', other, 'status', '--json'], { home });
    assert.equal(JSON.parse(r.stdout).home, other);
  });

  test('mine respects ignores, skips binaries and reports JSON', async () => {
    const r = await lociIn(['mine', proj, '--json'], { home });
    assert.equal(r.code, 0, r.stderr);
    const s = JSON.parse(r.stdout);
    for (const k of [
      'files_scanned',
      'files_skipped',
      'drawers_added',
      'drawers_updated',
      'drawers_removed',
      'seconds',
    ]) {
      assert.equal(typeof s[k], 'number', k);
    }
    assert.ok(s.drawers_added >= 6, JSON.stringify(s));
    assert.equal(s.drawers_removed, 0);
    assert.equal(s.wing, 'demo');
    const z = JSON.parse((await lociIn(['search', 'zebra', '--json'], { home })).stdout);
    assert.deepEqual(z.results, [], 'ignored files are never mined');
    const nm = JSON.parse((await lociIn(['search', 'should never be mined', '--json'], { home })).stdout);
    assert.ok(nm.results.every((h: { source: string }) => !h.source.includes('node_modules')));
  });

  test('search finds English with ids, rooms, lines and scores', async () => {
    const r = await lociIn(['search', 'why OAuth2 migration', '--json'], { home });
    assert.equal(r.code, 0, r.stderr);
    const { results } = JSON.parse(r.stdout);
    assert.ok(results.length >= 1);
    const top = results[0];
    for (const k of ['id', 'wing', 'room', 'source', 'lines', 'score', 'text']) assert.ok(k in top, k);
    assert.match(top.source, /auth\.md$/);
    assert.equal(top.room, 'docs');
    assert.deepEqual(top.lines, [1, 3]);
    assert.match(top.text, /OAuth2/);
    const human = await lociIn(['search', 'OAuth2', 'migration'], { home });
    assert.match(human.stdout, /auth\.md:1-3/);
  });

  test('search finds Chinese with a two-character query and Japanese', async () => {
    const zh = JSON.parse((await lociIn(['search', '认证', '--json'], { home })).stdout);
    assert.ok(zh.results.length >= 1);
    assert.match(zh.results[0].text, /认证/);
    const mod = JSON.parse((await lociIn(['search', '模块', '--json'], { home })).stdout);
    assert.match(mod.results[0].text, /模块/);
    const ja = JSON.parse((await lociIn(['search', '認証モジュール', '--json'], { home })).stdout);
    assert.match(ja.results[0].text, /認証/);
  });

  test('filters and limits', async () => {
    const r = JSON.parse((await lociIn(['search', 'OAuth2', '--room', 'docs', '-n', '1', '--json'], { home })).stdout);
    assert.equal(r.results.length, 1);
    assert.equal(r.results[0].room, 'docs');
    const none = JSON.parse((await lociIn(['search', 'OAuth2', '--wing', 'nope', '--json'], { home })).stdout);
    assert.deepEqual(none.results, []);
    const code = JSON.parse((await lociIn(['search', 'reciprocal rank fusion', '--json'], { home })).stdout);
    assert.equal(code.results[0].room, 'search');
  });

  test('status, get and list', async () => {
    const s = JSON.parse((await lociIn(['status', '--json'], { home })).stdout);
    assert.ok(s.drawers >= 6);
    assert.equal(typeof s.wings.demo, 'number');
    assert.equal(s.index.lexical, 'ok');
    assert.ok(s.text_bytes.rooms.demo.docs > 0 && s.text_bytes.wings.demo >= s.text_bytes.rooms.demo.docs);
    assert.equal(
      s.text_bytes.total,
      Object.values(s.text_bytes.wings as Record<string, number>).reduce((a, b) => a + b),
    );
    assert.match(
      (await lociIn(['status'], { home })).stdout,
      /of text\n[\s\S]*SIZE[\s\S]*\bdocs +\d+ +\d+(\.\d)? (B|KB)\n/,
    );
    const hit = JSON.parse((await lociIn(['search', 'OAuth2', '--json'], { home })).stdout).results[0];
    const g = await lociIn(['get', hit.id, '--json'], { home });
    assert.equal(JSON.parse(g.stdout).drawer.text, hit.text);
    assert.equal((await lociIn(['get', hit.id], { home })).stdout.includes(hit.text.trim()), true);
    const wings = JSON.parse((await lociIn(['list', 'wings', '--json'], { home })).stdout);
    assert.ok(wings.wings.demo >= 6);
    const rooms = JSON.parse((await lociIn(['list', 'rooms', '--wing', 'demo', '--json'], { home })).stdout);
    assert.ok(rooms.rooms.docs >= 3);
  });

  test('re-mining an unchanged tree writes nothing; a changed file replaces its drawers', async () => {
    // Byte for byte: the database file (and its WAL, if any) is not written at all.
    const snapshot = () =>
      ['palace.db', 'palace.db-wal'].map((f) =>
        existsSync(join(home, f))
          ? `${f}:${statSync(join(home, f)).mtimeMs}:${readFileSync(join(home, f)).toString('base64')}`
          : `${f}:absent`,
      );
    const before = snapshot();
    const again = JSON.parse((await lociIn(['mine', proj, '--json'], { home })).stdout);
    assert.equal(again.drawers_added, 0);
    assert.equal(again.drawers_updated, 0);
    assert.equal(again.drawers_removed, 0);
    assert.deepEqual(snapshot(), before, 'an unchanged tree writes nothing');
    appendFileSync(
      join(proj, 'docs/auth.md'),
      '\n## Rollout\n\nThe rollout finished on a Tuesday with no incidents.\n',
    );
    const changed = JSON.parse((await lociIn(['mine', proj, '--json'], { home })).stdout);
    assert.ok(changed.drawers_added + changed.drawers_updated >= 1, JSON.stringify(changed));
    const hits = JSON.parse((await lociIn(['search', 'rollout incidents', '--json'], { home })).stdout).results;
    assert.match(hits[0].text, /rollout/i);
  });

  test('deleted files: kept by default, removed by --prune and by sync', async () => {
    unlinkSync(join(proj, 'docs/ja.md'));
    const kept = JSON.parse((await lociIn(['mine', proj, '--json'], { home })).stdout);
    assert.equal(kept.drawers_removed, 0);
    const pruned = JSON.parse((await lociIn(['mine', proj, '--prune', '--json'], { home })).stdout);
    assert.ok(pruned.drawers_removed >= 1);
    assert.deepEqual(JSON.parse((await lociIn(['search', '認証', '--json'], { home })).stdout).results, []);
    rmSync(join(proj, 'docs/zh.md'));
    const sync = JSON.parse((await lociIn(['sync', '--json'], { home })).stdout);
    assert.equal(sync.sources_removed, 1);
  });

  test('diary: write from args and stdin, read newest first, searchable', async () => {
    const a = await lociIn(
      ['diary', 'write', '--agent', 'Claude', '--topic', 'deploy', 'Shipped', 'the', 'blue-green', 'switch', '--json'],
      { home },
    );
    assert.equal(a.code, 0, a.stderr);
    assert.match(JSON.parse(a.stdout).id, /^d[0-9a-f]{16}$/);
    const b = await lociIn(['diary', 'write', '--agent', 'claude'], {
      home,
      input: 'Second entry: rollback drill went fine\n',
    });
    assert.equal(b.code, 0, b.stderr);
    const r = JSON.parse((await lociIn(['diary', 'read', '--agent', 'claude', '--json'], { home })).stdout);
    assert.equal(r.total, 2);
    assert.equal(r.entries.length, 2);
    assert.ok(r.entries.some((e: { topic: string }) => e.topic === 'deploy'));
    const hit = JSON.parse((await lociIn(['search', 'rollback drill', '--json'], { home })).stdout).results[0];
    assert.equal(hit.wing, 'diary');
    assert.equal(hit.room, 'claude');
    const none = await lociIn(['diary', 'read', '--agent', 'nobody'], { home });
    assert.match(none.stdout, /no diary entries/);
  });

  test('errors are one clear line with a code and a non-zero exit', async () => {
    const missing = await lociIn(['mine', join(work.dir, 'nope')], { home });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^loci: no such file or directory: .*nope — check the path \[PATH_NOT_FOUND\]\n$/);
    const empty = await lociIn(['search', '!!!'], { home });
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /QUERY_EMPTY/);
    const bad = await lociIn(['search', 'x', '-n', 'zero'], { home });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /INVALID_ARGUMENT/);
    const noDrawer = await lociIn(['get', 'dnope'], { home });
    assert.equal(noDrawer.code, 2);
    assert.match(noDrawer.stderr, /DRAWER_NOT_FOUND/);
    assert.equal((await lociIn(['frobnicate'], { home })).code, 2);
  });

  test('a locked database gives DB_LOCKED after the busy timeout and loses nothing', async () => {
    const before = JSON.parse((await lociIn(['status', '--json'], { home })).stdout).drawers;
    const db = new Database(join(home, 'palace.db'));
    db.exec('BEGIN EXCLUSIVE');
    try {
      // The run's own environment sets the busy timeout (not the test process's).
      const r = await lociIn(['mine', proj, '--wing', 'other'], { home, env: { LOCI_BUSY_TIMEOUT_MS: '300' } });
      assert.equal(r.code, 1);
      assert.match(
        r.stderr,
        new RegExp(
          String.raw`^loci: the palace database .* stayed locked by another process for 300 ms — retry when the ` +
            String.raw`other Loci command has finished \[DB_LOCKED\]\n$`,
        ),
      );
    } finally {
      db.exec('ROLLBACK');
      db.close();
    }
    assert.equal(JSON.parse((await lociIn(['status', '--json'], { home })).stdout).drawers, before);
  });

  test('invalid UTF-8 is stored with a warning naming the file and the fix', async () => {
    const dir = join(work.dir, 'latin1');
    writeTree(dir, {
      'notes.txt': Buffer.concat([
        Buffer.from('caf'),
        Buffer.from([0xe9]),
        Buffer.from(' au lait, gar'),
        Buffer.from([0xe7]),
        Buffer.from('on\n'),
      ]),
    });
    const r = await lociIn(['mine', dir], { home });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /notes\.txt: not valid UTF-8; stored with replacement characters — convert it to UTF-8/);
    const hit = JSON.parse((await lociIn(['search', 'lait', '--json'], { home })).stdout).results[0];
    assert.match(hit.text, /lait/);
  });

  test('a corrupt or foreign database file is refused and left untouched', async () => {
    const corrupt = join(work.dir, 'corrupt-home');
    writeTree(corrupt, { 'palace.db': 'this is not a database at all, just text' });
    const r = await lociIn(['status'], { home: corrupt });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /DB_CORRUPT/);
    assert.equal(readFileSync(join(corrupt, 'palace.db'), 'utf8'), 'this is not a database at all, just text');
    const foreign = join(work.dir, 'foreign-home');
    writeTree(foreign, {});
    const mk = await lociIn(['status'], { home: foreign });
    assert.equal(mk.code, 0);
    // Turn it into another application's database.
    const db = join(foreign, 'palace.db');
    rmSync(db);
    for (const s of ['-wal', '-shm']) rmSync(db + s, { force: true });
    writeFileSync(db, '');
    const other = new Database(db);
    other.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)');
    other.close();
    const f = await lociIn(['search', 'x'], { home: foreign });
    assert.equal(f.code, 2);
    assert.match(f.stderr, /not a Loci palace database.*\[DB_FOREIGN\]/);
  });
});
