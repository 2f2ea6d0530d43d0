/** @module ingest/project/walk.test — the project walker on real temp folders. */
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { walkProject, type WalkFs, type WalkItem, type WalkOptions } from './index.js';

let root: string;

/** Creates files (content = path unless given) below `root`. */
function tree(files: Record<string, string | null>): void {
  for (const [rel, content] of Object.entries(files)) {
    const p = join(root, rel);
    fs.mkdirSync(join(p, '..'), { recursive: true });
    if (content === null) fs.mkdirSync(p, { recursive: true });
    else fs.writeFileSync(p, content ?? rel);
  }
}

const walk = (opts: Partial<WalkOptions> = {}): WalkItem[] => [...walkProject({ root, ...opts })];
const files = (opts: Partial<WalkOptions> = {}): string[] =>
  walk(opts)
    .filter((i) => i.kind === 'file')
    .map((i) => i.rel);
const skipped = (opts: Partial<WalkOptions> = {}): string[] =>
  walk(opts).flatMap((i) =>
    i.kind === 'skipped' ? [`${i.rel}:${i.reason}${i.detail === undefined ? '' : `:${i.detail}`}`] : [],
  );

beforeEach(() => {
  root = fs.mkdtempSync(join(tmpdir(), 'loci-walk-'));
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describe('walkProject', () => {
  it('yields files in sorted path order with size and mtime, paths with /', () => {
    tree({ 'b.md': 'bb', 'a-b.ts': 'x', 'a/z.ts': 'zzz', 'a/b/c.txt': 'c', 'A.txt': 'A' });
    const items = walk();
    assert.deepEqual(
      items.map((i) => i.rel),
      ['A.txt', 'a-b.ts', 'a/b/c.txt', 'a/z.ts', 'b.md'],
    );
    const z = items.find((i) => i.rel === 'a/z.ts')!;
    assert.equal(z.kind, 'file');
    if (z.kind === 'file') {
      assert.equal(z.size, 3);
      assert.equal(z.path, join(root, 'a/z.ts'));
      assert.ok(z.mtimeMs > 0);
    }
    assert.deepEqual(
      files(),
      items.map((i) => i.rel),
      'deterministic across runs',
    );
  });

  it('prunes the default skip dirs at any depth, but never files with those names', () => {
    tree({
      'node_modules/x/index.js': null,
      'pkg/node_modules/y.js': '',
      '.git/HEAD': '',
      'dist/out.js': '',
      'src/build': 'a script',
      'py/thing.egg-info/PKG-INFO': '',
      '.venv/lib.py': '',
      '__pycache__/m.pyc': '',
      'src/main.ts': '',
      'sub/.git': 'gitdir: ../x',
    });
    const pruned: string[] = [];
    assert.deepEqual(files({ onPrune: (rel, why) => pruned.push(`${why}:${rel}`) }), ['src/build', 'src/main.ts']);
    assert.ok(
      pruned.includes('skip-dir:pkg/node_modules') &&
        pruned.includes('skip-dir:py/thing.egg-info') &&
        pruned.includes('skip-dir:sub/.git'),
    );
    const custom = files({ skipDirs: ['src', '.git'] });
    assert.ok(!custom.some((f) => f.startsWith('src/')), 'a custom list is used…');
    assert.ok(custom.includes('dist/out.js') && custom.includes('pkg/node_modules/y.js'), '…instead of the default');
  });

  it('applies nested .gitignore files relative to their folder, with negation and precedence', () => {
    tree({
      '.gitignore': '*.log\n!keep.log\nlogs/\n/local.txt\n',
      'a.log': '',
      'keep.log': '',
      'local.txt': '',
      'x.ts': '',
      'logs/keep.txt': '',
      'logs/a.log': '',
      'a/.gitignore': '/local.txt\n*.tmp\n!important.log\n',
      'a/local.txt': '',
      'a/b/local.txt': '',
      'a/t.tmp': '',
      'a/important.log': '',
      'a/other.log': '',
      'a/keep.log': '',
      'c/.gitignore': '!*.log\nsecret/\n',
      'c/x.log': '',
      'c/secret/s.txt': '',
      'c/d/y.log': '',
    });
    assert.deepEqual(files(), [
      '.gitignore',
      'a/.gitignore',
      'a/b/local.txt',
      'a/important.log',
      'a/keep.log',
      'c/.gitignore',
      'c/d/y.log',
      'c/x.log',
      'keep.log',
      'x.ts',
    ]);
    const all = files({ respectGitignore: false });
    assert.ok(all.includes('a.log') && all.includes('logs/keep.txt') && all.includes('c/secret/s.txt'));
  });

  it('never enters an ignored folder, so a negation cannot re-include a file inside it', () => {
    tree({ '.gitignore': 'build-out/\n!build-out/keep.md\n', 'build-out/keep.md': '', 'ok.md': '' });
    const pruned: string[] = [];
    assert.deepEqual(files({ onPrune: (rel, why) => pruned.push(`${why}:${rel}`) }), ['.gitignore', 'ok.md']);
    assert.deepEqual(pruned, ['ignored:build-out']);
  });

  it('judges files inside a re-included folder by their own path, as git does', () => {
    tree({
      '.git/info/exclude': 'c/*\n',
      '.gitignore': 'gen/\n!a/\n',
      'pkg/.gitignore': '!gen/\n',
      'gen/a.js': '',
      'pkg/gen/b.js': '',
      'c/a/x.txt': '',
      'c/y.txt': '',
    });
    assert.deepEqual(files(), ['.gitignore', 'c/a/x.txt', 'pkg/.gitignore', 'pkg/gen/b.js']);
  });

  it('applies .lociignore always, even when .gitignore is not respected', () => {
    tree({
      '.gitignore': 'a.txt\n',
      '.lociignore': 'b.txt\nnotes/\n',
      'a.txt': '',
      'b.txt': '',
      'c.txt': '',
      'notes/n.md': '',
      'sub/.lociignore': 'x.md',
      'sub/x.md': '',
      'x.md': '',
    });
    assert.deepEqual(files(), ['.gitignore', '.lociignore', 'c.txt', 'sub/.lociignore', 'x.md']);
    assert.deepEqual(files({ respectGitignore: false }), [
      '.gitignore',
      '.lociignore',
      'a.txt',
      'c.txt',
      'sub/.lociignore',
      'x.md',
    ]);
  });

  it('never consults ignore files above a walked subfolder: the named path is mined (issue 10)', () => {
    tree({
      '.git/info/exclude': 'excluded.md\n',
      '.gitignore': '*.gen.ts\nsub/drop/\n*.jsonl\n',
      'sub/.gitignore': 'local.tmp\n',
      'sub/a.gen.ts': '',
      'sub/b.ts': '',
      'sub/excluded.md': '',
      'sub/drop/x.ts': '',
      'sub/chat.jsonl': '',
      'sub/local.tmp': '',
      'excluded.md': '',
    });
    assert.deepEqual(
      files(),
      ['.gitignore', 'sub/.gitignore', 'sub/b.ts'],
      'from the repository root, its rules apply',
    );
    const inner = [...walkProject({ root: join(root, 'sub') })].map((i) => i.rel);
    assert.deepEqual(
      inner,
      ['.gitignore', 'a.gen.ts', 'b.ts', 'chat.jsonl', 'drop/x.ts', 'excluded.md'],
      'rules above the named folder do not apply; its own .gitignore does',
    );
    assert.deepEqual(
      [...walkProject({ root: join(root, 'sub'), respectGitignore: false })].map((i) => i.rel),
      ['.gitignore', 'a.gen.ts', 'b.ts', 'chat.jsonl', 'drop/x.ts', 'excluded.md', 'local.tmp'],
    );
  });

  it('drops outer rules that would hide the walked folder itself (e.g. a dotfiles repo ignoring *)', () => {
    tree({ '.git/HEAD': '', '.gitignore': '*\n', 'notes/a.md': '', 'notes/b.log': '' });
    assert.deepEqual(files(), [], 'from the repository root, git semantics: everything is ignored');
    assert.deepEqual(
      [...walkProject({ root: join(root, 'notes') })].map((i) => i.rel),
      ['a.md', 'b.log'],
    );
  });

  it('gives extraIgnores the highest precedence', () => {
    tree({ '.gitignore': '*.md\n', 'a.md': '', 'b.ts': '', 'c.ts': '' });
    assert.deepEqual(files({ extraIgnores: ['c.ts', '!a.md'] }), ['.gitignore', 'a.md', 'b.ts']);
  });

  it('reports binary files by name and files over maxFileBytes', () => {
    tree({
      'logo.PNG': 'x',
      'package-lock.json': '{}',
      'app.min.js': 'x',
      'Cargo.lock': '',
      'big.txt': 'x'.repeat(11),
      'ok.txt': 'x'.repeat(10),
      'db.sqlite': '',
    });
    assert.deepEqual(skipped({ maxFileBytes: 10 }), [
      'Cargo.lock:binary:lockfile',
      'app.min.js:binary:minified',
      'big.txt:too-large:11 bytes > 10',
      'db.sqlite:binary:extension .sqlite',
      'logo.PNG:binary:extension .png',
      'package-lock.json:binary:lockfile',
    ]);
    assert.deepEqual(files({ maxFileBytes: 10 }), ['ok.txt']);
    assert.deepEqual(files().sort(), ['big.txt', 'ok.txt'], 'default limit is 2 MiB');
  });

  it('reports symlinks without following them', () => {
    tree({ 'real/a.txt': '', 'outside.txt': '' });
    fs.symlinkSync(join(root, 'real'), join(root, 'link-dir'));
    fs.symlinkSync('outside.txt', join(root, 'link-file'));
    fs.symlinkSync('missing', join(root, 'dangling'));
    assert.deepEqual(skipped(), [
      'dangling:symlink:missing',
      'link-dir:symlink:' + join(root, 'real'),
      'link-file:symlink:outside.txt',
    ]);
    assert.deepEqual(files(), ['outside.txt', 'real/a.txt']);
  });

  it('reports FIFOs as special', (t) => {
    try {
      execFileSync('mkfifo', [join(root, 'pipe')]);
    } catch {
      t.skip('mkfifo is not available');
      return;
    }
    assert.deepEqual(skipped(), ['pipe:special:fifo']);
  });

  it('reports unreadable folders and files with their errno (chmod 000 when not root)', (t) => {
    tree({ 'locked/a.txt': '', 'secret.txt': 's', 'ok.txt': '' });
    fs.chmodSync(join(root, 'locked'), 0o000);
    fs.chmodSync(join(root, 'secret.txt'), 0o000);
    try {
      if (process.getuid?.() === 0) {
        // root reads anything: chmod 000 changes nothing, and the walker reports what the OS allows
        assert.deepEqual(files(), ['locked/a.txt', 'ok.txt', 'secret.txt']);
        t.diagnostic('running as root: chmod 000 is not enforced; the failure path is tested with a failing fs below');
      } else {
        assert.deepEqual(skipped(), ['locked:unreadable:EACCES', 'secret.txt:unreadable:EACCES']);
        assert.deepEqual(files(), ['ok.txt']);
      }
    } finally {
      fs.chmodSync(join(root, 'locked'), 0o755);
    }
  });

  it('never throws for one bad entry: failing folder, file, stat and ignore file become "unreadable"', () => {
    tree({
      'locked/a.txt': '',
      'secret.txt': '',
      'gone.txt': '',
      'ok.txt': '',
      'sub/.gitignore': 'x',
      'sub/y.txt': '',
    });
    const eacces = (p: string): never => {
      throw Object.assign(new Error(`EACCES: permission denied, ${p}`), { code: 'EACCES' });
    };
    const failing: WalkFs = {
      readdirSync: (p, o) => (p.endsWith('/locked') ? eacces(p) : fs.readdirSync(p, o)),
      lstatSync: (p) =>
        p.endsWith('/gone.txt')
          ? (() => {
              throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
            })()
          : fs.lstatSync(p),
      statSync: (p) => fs.statSync(p),
      readFileSync: (p, e) => (p.endsWith('sub/.gitignore') ? eacces(p) : fs.readFileSync(p, e)),
      accessSync: (p, m) => (p.endsWith('/secret.txt') ? eacces(p) : fs.accessSync(p, m)),
      readlinkSync: (p) => fs.readlinkSync(p),
    };
    assert.deepEqual(skipped({ fs: failing }), [
      'gone.txt:unreadable:ENOENT',
      'locked:unreadable:EACCES',
      'secret.txt:unreadable:EACCES',
      'sub/.gitignore:unreadable:EACCES',
    ]);
    assert.deepEqual(files({ fs: failing }), ['ok.txt', 'sub/y.txt']);
  });

  it('throws PATH_NOT_FOUND / PERMISSION_DENIED for an unusable root, at call time', () => {
    assert.throws(
      () => walkProject({ root: join(root, 'missing') }),
      (e: Error & { code?: string }) => e.code === 'PATH_NOT_FOUND',
    );
    tree({ 'f.txt': 'x' });
    assert.throws(
      () => walkProject({ root: join(root, 'f.txt', 'below') }),
      (e: Error & { code?: string }) => e.code === 'PATH_NOT_FOUND',
    );
    const denied: WalkFs = {
      ...fs,
      readdirSync: () => {
        throw Object.assign(new Error('EACCES'), { code: 'EACCES' });
      },
    } as WalkFs;
    assert.throws(
      () => walkProject({ root, fs: denied }),
      (e: Error & { code?: string }) => e.code === 'PERMISSION_DENIED',
    );
    assert.throws(
      () => walkProject({ root, maxFileBytes: -1 }),
      (e: Error & { code?: string }) => e.code === 'INVALID_ARGUMENT',
    );
  });

  it('yields a single file root alone, even if an ignore rule would match it', () => {
    tree({ '.gitignore': '*.md\n', 'note.md': 'hello', 'pic.png': '' });
    const items = [...walkProject({ root: join(root, 'note.md') })];
    assert.deepEqual(
      items.map((i) => [i.kind, i.rel]),
      [['file', 'note.md']],
    );
    assert.deepEqual(
      [...walkProject({ root: join(root, 'pic.png') })].map((i) => i.kind === 'skipped' && i.reason),
      ['binary'],
    );
  });
});
