#!/usr/bin/env node
// Bundles the start-up-critical entries of the tsc output into dist/bundle/ with esbuild: the CLI
// (`dist/cli/main.js`, which `loci search`, `loci mcp` and every other command start from) and the
// hook process (`dist/hooks/process.js`). Node 20's ES module loader costs about a millisecond of CPU
// per module (resolve, read, compile), so one file instead of ~100 is most of a hook's or a search's
// start. Run by `npm run build` and `prepare`, after tsc; `bin/loci.js` and `dist/hooks/main.js` use
// the bundles when they exist and the tsc output otherwise (the library entries are always tsc's).
//
// What stays as it was:
// - Laziness: every dynamic `import()` becomes a chunk of its own (`splitting`), so a command still
//   loads only what it loaded before. `inputs.json` lists the modules (of `dist/` and `node_modules/`) in
//   each output file (tests map loaded bundle files back to modules with it: `test/helpers/modules.ts`).
// - Locations: `import.meta.url` in a bundled module is rewritten to the URL of the module's own tsc
//   file, so paths computed from it (package.json, sibling worker modules, the hook entry the queue
//   spawns, the UI's assets) are the tsc output's.
// - Names: `keepNames` (bundling renames clashing identifiers; `.name` stays the source's) and
//   `ignoreAnnotations` (package.json's `"sideEffects": false` must not drop a module's evaluation).
// - `loci search`: a third build, of the start-up entry of its plain forms (`cli/search-main.js`),
//   into one file without chunks: everything a local search loads is static there, and the module
//   loader's work per file (resolve, an asynchronous read, link) was a third of its CPU above the
//   floor script's (issue 12). Its dynamic imports (remote, PostgreSQL, embedders, the graph: forms the
//   entry declines, so the CLI serves them) stay imports of the tsc output.
// - `loci mine <path>`: a fourth build, of its start-up entry (`cli/mine-main.js`), with chunks as the CLI's:
//   an unchanged re-mine loads 25 files instead of the CLI build's 35 (whose chunks are cut by what the
//   other commands share), and what only a changed file needs stays in chunks loaded on first use (one
//   file with all of it, 830 KB, costs more to compile than the loader saves: +24 M instructions).
// - Dependencies: the pure-JavaScript ones on the start-up paths are bundled too (`BUNDLED`: the MCP
//   SDK with zod and ajv alone are ~240 modules); every other package stays in node_modules (native
//   and optional runtimes must: better-sqlite3, sqlite-vec, pg, onnxruntime-node). CommonJS code in
//   the bundle gets a `require` of its own (the banner).
import { build } from 'esbuild';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist/');
const out = `${dist}bundle`;
const posix = (p) => p.split('\\').join('/');

/** Rewrites `import.meta.url` in each module of dist/ to the URL of that module's file. */
const ownUrl = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return { contents: text, loader: 'js' };
      const rel = JSON.stringify(posix(relative(out, args.path)));
      return { contents: text.replaceAll('import.meta.url', `new URL(${rel}, import.meta.url).href`), loader: 'js' };
    });
  },
};

/** Packages bundled (with their own dependencies); all others are loaded from node_modules. */
const BUNDLED = new Set([
  '@modelcontextprotocol/sdk',
  'zod',
  'zod-to-json-schema',
  'ajv',
  'ajv-formats',
  'fast-deep-equal',
  'fast-uri',
  'json-schema-traverse',
  'commander',
  'picocolors',
  'yaml',
]);
const packageOf = (spec) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');
const externals = {
  name: 'externals',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || BUNDLED.has(packageOf(args.path))) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/** Dynamic imports of the search entry's build: the tsc output's modules, not chunks (see above). */
const tscDynamic = {
  name: 'tsc-dynamic-imports',
  setup(b) {
    b.onResolve({ filter: /^\./ }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const path = posix(relative(out, join(args.resolveDir, args.path)));
      return { path: path.startsWith('.') ? path : `./${path}`, external: true };
    });
  },
};
const ENTRIES = {
  cli: 'cli/main.js',
  hooks: 'hooks/process.js',
  search: 'cli/search-main.js',
  mine: 'cli/mine-main.js',
};

await rm(out, { recursive: true, force: true });
const inputs = {};
// One build per entry: chunks are cut by which entries reach a module, so a build of its own keeps
// the hook process's chunks as few as its own dynamic imports make them (the two share no process).
for (const [name, entry] of Object.entries(ENTRIES)) {
  const result = await build({
    entryPoints: { [name]: `${dist}${entry}` },
    bundle: true,
    splitting: name !== 'search',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    banner: {
      js:
        "import { createRequire as __lociRequire } from 'node:module';\n" +
        'const require = __lociRequire(import.meta.url);',
    },
    outdir: out,
    absWorkingDir: root,
    chunkNames: `${name}-[hash]`,
    keepNames: true,
    ignoreAnnotations: true,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    plugins: name === 'search' ? [tscDynamic, externals, ownUrl] : [externals, ownUrl],
  });
  for (const [file, o] of Object.entries(result.metafile.outputs)) {
    if (!file.endsWith('.js')) continue;
    // Relative to the repository root: `dist/cli/main.js`, `node_modules/commander/index.js`.
    inputs[posix(relative(out, join(root, file)))] = Object.keys(o.inputs).map((i) => posix(i));
  }
}
await writeFile(`${out}/inputs.json`, `${JSON.stringify(inputs, null, 1)}\n`);
