/**
 * @module test/e2e/secrets-writes
 * The secrets corpus pushed through every way text is written directly — the library (drawers,
 * diary, facts, memory files), the MCP tools and the CLI — and through mining: no secret of the
 * corpus is stored, and the look-alike lines come back byte-identical. (`loci mine --no-redact`
 * still stores text as it is.) The CLI part runs the CLI in-process (`lociIn`).
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { addMemory, editMemory, openPalace, type Palace } from '../../src/index.js';
import { tempDir } from '../helpers/cli.js';
import { lociIn } from '../helpers/cli-in-process.js';
import { startHarness, type Harness } from '../fixtures/mcp/harness.js';
import { CLEAN_LINES, SECRET_LINES } from '../helpers/secrets-corpus.js';

const SECRETS = SECRET_LINES.map((l) => l.secret);
const DIRTY = SECRET_LINES.map((l) => l.text).join('\n');
const CLEAN = CLEAN_LINES.join('\n');
/** Secrets (of the corpus) found in `stored`. */
const leaked = (stored: string) => SECRETS.filter((s) => stored.includes(s));
const token = SECRET_LINES.find((l) => l.kind === 'github')!.secret;
const dirAll = (d: string) =>
  readdirSync(d, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => readFileSync(join(d, f), 'utf8'))
    .join('\n');

describe('secrets: library write paths', () => {
  const t = tempDir();
  let palace: Palace;
  before(async () => {
    palace = await openPalace({ home: join(t.dir, 'home'), embedder: null });
  });
  after(async () => {
    await palace.close();
    t.cleanup();
  });

  it('addDrawer and updateDrawer store no secret, count them, and keep clean text verbatim', async () => {
    const a = await palace.addDrawer({
      wing: 'w',
      room: 'r',
      text: DIRTY,
      indexExtra: token,
      metadata: { env: { GITHUB_TOKEN: token }, n: 1 },
    });
    assert.equal(a.redactions, SECRET_LINES.length + 2);
    const d = (await palace.get(a.id))!;
    assert.deepEqual(leaked(d.text), []);
    assert.deepEqual(d.metadata, { env: { GITHUB_TOKEN: '[REDACTED:github]' }, n: 1 });
    assert.match(d.text, /\[REDACTED:github\]/);
    assert.equal(
      (await palace.search(token.slice(4, 20))).hits.length,
      0,
      'the index holds no part of the secret either',
    );
    const c = await palace.addDrawer({ wing: 'w', room: 'r', text: CLEAN });
    assert.equal(c.redactions, 0);
    assert.equal((await palace.get(c.id))!.text, CLEAN);
    await palace.updateDrawer(c.id, { text: `${CLEAN}\n${DIRTY}` });
    const u = (await palace.get(c.id))!.text;
    assert.deepEqual(leaked(u), []);
    assert.ok(u.startsWith(`${CLEAN}\n`));
  });

  it('diaryWrite redacts entry and topic', async () => {
    const w = await palace.diaryWrite({
      agent: 'claude',
      entry: `Rotated the deploy key.\n${DIRTY}`,
      topic: `keys ${token}`,
    });
    assert.equal(w.redactions, SECRET_LINES.length + 1);
    const [e] = (await palace.diaryRead('claude')).entries;
    assert.deepEqual(leaked(`${e!.text} ${JSON.stringify(e!.metadata)}`), []);
    assert.ok(e!.text.startsWith('Rotated the deploy key.\n'));
  });

  it('facts stated by hand store no secret; invalidating with the same words finds them', async () => {
    const g = (await palace.graph()).graph;
    const f = await g.addFact({ subject: 'deploy bot', predicate: 'uses_token', object: token, literal: true });
    assert.equal(f.object, '[REDACTED:github]');
    const ended = await g.invalidate('deploy bot', 'uses_token', token);
    assert.equal(ended.length, 1);
    const plain = await g.addFact({ subject: 'Lantern', predicate: 'uses', object: 'SQLite' });
    assert.equal(plain.object.toLowerCase().includes('sqlite'), true);
  });

  it('addMemory and editMemory write no secret into memory files', async () => {
    const dir = join(t.dir, 'memory');
    addMemory(dir, {
      type: 'project',
      name: 'deploy keys',
      description: `the deploy key is ${token}`,
      body: DIRTY,
      why: CLEAN,
      how: 'rotate monthly',
    });
    let files = dirAll(dir);
    assert.deepEqual(leaked(files), []);
    assert.ok(files.includes(CLEAN_LINES[0]!), 'clean text is kept');
    editMemory(dir, 'deploy keys', { body: `new body ${token}` });
    files = dirAll(dir);
    assert.deepEqual(leaked(files), []);
    assert.match(files, /new body \[REDACTED:github\]/);
  });
});

