/**
 * @module test/e2e/mine-modules.test
 * Re-mining an unchanged tree loads only what it uses (issue 12, mining efficiency): no conversation
 * parser (the ingest door loads them on first call) and no chunker. Runs the built CLI (tsc output of `npm run
 * build`) with a module load hook that lists the `dist/` modules; skipped when `dist/` is absent.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('re-mining an unchanged tree loads no parser, chunker, gitignore matcher or node:crypto', (t) => {
  if (!existsSync(join(root, 'dist', 'cli', 'main.js'))) return t.skip('dist/ is absent: run `npm run build` first');
  const dir = mkdtempSync(join(tmpdir(), 'loci-mods-'));
  try {
    const tree = join(dir, 'tree');
    mkdirSync(tree);
    writeFileSync(join(tree, 'notes.md'), '# Notes\n\nThe cache server listens on port 8080.\n');
    writeFileSync(join(tree, 'a.ts'), 'export const a = 1;\n');
    const hooks = join(dir, 'hooks.mjs');
    writeFileSync(
      hooks,
      'export async function load(url, context, next) {\n' +
        "  if (url.includes('/dist/') || url.includes('/node_modules/ignore/'))\n" +
        "    process.stderr.write('MODULE ' + url + '\\n');\n" +
        '  return next(url, context);\n}\n',
    );
    const register = join(dir, 'register.mjs');
    writeFileSync(
      register,
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n` +
        // The built-in modules loaded, at exit: `NativeModule crypto`, `NativeModule perf_hooks`…
        "process.on('exit', () =>\n" +
        "  process.stderr.write('BUILTINS ' + JSON.stringify(process.moduleLoadList) + '\\n'));\n" +
        // CommonJS modules required (the `ignore` package loads through `core/lazy`).
        "import { createRequire } from 'node:module';\n" +
        "process.on('exit', () =>\n" +
        "  process.stderr.write('CJS ' +\n" +
        "    JSON.stringify(Object.keys(createRequire(import.meta.url).cache)) + '\\n'));\n",
    );
    // The tsc build's CLI entry (not bin/loci.js, which may run the start-up bundles): its module graph
    // is what the bundler splits at the same dynamic imports.
    const entry = pathToFileURL(join(root, 'dist', 'cli', 'main.js')).href;
    const script =
      `const { main } = await import(${JSON.stringify(entry)});\n` +
      'process.exitCode = await main(process.argv.slice(1), process.env);';
    const run = () =>
      spawnSync(
        process.execPath,
        ['--import', pathToFileURL(register).href, '--input-type=module', '-e', script, 'mine', tree, '--json'],
        { env: { ...process.env, LOCI_HOME: join(dir, 'home'), LOCI_EMBEDDER: 'none' }, encoding: 'utf8' },
      );
    const first = run();
    assert.equal(first.status, 0, first.stderr);
    const second = run();
    assert.equal(second.status, 0, second.stderr);
    assert.equal(JSON.parse(second.stdout).files_unchanged, 2);
    const loaded = second.stderr.split('\n').filter((l) => l.startsWith('MODULE '));
    assert.ok(
      loaded.some((l) => l.includes('/ingest/mine-project.js')),
      'the hook saw the miner load',
    );
    const heavy = loaded.filter((l) => /\/ingest\/convos\/parse[-.]|\/ingest\/project\/chunk\.js/.test(l));
    assert.deepEqual(heavy, []);
    // node:crypto (~60 M instructions: the settings fingerprints use core/light-hash) and perf_hooks.
    const builtins = (loaded2: string[]) => loaded2.filter((m) => /^NativeModule (crypto|perf_hooks)$/.test(m));
    const list = (r: { stderr: string }) =>
      JSON.parse(
        r.stderr
          .split('\n')
          .find((l) => l.startsWith('BUILTINS '))!
          .slice(9),
      ) as string[];
    assert.deepEqual(builtins(list(first)), ['NativeModule crypto'], 'the probe sees the first mine hash');
    assert.deepEqual(builtins(list(second)), []);
    // The gitignore matcher: only a folder with rules needs it (this tree has none).
    const cjs = (second.stderr.split('\n').find((l) => l.startsWith('CJS ')) ?? 'CJS []').slice(4);
    const matcher = [...loaded, ...(JSON.parse(cjs) as string[])].filter((m) =>
      /[\\/]node_modules[\\/]ignore[\\/]/.test(m),
    );
    assert.deepEqual(matcher, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
