/**
 * @module test/e2e/convos
 * Conversation mining through the `loci` CLI (in-process, `lociIn`): every fixture format mined with
 * `--mode convos` and in auto mode, then found by `loci search` with its session id, date and
 * neighbouring exchanges; date filters; redaction (the database bytes never hold a fixture secret,
 * `--no-redact` keeps them). Time cues, `loci mine --claude`, flag errors and the skip summary are
 * in convos-cli.test.ts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from '../helpers/cli.js';
import { lociIn } from '../helpers/cli-in-process.js';
import { CASES, FIXTURES, SECRETS, SESSION, dbBytes, drawerIds, metadata, search } from '../helpers/convos.js';

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
});