describe('secrets: MCP tools', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  it('loci_add_drawer, loci_update_drawer, loci_diary_write, loci_kg_add, loci_memory_write: no secret', async () => {
    const a = await h.call('loci_add_drawer', { wing: 'ops', room: 'keys', content: DIRTY });
    assert.equal(a.isError, false, a.text);
    assert.deepEqual(leaked((await h.palace.get(a.data.drawer_id))!.text), []);
    const u = await h.call('loci_update_drawer', { drawer_id: a.data.drawer_id, content: `${CLEAN}\n${DIRTY}` });
    assert.equal(u.isError, false, u.text);
    const updated = (await h.palace.get(a.data.drawer_id))!.text;
    assert.deepEqual(leaked(updated), []);
    assert.ok(updated.startsWith(CLEAN));
    const w = await h.call('loci_diary_write', { agent: 'claude', entry: DIRTY });
    assert.deepEqual(leaked((await h.palace.get(w.data.drawer_id))!.text), []);
    const k = await h.call('loci_kg_add', { subject: 'ci', predicate: 'uses_token', object: token, literal: true });
    assert.equal(k.isError, false, k.text);
    assert.deepEqual(leaked(JSON.stringify(k.data)), []);
    const m = await h.call('loci_memory_write', {
      type: 'reference',
      name: 'ci token',
      description: `token ${token}`,
      body: DIRTY,
    });
    assert.equal(m.isError, false, m.text);
    assert.deepEqual(leaked(dirAll(m.data.dir)), []);
  });
});

describe('secrets: CLI and mining', () => {
  const t = tempDir();
  const home = join(t.dir, 'home');
  after(() => t.cleanup());

  it('diary write, kg add and memory add store no secret', async () => {
    assert.equal((await lociIn(['diary', 'write', '--agent', 'claude'], { home, input: DIRTY })).code, 0);
    assert.equal((await lociIn(['kg', 'add', 'ci', 'uses_token', token, '--literal'], { home })).code, 0);
    const mem = join(t.dir, 'mem');
    const r = await lociIn(
      ['memory', 'add', '--dir', mem, '-t', 'reference', '-n', 'ci token', '-d', `token ${token}`],
      {
        home,
        input: DIRTY,
      },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(leaked(dirAll(mem)), []);
    const q = await lociIn(['kg', 'query', 'ci', '--json'], { home });
    assert.deepEqual(leaked(q.stdout), []);
    assert.match(q.stdout, /REDACTED:github/);
    const read = await lociIn(['diary', 'read', '--agent', 'claude', '--json'], { home });
    assert.deepEqual(leaked(read.stdout), []);
  });

  it('mining redacts files and transcripts; --no-redact keeps them', async () => {
    const src = join(t.dir, 'proj');
    mkdirSync(src, { recursive: true });
    writeFileSync(join(src, 'notes.md'), `# Notes\n\n${DIRTY}\n\n${CLEAN}\n`);
    writeFileSync(join(src, 'chat.txt'), `> how do I log in?\nUse ${token} for now.\n`);
    const m = await lociIn(['mine', src, '--json'], { home });
    assert.equal(m.code, 0, m.stderr);
    assert.ok(JSON.parse(m.stdout).redactions >= SECRET_LINES.length, m.stdout);
    const dump = (await lociIn(['search', 'REDACTED', '--json', '--limit', '50'], { home })).stdout;
    assert.deepEqual(leaked(dump), []);
    const raw = join(t.dir, 'home-raw');
    assert.equal((await lociIn(['mine', src, '--no-redact'], { home: raw })).code, 0);
    assert.ok((await lociIn(['search', 'deploy', '--json', '--limit', '50'], { home: raw })).code === 0);
    rmSync(raw, { recursive: true, force: true });
  });
});
