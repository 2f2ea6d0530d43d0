/**
 * @module test/no-heavy-static-imports.test
 * Heavy or optional runtimes (model runtimes, image codecs, Postgres) must only ever be loaded with
 * a dynamic `import()` behind a port, so that `loci` starts fast and installs without them.
 * 1. No `src/**\/*.ts` file imports, re-exports or requires one statically.
 * 2. Importing the built library and CLI entries (`dist/`) in a fresh process loads none of them
 *    (checked with a module resolve hook and the CommonJS cache). Needs `npm run build`, which
 *    `npm test` runs first; skipped with that reason when `dist/` is absent.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Packages that must never be loaded statically. */
const HEAVY = ['onnxruntime-node', 'onnxruntime-web', '@huggingface/transformers', 'sharp', 'pg'] as const;

const root = fileURLToPath(new URL('..', import.meta.url));

const isHeavy = (specifier: string): boolean => HEAVY.some((h) => specifier === h || specifier.startsWith(`${h}/`));

/** Static module references in TypeScript source: import/export … from, bare imports, require(). */
function staticImports(source: string): { specifier: string; line: number }[] {
  const patterns = [
    // import x from 'm' / export { x } from 'm' (multi-line too)
    /^[ \t]*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/gm,
    /^[ \t]*import\s*['"]([^'"]+)['"]/gm, // import 'm'
    /^[ \t]*(?:import\s+\w+\s*=\s*)?(?:[^/\n]*?[=(,\s])?require\s*\(\s*['"]([^'"]+)['"]\s*\)/gm, // require('m')
  ];
  const found: { specifier: string; line: number }[] = [];
  for (const re of patterns) {
    for (const m of source.matchAll(re)) {
      const at = (m.index ?? 0) + m[0].lastIndexOf(m[1]!);
      found.push({ specifier: m[1]!, line: source.slice(0, at).split('\n').length });
    }
  }
  return found;
}

function tsFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) tsFiles(p, out);
    else if (entry.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

describe('no heavy static imports', () => {
  it('the scanner finds every static form and ignores dynamic import() and comments', () => {
    const sample = [
      "import * as ort from 'onnxruntime-node';",
      "import type { Pool } from 'pg';",
      'import {\n  pipeline,\n  env,\n} from "@huggingface/transformers";',
      "export { default as sharp } from 'sharp';",
      "import 'onnxruntime-web/webgpu';",
      "const pg = require('pg');",
      "const ort = await import('onnxruntime-node');",
      " * import * as ort from 'onnxruntime-node';",
      "// import sharp from 'sharp';",
      "import { readFileSync } from 'node:fs';",
    ].join('\n');
    const heavy = staticImports(sample).filter((s) => isHeavy(s.specifier));
    assert.deepEqual(
      heavy.map((s) => `${s.line}:${s.specifier}`).sort(),
      [
        '1:onnxruntime-node',
        '2:pg',
        '6:@huggingface/transformers',
        '7:sharp',
        '8:onnxruntime-web/webgpu',
        '9:pg',
      ].sort(),
    );
  });

  it('no file in src/ imports a heavy module statically', () => {
    const offenders: string[] = [];
    const files = tsFiles(join(root, 'src'));
    assert.ok(files.length > 10, 'the scan sees the source tree');
    for (const file of files) {
      for (const s of staticImports(readFileSync(file, 'utf8'))) {
        if (isHeavy(s.specifier)) offenders.push(`${relative(root, file)}:${s.line} imports ${s.specifier}`);
      }
    }
    assert.deepEqual(
      offenders,
      [],
      `load these with a dynamic import() behind a port instead:\n${offenders.join('\n')}`,
    );
  });

  const entries = [
    'dist/index.js',
    'dist/internal.js',
    'dist/kg/index.js',
    'dist/mcp/index.js',
    'dist/hooks/index.js',
    'dist/cli/main.js',
    'dist/providers/index.js',
    'dist/embed/index.js',
  ];
  const built = existsSync(join(root, 'dist/index.js'));

  /** Imports `targets` in a fresh node with a resolve hook; returns what was resolved and required. */
  function loadedBy(targets: string[]): { resolved: string[]; required: string[] } {
    const dir = mkdtempSync(join(tmpdir(), 'loci-imports-'));
    try {
      const log = join(dir, 'resolved.log');
      writeFileSync(
        join(dir, 'hooks.mjs'),
        `import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  appendFileSync(log, JSON.stringify([specifier, r.url]) + '\\n');
  return r;
}
`,
      );
      writeFileSync(
        join(dir, 'register.mjs'),
        `import { register } from 'node:module';
register('./hooks.mjs', import.meta.url, { data: { log: ${JSON.stringify(log)} } });
`,
      );
      writeFileSync(log, '');
      const script = `
import { createRequire } from 'node:module';
for (const t of ${JSON.stringify(targets)}) await import(t);
process.stdout.write(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));
`;
      const res = spawnSync(
        process.execPath,
        ['--import', pathToFileURL(join(dir, 'register.mjs')).href, '--input-type=module', '-e', script],
        {
          cwd: root,
          encoding: 'utf8',
          env: { ...process.env, NODE_OPTIONS: '' },
        },
      );
      assert.equal(res.status, 0, `child failed: ${res.stderr}`);
      const resolved = readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .flatMap((l) => JSON.parse(l) as [string, string]);
      return { resolved, required: JSON.parse(res.stdout) as string[] };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  const heavyIn = (r: { resolved: string[]; required: string[] }): string[] =>
    [...r.resolved, ...r.required].filter((s) => isHeavy(s) || HEAVY.some((h) => s.includes(`/node_modules/${h}/`)));

  it(
    'importing the built entries loads no heavy module',
    { skip: built ? false : 'dist/ is missing: run `npm run build` (npm test builds first)' },
    () => {
      const targets = entries.filter((e) => existsSync(join(root, e))).map((e) => pathToFileURL(join(root, e)).href);
      const r = loadedBy(targets);
      assert.ok(
        r.resolved.some((s) => s.endsWith('/dist/index.js')),
        'the resolve hook saw the entry (the check is not vacuous)',
      );
      assert.deepEqual([...new Set(heavyIn(r))], []);
    },
  );

  const ortInstalled = existsSync(join(root, 'node_modules/onnxruntime-node/package.json'));
  it(
    'the same probe does catch a heavy module when one is loaded',
    { skip: ortInstalled ? false : 'onnxruntime-node is not installed' },
    () => {
      assert.ok(heavyIn(loadedBy(['onnxruntime-node'])).length > 0);
    },
  );
});
