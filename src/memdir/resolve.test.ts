import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  findGit,
  lociProjectId,
  normalizeRemoteUrl,
  resolveClaudeMemoryDir,
  sanitizeProjectPath,
  selectMemoryDir,
  type ResolveOptions,
} from './index.js';
import { findGitByBinary, findGitByFiles, parseRemotes } from '../core/git.js';

function tmp(t: { after: (fn: () => void) => void }): string {
  const d = realpathSync(mkdtempSync(join(tmpdir(), 'loci-')));
  t.after(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.com',
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
};
function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    env: GIT_ENV,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}
function repo(dir: string, commit = true): string {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q');
  if (commit) {
    writeFileSync(join(dir, 'README.md'), 'hello\n');
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'init');
  }
  return dir;
}
function opts(
  home: string,
  cwd: string,
  extra: Partial<ResolveOptions> & { env?: NodeJS.ProcessEnv } = {},
): ResolveOptions {
  return {
    cwd,
    home,
    managedSettingsPath: null,
    lociHome: join(home, '.loci'),
    ...extra,
    env: { HOME: home, ...extra.env },
  };
}

test('the project key follows Claude Code: non-alphanumerics become "-"', () => {
  assert.equal(sanitizeProjectPath('/Users/me/app'), '-Users-me-app');
  assert.equal(sanitizeProjectPath('C:\\x\\y'), 'C--x-y');
  assert.equal(sanitizeProjectPath('/home/me/my.repo_v2'), '-home-me-my-repo-v2');
  assert.equal(sanitizeProjectPath('/srv/設計'), '-srv---');
  assert.equal(sanitizeProjectPath('/a/😀'), '-a---', 'a surrogate pair becomes two dashes');
});

test('all worktrees and subdirectories of a repo share one Claude Code memory dir', (t) => {
  const root = tmp(t);
  const home = join(root, 'home');
  const main = repo(join(root, 'src', 'app'));
  mkdirSync(join(main, 'pkg', 'deep'), { recursive: true });
  git(main, 'worktree', 'add', '-q', join(root, 'wt', 'feature'), '-b', 'feature');
  const expected = join(home, '.claude', 'projects', sanitizeProjectPath(main), 'memory');
  for (const cwd of [main, join(main, 'pkg', 'deep'), join(root, 'wt', 'feature')]) {
    const loc = resolveClaudeMemoryDir(opts(home, cwd));
    assert.equal(loc.dir, expected, cwd);
    assert.equal(loc.source, 'git');
    assert.equal(loc.projectRoot, main);
  }
  const wt = resolveClaudeMemoryDir(opts(home, join(root, 'wt', 'feature')));
  assert.match(wt.reason, /shared by all worktrees/);
  // Files and the git binary agree.
  const byFiles = findGitByFiles(join(root, 'wt', 'feature'))!;
  const byGit = findGitByBinary(join(root, 'wt', 'feature'))!;
  assert.equal(byFiles.canonicalRoot, byGit.canonicalRoot);
  assert.equal(byFiles.topLevel, byGit.topLevel);
  assert.equal(byFiles.commonDir, byGit.commonDir);
});

test('bare repositories with worktrees key on the bare dir; outside git the cwd is used', (t) => {
  const root = tmp(t);
  const home = join(root, 'home');
  const seed = repo(join(root, 'seed'));
  git(root, 'clone', '-q', '--bare', seed, join(root, 'proj.git'));
  git(join(root, 'proj.git'), 'worktree', 'add', '-q', join(root, 'proj-main'), 'main');
  const loc = resolveClaudeMemoryDir(opts(home, join(root, 'proj-main')));
  assert.equal(loc.projectRoot, join(root, 'proj.git'));
  assert.equal(findGit(join(root, 'proj-main'))?.canonicalRoot, join(root, 'proj.git'));
  const plain = join(root, 'plain');
  mkdirSync(plain);
  const p = resolveClaudeMemoryDir(opts(home, plain));
  assert.equal(p.source, 'cwd');
  assert.equal(p.dir, join(home, '.claude', 'projects', sanitizeProjectPath(plain), 'memory'));
});

test('long paths: an existing folder with the same 200-character prefix is found, else a hash is computed', (t) => {
  const root = tmp(t);
  const home = join(root, 'home');
  let deep = join(root, 'w');
  while (deep.length <= 230) deep = join(deep, 'a-rather-long-directory-name');
  mkdirSync(deep, { recursive: true });
  const prefix = deep.replace(/[^a-zA-Z0-9]/g, '-').slice(0, 200);
  const computed = resolveClaudeMemoryDir(opts(home, deep));
  assert.match(computed.dir, new RegExp(`${prefix}-[0-9a-z]+/memory$`));
  assert.match(computed.reason, /hash suffix computed/);
  const existing = join(home, '.claude', 'projects', `${prefix}-zz9k1`);
  mkdirSync(join(existing, 'memory'), { recursive: true });
  mkdirSync(join(home, '.claude', 'projects', `${prefix}-other`), { recursive: true });
  const found = resolveClaudeMemoryDir(opts(home, deep));
  assert.equal(found.dir, join(existing, 'memory'));
  assert.match(found.reason, /200-character prefix/);
});

