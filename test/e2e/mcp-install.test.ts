/**
 * @module test/e2e/mcp-install
 * `loci mcp install`: writes `.mcp.json` at the project root merging with what is there (other
 * servers, other keys, user additions to our entry, indentation and final newline survive), is
 * idempotent, refuses to touch invalid JSON, prints for `--print` and for user/local scopes, and
 * resolves the command to `loci` on PATH or to absolute node + bin/loci.js.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { isLociError } from '../../src/internal.js';
import { installMcpServer } from '../../src/mcp/index.js';
import { BIN, ROOT, loci, tempDir } from '../helpers/cli.js';

const CMD = { command: 'loci', args: ['mcp'] };

describe('loci mcp install', () => {
  let work: { dir: string; cleanup: () => void };
  let n = 0;
  const project = () => {
    const p = join(work.dir, `p${++n}`);
    mkdirSync(join(p, '.git'), { recursive: true });
    return p;
  };
  before(() => (work = tempDir('loci-mcp-install-')));
  after(() => work.cleanup());

  test('creates .mcp.json at the git root, then is a no-op', async () => {
    const root = project();
    const sub = join(root, 'packages', 'api');
    mkdirSync(sub, { recursive: true });
    const r = await installMcpServer({ cwd: sub, env: {}, command: CMD });
    assert.equal(r.action, 'created');
    assert.equal(r.file, join(root, '.mcp.json'));
    const text = readFileSync(r.file!, 'utf8');
    assert.deepEqual(JSON.parse(text), {
      mcpServers: { loci: { type: 'stdio', command: 'loci', args: ['mcp'], env: {} } },
    });
    assert.ok(text.endsWith('}\n'));
    const mtime = statSync(r.file!).mtimeMs;
    const again = await installMcpServer({ cwd: root, env: {}, command: CMD });
    assert.equal(again.action, 'unchanged');
    assert.equal(readFileSync(r.file!, 'utf8'), text);
    assert.equal(statSync(r.file!).mtimeMs, mtime, 'not rewritten');
  });

  test('merges without clobbering other servers, keys, user additions or formatting', async () => {
    const root = project();
    const file = join(root, '.mcp.json');
    const before = {
      $schema: 'https://example.test/mcp.schema.json',
      mcpServers: {
        github: { command: 'npx', args: ['-y', '@example/github-mcp'], env: { GITHUB_TOKEN: '${GITHUB_TOKEN}' } },
        loci: { command: 'old-loci', args: ['serve'], env: { LOCI_EMBEDDER: 'hash' }, timeout: 30000 },
      },
      other: [1, 2, 3],
    };
    writeFileSync(file, JSON.stringify(before, null, 4)); // 4 spaces, no final newline
    const r = await installMcpServer({ cwd: root, env: {}, home: '/srv/palace', command: CMD });
    assert.equal(r.action, 'updated');
    const text = readFileSync(file, 'utf8');
    const after = JSON.parse(text);
    assert.deepEqual(after.mcpServers.github, before.mcpServers.github);
    assert.deepEqual(after.mcpServers.loci, {
      command: 'loci',
      args: ['mcp'],
      env: { LOCI_EMBEDDER: 'hash', LOCI_HOME: '/srv/palace' },
      timeout: 30000,
      type: 'stdio',
    });
    assert.deepEqual(Object.keys(after), ['$schema', 'mcpServers', 'other']);
    assert.deepEqual(Object.keys(after.mcpServers), ['github', 'loci']);
    assert.deepEqual(after.other, [1, 2, 3]);
    assert.match(text, /^\{\n {4}"\$schema"/, 'indentation kept');
    assert.ok(!text.endsWith('\n'), 'no final newline added');
    assert.equal(
      (await installMcpServer({ cwd: root, env: {}, home: '/srv/palace', command: CMD })).action,
      'unchanged',
    );
    assert.ok(
      r.notes.some((x) => /shared/.test(x)),
      'warns that a machine path went into a shared file',
    );
  });

  test('a second name adds a second entry', async () => {
    const root = project();
    await installMcpServer({ cwd: root, env: {}, command: CMD });
    await installMcpServer({ cwd: root, env: {}, command: CMD, name: 'loci-work', home: '/work/palace' });
    const doc = JSON.parse(readFileSync(join(root, '.mcp.json'), 'utf8'));
    assert.deepEqual(Object.keys(doc.mcpServers), ['loci', 'loci-work']);
    await assert.rejects(installMcpServer({ cwd: root, env: {}, command: CMD, name: 'bad name!' }), (e: unknown) =>
      isLociError(e, 'INVALID_ARGUMENT'),
    );
  });

  test('invalid JSON is reported and left untouched', async () => {
    const root = project();
    const file = join(root, '.mcp.json');
    writeFileSync(file, '{ "mcpServers": { oops } }');
    await assert.rejects(installMcpServer({ cwd: root, env: {}, command: CMD }), (e: unknown) =>
      isLociError(e, 'CONFIG_INVALID'),
    );
    writeFileSync(file, '{ "mcpServers": [] }');
    await assert.rejects(installMcpServer({ cwd: root, env: {}, command: CMD }), (e: unknown) =>
      isLociError(e, 'CONFIG_INVALID'),
    );
    assert.equal(readFileSync(file, 'utf8'), '{ "mcpServers": [] }');
  });

  test('--print and user/local scopes write nothing', async () => {
    const root = project();
    const p = await installMcpServer({ cwd: root, env: {}, command: CMD, print: true });
    assert.equal(p.action, 'printed');
    assert.deepEqual(JSON.parse(p.json!).mcpServers.loci.args, ['mcp']);
    assert.equal(existsSync(join(root, '.mcp.json')), false);
    for (const scope of ['user', 'local'] as const) {
      const r = await installMcpServer({ cwd: root, env: {}, command: CMD, scope, home: '/my palace' });
      assert.equal(r.action, 'printed');
      assert.equal(r.file, null);
      assert.equal(
        r.claudeCommand,
        `claude mcp add --scope ${scope} loci -e 'LOCI_HOME=/my palace' -- loci mcp`,
        'the name comes before the variadic -e',
      );
    }
    assert.equal(existsSync(join(root, '.mcp.json')), false);
  });

  test('the command is loci when this package is on PATH, else node (found at run time) and bin/loci.js', async () => {
    const root = project();
    const bin = join(work.dir, 'bin');
    mkdirSync(bin, { recursive: true });
    symlinkSync(BIN, join(bin, 'loci'));
    const onPath = await installMcpServer({ cwd: root, env: { PATH: bin }, print: true });
    assert.deepEqual([onPath.entry.command, onPath.entry.args], ['loci', ['mcp']]);
    const off = await installMcpServer({ cwd: root, env: { PATH: join(work.dir, 'empty') }, print: true });
    assert.deepEqual(
      [off.entry.command, off.entry.args],
      ['node', [BIN, 'mcp']],
      'never the absolute node: it moves on upgrades',
    );
  });

  const built = existsSync(join(ROOT, 'dist', 'cli', 'main.js'));
  test('through the built CLI', { skip: built ? false : 'dist/ is missing: run `npm run build`' }, () => {
    const root = project();
    const home = join(work.dir, 'cli-home');
    const env = { PATH: join(work.dir, 'empty') };
    const w = loci(['mcp', 'install'], { cwd: root, home, env });
    assert.equal(w.code, 0, w.stderr);
    assert.match(w.stdout, /created: loci in .*\.mcp\.json/);
    const entry = JSON.parse(readFileSync(join(root, '.mcp.json'), 'utf8')).mcpServers.loci;
    assert.deepEqual(entry, { type: 'stdio', command: 'node', args: [BIN, 'mcp'], env: { LOCI_HOME: home } });
    assert.match(loci(['mcp', 'install'], { cwd: root, home, env }).stdout, /already registered/);
    const user = loci(['mcp', 'install', '--scope', 'user'], { cwd: root, home, env });
    assert.equal(user.stdout.trim(), `claude mcp add --scope user loci -e LOCI_HOME=${home} -- node ${BIN} mcp`);
    const json = JSON.parse(
      loci(['mcp', 'install', '--print', '--json', '--name', 'mem'], { cwd: root, home, env }).stdout,
    );
    assert.equal(json.action, 'printed');
    assert.ok(JSON.parse(json.json).mcpServers.mem);
    assert.equal(loci(['mcp', 'install', '--scope', 'global'], { cwd: root, home, env }).code, 2);
  });
});
