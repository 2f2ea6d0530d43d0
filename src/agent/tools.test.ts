/** @module agent/tools.test — the file tools and the shell tool, in a temp folder. */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FILE_TOOLS, globRegExp, SHELL_TOOL, type AgentTool, type ToolContext } from './index.js';

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'loci-agent-'));
  mkdirSync(join(dir, 'src', 'auth'), { recursive: true });
  mkdirSync(join(dir, 'node_modules', 'x'), { recursive: true });
  writeFileSync(join(dir, 'src', 'a.ts'), 'export const a = 1;\nexport const b = 2;\n');
  writeFileSync(join(dir, 'src', 'auth', 'token.ts'), 'export function refreshToken() {\n  return 42;\n}\n');
  writeFileSync(join(dir, 'README.md'), '# demo\n');
  writeFileSync(join(dir, 'node_modules', 'x', 'index.js'), 'refreshToken\n');
  return dir;
}

const tool = (name: string): AgentTool => FILE_TOOLS.find((t) => t.spec.name === name) ?? SHELL_TOOL;
const ctx = (cwd: string, answer = false): ToolContext => ({ cwd, signal: undefined, confirm: async () => answer });

describe('file tools', () => {
  it('read returns numbered lines and refuses paths outside the project', async () => {
    const dir = project();
    const r = await tool('read').run({ path: 'src/a.ts', offset: 2, limit: 1 }, ctx(dir));
    assert.equal(r.content, '     2\texport const b = 2;\n… 1 more lines');
    const out = await tool('read').run({ path: '../../etc/passwd' }, ctx(dir));
    assert.equal(out.isError, true);
    assert.match(out.content, /not inside the project/);
  });

  it('list matches globs and skips node_modules', async () => {
    const dir = project();
    assert.equal((await tool('list').run({ pattern: 'src/**/*.ts' }, ctx(dir))).content, 'src/a.ts\nsrc/auth/token.ts');
    assert.equal((await tool('list').run({}, ctx(dir))).content, 'README.md\nsrc/a.ts\nsrc/auth/token.ts');
    assert.ok(globRegExp('*.{md,ts}').test('x.md') && !globRegExp('*.ts').test('src/a.ts'));
  });

  it('grep reports path:line: text', async () => {
    const dir = project();
    const r = await tool('grep').run({ pattern: 'refresh\\w+', glob: '**/*.ts' }, ctx(dir));
    assert.equal(r.content, 'src/auth/token.ts:1: export function refreshToken() {');
    assert.equal((await tool('grep').run({ pattern: '(' }, ctx(dir))).isError, true);
  });

  it('edit replaces one unique piece, shows a diff, and creates files', async () => {
    const dir = project();
    const r = await tool('edit').run({ path: 'src/a.ts', old: 'const b = 2', new: 'const b = 3' }, ctx(dir));
    assert.equal(readFileSync(join(dir, 'src', 'a.ts'), 'utf8'), 'export const a = 1;\nexport const b = 3;\n');
    assert.equal(
      r.display,
      '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,2 +1,2 @@\n' +
        ' export const a = 1;\n-export const b = 2;\n+export const b = 3;',
    );
    const twice = await tool('edit').run({ path: 'src/a.ts', old: 'export', new: 'x' }, ctx(dir));
    assert.match(twice.content, /more than once/);
    const created = await tool('edit').run({ path: 'docs/new.md', old: '', new: 'hello\n' }, ctx(dir));
    assert.match(created.display!, /^--- \/dev\/null\n\+\+\+ b\/docs\/new\.md/);
    assert.equal(readFileSync(join(dir, 'docs', 'new.md'), 'utf8'), 'hello\n');
  });
});

describe('shell tool', () => {
  it('runs a command only after confirmation', async () => {
    const dir = project();
    const declined = await tool('shell').run({ command: 'touch ran' }, ctx(dir, false));
    assert.equal(declined.isError, true);
    assert.match(declined.content, /declined/);
    const r = await tool('shell').run({ command: 'ls src && exit 3' }, ctx(dir, true));
    assert.equal(r.content, 'a.ts\nauth\n[exit code 3]');
    assert.equal(r.isError, true);
  });
});
