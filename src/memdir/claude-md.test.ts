import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { extractImports, loadClaudeMdChain, managedClaudeMdPath, CLAUDE_MD_MAX_BYTES } from './index.js';

function tree(t: { after: (fn: () => void) => void }, files: Record<string, string>): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'loci-')));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

test('managed path by platform', () => {
  assert.equal(managedClaudeMdPath('linux'), '/etc/claude-code/CLAUDE.md');
  assert.equal(managedClaudeMdPath('darwin'), '/Library/Application Support/ClaudeCode/CLAUDE.md');
  assert.equal(managedClaudeMdPath('win32'), 'C:\\Program Files\\ClaudeCode\\CLAUDE.md');
});

test('imports: outside code spans, fences and comments only; emails are not imports', () => {
  const text =
    'See @AGENTS.md and @./docs/x.md and @~/notes.md and @/abs/y.md.\nMail me@example.com\n`@span.md`\n```\n' +
    '@fenced.md\n```\n@scoped/@pkg';
  assert.deepEqual(extractImports(text), ['AGENTS.md', './docs/x.md', '~/notes.md', '/abs/y.md.', 'scoped/@pkg']);
});

test('chain order: managed, user, user rules, root→cwd (CLAUDE.md, .claude/CLAUDE.md, rules, CLAUDE.local.md)', (t) => {
  const root = tree(t, {
    'managed/CLAUDE.md': 'policy',
    'home/.claude/CLAUDE.md': 'user prefs @~/notes/personal.md',
    'home/notes/personal.md': 'personal notes',
    'home/.claude/rules/a.md': 'user rule a',
    'home/.claude/rules/sub/b.md': '---\ndescription: nested\n---\nuser rule b',
    'proj/CLAUDE.md': 'project root',
    'proj/.claude/CLAUDE.md': 'project dot-claude',
    'proj/.claude/rules/style.md': 'style rule',
    'proj/.claude/rules/api/only-api.md': '---\npaths:\n  - "src/api/**/*.ts"\n---\nconditional body',
    'proj/CLAUDE.local.md': 'local notes',
    'proj/pkg/CLAUDE.md': 'package level',
    'proj/pkg/sub/CLAUDE.md': 'below the cwd: not loaded at launch',
  });
  const chain = loadClaudeMdChain({
    cwd: join(root, 'proj', 'pkg'),
    home: join(root, 'home'),
    managedPath: join(root, 'managed', 'CLAUDE.md'),
    env: {},
  });
  const got = chain.files
    .filter((f) => f.path.startsWith(root))
    .map((f) => [f.kind, f.path.slice(root.length + 1), f.content.trim(), f.conditional ?? false]);
  assert.deepEqual(got, [
    ['managed', 'managed/CLAUDE.md', 'policy', false],
    ['user', 'home/.claude/CLAUDE.md', 'user prefs @~/notes/personal.md', false],
    ['import', 'home/notes/personal.md', 'personal notes', false],
    ['user-rules', 'home/.claude/rules/a.md', 'user rule a', false],
    ['user-rules', 'home/.claude/rules/sub/b.md', 'user rule b', false],
    ['project', 'proj/CLAUDE.md', 'project root', false],
    ['project', 'proj/.claude/CLAUDE.md', 'project dot-claude', false],
    ['project-rules', 'proj/.claude/rules/api/only-api.md', '', true],
    ['project-rules', 'proj/.claude/rules/style.md', 'style rule', false],
    ['project-local', 'proj/CLAUDE.local.md', 'local notes', false],
    ['project', 'proj/pkg/CLAUDE.md', 'package level', false],
  ]);
  const cond = chain.files.find((f) => f.conditional)!;
  assert.deepEqual(cond.paths, ['src/api/**/*.ts']);
  assert.equal(chain.skipped.length, 0);
});