test('CLAUDE_CONFIG_DIR and CLAUDE_CODE_PROJECT_DIR_NAME (only together, only valid names)', (t) => {
  const root = tmp(t);
  const home = join(root, 'home');
  const cwd = repo(join(root, 'r'));
  const cfg = join(root, 'cfg');
  assert.equal(
    resolveClaudeMemoryDir(opts(home, cwd, { env: { CLAUDE_CONFIG_DIR: cfg } })).dir,
    join(cfg, 'projects', sanitizeProjectPath(cwd), 'memory'),
  );
  const pinned = resolveClaudeMemoryDir(
    opts(home, cwd, { env: { CLAUDE_CONFIG_DIR: cfg, CLAUDE_CODE_PROJECT_DIR_NAME: 'my_proj-1' } }),
  );
  assert.equal(pinned.dir, join(cfg, 'projects', 'my_proj-1', 'memory'));
  assert.equal(pinned.source, 'CLAUDE_CODE_PROJECT_DIR_NAME');
  const alone = resolveClaudeMemoryDir(opts(home, cwd, { env: { CLAUDE_CODE_PROJECT_DIR_NAME: 'my_proj-1' } }));
  assert.equal(alone.source, 'git');
  assert.ok(alone.warnings.some((w) => /without CLAUDE_CONFIG_DIR/.test(w)));
  for (const bad of ['has space', 'x'.repeat(65), '../up']) {
    const r = resolveClaudeMemoryDir(
      opts(home, cwd, { env: { CLAUDE_CONFIG_DIR: cfg, CLAUDE_CODE_PROJECT_DIR_NAME: bad } }),
    );
    assert.equal(r.source, 'git', bad);
  }
});

test('autoMemoryDirectory: user < project < local settings, ~/ expanded, relative ignored', (t) => {
  const root = tmp(t);
  const home = join(root, 'home');
  const cwd = repo(join(root, 'r'));
  const write = (p: string, v: unknown) => {
    mkdirSync(join(p, '..'), { recursive: true });
    writeFileSync(p, JSON.stringify(v));
  };
  write(join(home, '.claude', 'settings.json'), { autoMemoryDirectory: '~/mem-user' });
  assert.equal(resolveClaudeMemoryDir(opts(home, cwd)).dir, join(home, 'mem-user'));
  write(join(cwd, '.claude', 'settings.json'), { autoMemoryDirectory: join(root, 'mem-project') });
  assert.equal(resolveClaudeMemoryDir(opts(home, cwd)).dir, join(root, 'mem-project'));
  write(join(cwd, '.claude', 'settings.local.json'), { autoMemoryDirectory: 'relative/dir' });
  const r = resolveClaudeMemoryDir(opts(home, cwd));
  assert.equal(r.dir, join(root, 'mem-project'), 'an invalid value does not override');
  assert.ok(r.warnings.some((w) => /neither absolute/.test(w)));
  write(join(cwd, '.claude', 'settings.local.json'), { autoMemoryDirectory: join(root, 'mem-local') });
  const local = resolveClaudeMemoryDir(opts(home, join(cwd)));
  assert.equal(local.dir, join(root, 'mem-local'));
  assert.equal(local.source, 'autoMemoryDirectory');
  // From a subdirectory, the worktree root's settings apply.
  mkdirSync(join(cwd, 'sub'));
  assert.equal(resolveClaudeMemoryDir(opts(home, join(cwd, 'sub'))).dir, join(root, 'mem-local'));
  // Broken JSON is a warning, not a failure.
  writeFileSync(join(home, '.claude', 'settings.json'), '{ nope');
  assert.ok(resolveClaudeMemoryDir(opts(home, cwd)).warnings.some((w) => /not valid JSON/.test(w)));
});

