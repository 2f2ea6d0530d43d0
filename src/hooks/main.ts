/**
 * @module hooks/main
 * The hook process entry that `loci hooks install` writes into Claude Code's settings
 * (`node /abs/dist/hooks/main.js <event> [--home DIR]`, also `hook-worker` and `hook-server`; see
 * `process.ts`). It runs the bundle `dist/bundle/hooks.js` when the build made one after the last tsc
 * build (a few files instead of the ~15–120 modules of the tsc output: `scripts/build-bundles.mjs`),
 * else `process.ts`.
 */
import { realpathSync, statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

type Process = typeof import('./process.js');

/** Runs the hook process of `argv` (see `process.ts`), from the bundle when it is built. */
export async function hookMain(argv: string[]): Promise<void> {
  const run: Process = bundled()
    ? ((await import(new URL('../bundle/hooks.js', import.meta.url).href)) as Process)
    : await import('./process.js');
  return run.hookMain(argv);
}

/**
 * True when the bundles were built after the last tsc build (`tsc` alone leaves them stale: then its
 * output runs). Under tsx (src/hooks/main.ts) there is no bundle beside the sources.
 */
function bundled(): boolean {
  const built = statSync(new URL('../bundle/inputs.json', import.meta.url), { throwIfNoEntry: false });
  const tsc = statSync(new URL('../.tsbuildinfo', import.meta.url), { throwIfNoEntry: false });
  return !!built && (!tsc || tsc.mtimeMs <= built.mtimeMs);
}

function isMain(): boolean {
  try {
    return !!process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
  } catch {
    return false;
  }
}

if (isMain()) void hookMain(process.argv.slice(2));
