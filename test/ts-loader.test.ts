/**
 * @module test/ts-loader
 * The TypeScript loader `npm test` runs the tests with (scripts/ts-loader.mjs): the compiled tree
 * when it is current, the source compiled on the spot when the tree is missing or older, and the
 * `./x.js` → `./x.ts` rule of TypeScript's NodeNext resolution.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { ROOT, tempDir } from './helpers/cli.js';

const LOADER = pathToFileURL(join(ROOT, 'scripts', 'ts-loader.mjs')).href;
// A small module of the project; the tree's stand-in for it says where it came from.
const MODULE = join(ROOT, 'src', 'core', 'light-hash.ts');

function run(entry: string, out: string): string {
  const r = spawnSync(process.execPath, ['--import', LOADER, entry], {
    encoding: 'utf8',
    env: { ...process.env, LOCI_TS_OUT: out },
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim();
}

test('the loader serves the compiled tree when current and compiles a newer source itself', () => {
  const t = tempDir();
  try {
    const out = join(t.dir, 'tree');
    const standIn = join(out, 'src', 'core', 'light-hash.js');
    mkdirSync(join(out, 'src', 'core'), { recursive: true });
    writeFileSync(standIn, 'export const FROM_TREE = true;\n');
    writeFileSync(join(t.dir, 'name.ts'), "export const name: string = 'sibling';\n");
    writeFileSync(
      join(t.dir, 'main.ts'),
      `import { name } from './name.js';\n` +
        `const mod: Record<string, unknown> = await import(${JSON.stringify(pathToFileURL(MODULE).href)});\n` +
        `console.log(name, 'FROM_TREE' in mod ? 'tree' : 'source');\n`,
    );
    assert.equal(run(join(t.dir, 'main.ts'), out), 'sibling tree');
    utimesSync(standIn, 0, 0);
    assert.equal(run(join(t.dir, 'main.ts'), out), 'sibling source', 'a tree file older than its source is not used');
    assert.equal(run(join(t.dir, 'main.ts'), join(t.dir, 'none')), 'sibling source');
  } finally {
    t.cleanup();
  }
});
