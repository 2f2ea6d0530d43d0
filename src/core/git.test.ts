/**
 * @module core/git.test
 * The one git helper: `findGitRoot` (nearest `.git` entry, no binary) and `findGit` agree on the
 * repository they name, for folders, files, worktree pointer files and paths outside git.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findGit, findGitByFiles, findGitRoot } from './git.js';

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'loci-git-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('findGitRoot: nearest folder holding .git, from a folder, a file or a missing path', (t) => {
  const root = tempDir(t);
  const repo = join(root, 'repo');
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
  writeFileSync(join(repo, 'src', 'a.ts'), 'x');
  assert.equal(findGitRoot(repo), repo);
  assert.equal(findGitRoot(join(repo, 'src', 'deep')), repo);
  assert.equal(findGitRoot(join(repo, 'src', 'a.ts')), repo);
  assert.equal(findGitRoot(join(repo, 'src', 'missing', 'b.ts')), repo);
  // A nested repository (or a worktree's `.git` file) wins over the outer one.
  const inner = join(repo, 'vendor', 'lib');
  mkdirSync(inner, { recursive: true });
  writeFileSync(join(inner, '.git'), 'gitdir: ../../.git/modules/lib\n');
  assert.equal(findGitRoot(join(inner, 'x.c')), inner);
  const outside = join(root, 'plain');
  mkdirSync(outside);
  // The temp folder itself is not inside a repository on any sane machine; guard anyway.
  if (findGitRoot(root) === null) assert.equal(findGitRoot(outside), null);
});

test('findGit reads the files the same walk found; a broken pointer is not a repository by files', (t) => {
  const root = tempDir(t);
  const repo = join(root, 'repo');
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(join(repo, 'src'), { recursive: true });
  const info = findGitByFiles(join(repo, 'src'));
  assert.equal(info?.topLevel, repo);
  assert.equal(info?.canonicalRoot, repo);
  assert.equal(info?.via, 'files');
  assert.equal(findGit(join(repo, 'src'))?.topLevel, findGitRoot(join(repo, 'src')));
  const broken = join(root, 'broken');
  mkdirSync(broken);
  writeFileSync(join(broken, '.git'), 'gitdir: ./nowhere\n');
  assert.equal(findGitRoot(broken), broken);
  assert.equal(findGitByFiles(broken), undefined);
});
