// Compiles every TypeScript file of the project (src, test, bench, examples, scripts; not fixtures)
// into a tree of JavaScript files that scripts/ts-loader.mjs serves: one esbuild run (~1 s) instead
// of a transform in each test process. Types are not checked here (`npm run typecheck` does that).
import { build } from 'esbuild';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const FOLDERS = ['src', 'test', 'bench', 'examples', 'scripts'];

function collect(dir, found) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'fixtures' || e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) collect(p, found);
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) found.push(p);
  }
  return found;
}

/** Compiles the project's .ts files under `root` into `out` (same relative paths, `.js`). */
export async function compileTypeScript(root, out) {
  const entryPoints = FOLDERS.flatMap((f) => collect(join(root, f), []));
  await build({
    entryPoints,
    outdir: out,
    outbase: root,
    absWorkingDir: root,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'inline',
    tsconfig: join(root, 'tsconfig.json'),
    logLevel: 'error',
  });
  return entryPoints.length;
}
