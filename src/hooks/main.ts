/**
 * @module hooks/main
 * The hook process entry that `loci hooks install` writes into Claude Code's settings
 * (`node /abs/dist/hooks/main.js <event> [--home DIR]`, also `hook-worker` and `hook-server`; see
 * `process.ts`). It runs the bundle `dist/bundle/hooks.js` when the build made one (one file instead
 * of the ~15–120 modules of the tsc output: `scripts/build-bundles.mjs`), else `process.ts`.
 */
import { existsSync, realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

type Process = typeof import('./process.js');

/** Runs the hook process of `argv` (see `process.ts`), from the bundle when it is built. */
export async function hookMain(argv: string[]): Promise<void> {
  // Under tsx (src/hooks/main.ts) there is no bundle beside the sources.
  const bundle = new URL('../bundle/hooks.js', import.meta.url);
  const run: Process = existsSync(bundle) ? ((await import(bundle.href)) as Process) : await import('./process.js');
  return run.hookMain(argv);
}

function isMain(): boolean {
  try {
    return !!process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
  } catch {
    return false;
  }
}

if (isMain()) void hookMain(process.argv.slice(2));