test('auto memory can be turned off by env or settings', (t) => {
  const root = tmp(t);
  const home = join(root, 'home');
  const cwd = repo(join(root, 'r'));
  assert.equal(
    resolveClaudeMemoryDir(opts(home, cwd, { env: { CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1' } })).enabled,
    false,
  );
  mkdirSync(join(home, '.claude'), { recursive: true });
  writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ autoMemoryEnabled: false }));
  assert.equal(resolveClaudeMemoryDir(opts(home, cwd)).enabled, false);
});

test('remote URLs normalise to one key', () => {
  const same = [
    'git@github.com:Acme/Widget.git',
    'https://github.com/acme/widget',
    'https://user:tok3n@github.com/acme/widget.git/',
    'ssh://git@github.com:22/acme/widget.git',
    'git+ssh://git@github.com/acme/widget',
    'git://github.com/acme/widget.git',
  ];
  for (const u of same) assert.equal(normalizeRemoteUrl(u), 'github.com/acme/widget', u);
  assert.equal(normalizeRemoteUrl('/srv/git/widget.git'), 'srv/git/widget');
  assert.equal(normalizeRemoteUrl('file:///srv/git/widget.git'), 'srv/git/widget');
  assert.deepEqual(
    parseRemotes(
      '[core]\n\tbare = false\n[remote "upstream"]\n\turl = https://a/b\n[remote "origin"]\n\turl = git@a:c/d.git\n' +
        '\tfetch = +refs/heads/*:refs/remotes/origin/*\n',
    ),
    [
      { name: 'upstream', url: 'https://a/b' },
      { name: 'origin', url: 'git@a:c/d.git' },
    ],
  );
});

test('Loci project id: remote (origin first) > root commit > path; the same in every worktree and clone', (t) => {
  const root = tmp(t);
  const home = join(root, 'home');
  const a = repo(join(root, 'a'));
  const clone = join(root, 'elsewhere', 'a-clone');
  git(root, 'clone', '-q', a, clone);
  // Without a remote: the root commit, shared by the clone (whose origin is a local path, so remove it).
  git(clone, 'remote', 'remove', 'origin');
  const byCommit = lociProjectId(opts(home, a));
  assert.equal(byCommit.source, 'commit');
  assert.equal(lociProjectId(opts(home, clone)).id.split('-').pop(), byCommit.id.split('-').pop());
  assert.match(byCommit.id, /^a-[0-9a-f]{8}$/);
  // With remotes: origin wins over others, spelled any way.
  git(a, 'remote', 'add', 'upstream', 'https://example.com/other/thing.git');
  git(a, 'remote', 'add', 'origin', 'git@example.com:Team/Widget.git');
  git(clone, 'remote', 'add', 'origin', 'https://bot:secret@example.com/team/widget');
  const ra = lociProjectId(opts(home, a));
  assert.equal(ra.source, 'remote');
  assert.equal(ra.key, 'example.com/team/widget');
  assert.match(ra.id, /^widget-[0-9a-f]{8}$/);
  assert.equal(lociProjectId(opts(home, clone)).id, ra.id);
  git(a, 'worktree', 'add', '-q', join(root, 'a-wt'), '-b', 'wt');
  assert.equal(lociProjectId(opts(home, join(root, 'a-wt'))).id, ra.id);
  // Only a non-origin remote: it is used.
  git(a, 'remote', 'remove', 'origin');
  assert.equal(lociProjectId(opts(home, a)).key, 'example.com/other/thing');
  // No commits: path; no git at all: path.
  const empty = repo(join(root, 'empty'), false);
  assert.equal(lociProjectId(opts(home, empty)).source, 'path');
  const plain = join(root, 'plain');
  mkdirSync(plain);
  const p = lociProjectId(opts(home, plain));
  assert.equal(p.source, 'path');
  assert.match(p.id, /^plain-[0-9a-f]{8}$/);
});

test('selection: --dir > --user > Claude Code dir (exists or --claude) > Loci own, with reasons', (t) => {
  const root = tmp(t);
  const home = join(root, 'home');
  const cwd = repo(join(root, 'r'));
  const o = opts(home, cwd);
  const own = selectMemoryDir(o);
  assert.equal(own.kind, 'loci');
  assert.equal(own.dir, join(home, '.loci', 'projects', own.projectId, 'memory'));
  assert.match(own.reason, /no memory directory/);
  assert.equal(own.userDir, join(home, '.loci', 'projects', '_user', 'memory'));
  assert.equal(selectMemoryDir({ ...o, claude: true }).kind, 'claude');
  assert.equal(selectMemoryDir({ ...o, user: true }).dir, own.userDir);
  const explicit = selectMemoryDir({ ...o, dir: 'mem', claude: true });
  assert.deepEqual([explicit.kind, explicit.dir], ['explicit', join(cwd, 'mem')]);
  mkdirSync(own.claude.dir, { recursive: true });
  const cc = selectMemoryDir(o);
  assert.equal(cc.kind, 'claude');
  assert.equal(cc.dir, own.claude.dir);
  assert.match(cc.reason, /exists/);
  assert.equal(cc.projectRoot, cwd);
  // Auto memory off: Loci's own, unless --claude.
  assert.equal(selectMemoryDir({ ...o, env: { HOME: home, CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1' } }).kind, 'loci');
});
