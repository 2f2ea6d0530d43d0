/**
 * @module ingest/project/walk-git.test — the walker's ignore rules agree with git itself (differential property test).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { walkProject } from './index.js';

function gitAvailable(): boolean {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const DIRS = ['', 'a', 'b', 'a/b', 'a/c', 'c', 'c/a'];
const NAMES = ['x.txt', 'y.log', 'keep.log', 'z.md', 'tmp', 'B.txt']; // never a folder name
const PATTERNS = [
  '*.log',
  '!keep.log',
  '/x.txt',
  'b/',
  'tmp',
  '!tmp',
  'a/',
  '*.md',
  '!*.md',
  '**/z.md',
  'c/*',
  '!c/keep.log',
  'y.*',
  'b',
  '/b/',
  'a/**/x.txt',
  '#comment',
  '\\#x',
  '*',
  '!*/',
  '!a/',
];

const treeArb = fc.record({
  files: fc.uniqueArray(fc.tuple(fc.constantFrom(...DIRS), fc.constantFrom(...NAMES)), {
    minLength: 1,
    maxLength: 25,
    selector: ([d, n]) => `${d}/${n}`,
  }),
  ignores: fc.array(
    fc.tuple(fc.constantFrom(...DIRS), fc.array(fc.constantFrom(...PATTERNS), { minLength: 1, maxLength: 5 })),
    { maxLength: 4 },
  ),
  exclude: fc.array(fc.constantFrom(...PATTERNS), { maxLength: 2 }),
});

describe('walkProject ignore rules vs git', () => {
  it('lists exactly the files `git ls-files --others --exclude-standard` lists', (t) => {
    if (!gitAvailable()) {
      t.skip('git is not installed');
      return;
    }
    fc.assert(
      fc.property(treeArb, ({ files, ignores, exclude }) => {
        const root = fs.mkdtempSync(join(tmpdir(), 'loci-walk-git-'));
        try {
          execFileSync('git', ['init', '-q', root]);
          fs.writeFileSync(join(root, '.git', 'info', 'exclude'), exclude.join('\n'));
          for (const [d, n] of files) {
            fs.mkdirSync(join(root, d), { recursive: true });
            fs.writeFileSync(join(root, d, n), n);
          }
          for (const [d, pats] of ignores) {
            fs.mkdirSync(join(root, d), { recursive: true });
            fs.appendFileSync(join(root, d, '.gitignore'), `${pats.join('\n')}\n`);
          }
          const git = execFileSync(
            'git',
            [
              '-c',
              'core.excludesFile=/dev/null',
              '-c',
              'core.quotePath=false',
              'ls-files',
              '--others',
              '--exclude-standard',
            ],
            { cwd: root, encoding: 'utf8' },
          )
            .split('\n')
            .filter((l) => l !== '')
            .sort();
          const ours = [...walkProject({ root })]
            .filter((i) => i.kind === 'file')
            .map((i) => i.rel)
            .sort();
          assert.deepEqual(ours, git);
        } finally {
          fs.rmSync(root, { recursive: true, force: true });
        }
      }),
      { numRuns: 40 },
    );
  });
});
