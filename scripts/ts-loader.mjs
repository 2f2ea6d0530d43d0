// `node --import ./scripts/ts-loader.mjs`: runs TypeScript files that scripts/ts-compile.mjs compiled
// before the run (npm test, test-times), without tsx. tsx costs each process ~0.35 CPU-seconds before
// its first test (its own bundle and esbuild, in the process and in the loader thread); these hooks
// cost ~0.1 (the loader thread alone) and read each module's JavaScript from the compiled tree.
// `import.meta.url` stays the .ts file's, as under tsx, so paths computed from it do not change.
// A file missing from the tree or changed after it was compiled is compiled when loaded (esbuild).
// LOCI_TS_OUT names the compiled tree; child processes and workers inherit it with the --import.
import { register } from 'node:module';

process.setSourceMapsEnabled(true);
register('./ts-loader-hooks.mjs', import.meta.url, { data: { out: process.env['LOCI_TS_OUT'] ?? '' } });