test('imports: 4 hops, cycles, code ignored, relative to the importing file, absolute allowed', (t) => {
  const root = tree(t, {
    'p/CLAUDE.md':
      'root @docs/h1.md @cyc/x.md\n`@docs/never.md`\n```md\n@docs/never2.md\n```\n<!-- @docs/never3.md -->\n',
    'p/docs/h1.md': 'hop1 @h2.md',
    'p/docs/h2.md': 'hop2 @./deeper/h3.md',
    'p/docs/deeper/h3.md': 'hop3 @../h4.md',
    'p/docs/h4.md': 'hop4 @h5.md',
    'p/docs/h5.md': 'hop5 is too deep',
    'p/cyc/x.md': 'x @y.md',
    'p/cyc/y.md': 'y @x.md @ABS',
    'abs/target.md': 'absolute import',
    'p/docs/never.md': 'x',
    'p/docs/never2.md': 'x',
    'p/docs/never3.md': 'x',
  });
  writeFileSync(join(root, 'p/cyc/y.md'), `y @x.md @${join(root, 'abs', 'target.md')}`);
  const chain = loadClaudeMdChain({ cwd: join(root, 'p'), home: join(root, 'home'), managedPath: null, env: {} });
  const files = chain.files.filter((f) => f.path.startsWith(root)).map((f) => [f.path.slice(root.length + 1), f.depth]);
  assert.deepEqual(files, [
    ['p/CLAUDE.md', 0],
    ['p/docs/h1.md', 1],
    ['p/docs/h2.md', 2],
    ['p/docs/deeper/h3.md', 3],
    ['p/docs/h4.md', 4],
    ['p/cyc/x.md', 1],
    ['p/cyc/y.md', 2],
    ['abs/target.md', 3],
  ]);
  const skipped = chain.skipped.map((s) => [s.path.slice(root.length + 1), s.reason]);
  assert.deepEqual(skipped, [
    ['p/docs/h5.md', 'depth'],
    ['p/cyc/x.md', 'cycle'],
  ]);
  assert.ok(!chain.files.some((f) => f.path.includes('never')));
});

test('block HTML comments are stripped, inline ones and code kept; files over 4 MiB skipped', (t) => {
  const root = tree(t, {
    'p/CLAUDE.md':
      'keep\n<!-- maintainer note\nspanning lines -->\nafter\ntext <!-- inline --> stays\n```\n<!-- in code -->\n```\n',
  });
  writeFileSync(join(root, 'p', 'CLAUDE.local.md'), Buffer.alloc(CLAUDE_MD_MAX_BYTES + 1, 'a'));
  const chain = loadClaudeMdChain({ cwd: join(root, 'p'), home: join(root, 'home'), managedPath: null, env: {} });
  const main = chain.files.find((f) => f.path === join(root, 'p', 'CLAUDE.md'))!;
  assert.equal(main.content, 'keep\nafter\ntext <!-- inline --> stays\n```\n<!-- in code -->\n```\n');
  assert.deepEqual(chain.skipped, [{ path: join(root, 'p', 'CLAUDE.local.md'), reason: 'too-large' }]);
  assert.ok(!chain.files.some((f) => f.kind === 'project-local'));
});

test('a file reachable twice loads once (home as an ancestor of the cwd)', (t) => {
  const root = tree(t, {
    'home/.claude/CLAUDE.md': 'user',
    'home/work/CLAUDE.md': 'work',
    'home/CLAUDE.md': 'home dir file',
  });
  const chain = loadClaudeMdChain({
    cwd: join(root, 'home', 'work'),
    home: join(root, 'home'),
    managedPath: null,
    env: {},
  });
  const mine = chain.files.filter((f) => f.path.startsWith(root)).map((f) => [f.kind, f.path.slice(root.length + 1)]);
  assert.deepEqual(mine, [
    ['user', 'home/.claude/CLAUDE.md'],
    ['project', 'home/CLAUDE.md'],
    ['project', 'home/work/CLAUDE.md'],
  ]);
});
