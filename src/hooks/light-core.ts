/**
 * @module hooks/light-core
 * The one place where the hook fast path reaches below the library entries.
 *
 * Why: a hook is a whole Node process per event, so its cost is start-up. Importing the public
 * library (`src/internal.ts`) evaluates ~100 modules and loads better-sqlite3: measured on the CI box,
 * `node -e 0` takes ~100 ms of CPU and `import('dist/index.js')` ~270 ms. The `stop`,
 * `pre-compact`, `post-compact` and `session-end` hooks and a cached `session-start` need only a
 * few leaf utilities of `core` (no dependencies beyond node built-ins and the error catalogue), so
 * they import them here, and nothing else of Loci. Every other hooks module that needs the library
 * imports `src/internal.ts` or doors, and is itself loaded with a dynamic `import()` only when an event needs it
 * (`run.ts`). Keep this list to leaf modules of `core`, plus the one light function of the
 * `wakeup` capability a cached `session-start` needs ({@link cachedWakeUpText}: its module and
 * `wakeup/wake-render.ts` import only node built-ins and leaf `core` modules; going through the
 * `wakeup` door would load one more module on every hook). File names are hashed and randomised by
 * `core/light-hash.ts`, so no hook that only queues or reads its cache loads `node:crypto` (~5 ms).
 */
export { writeFileAtomic } from '../core/fs-safe.js';
export { createError, fsError, isLociError, type ErrorCode } from '../core/errors.js';
export { resolveHome, homePaths, readSettings, processEnv, type Env, type LociSettings } from '../core/env.js';
export { sha256Hex as sha256, randomHex } from '../core/light-hash.js';
export { countWords, isSmallTalk } from '../core/words.js';
export { pidAlive } from '../core/process.js';
export type { Logger, LogLevel } from '../core/logger.js';

/**
 * The cached wake-up text for `cwd` (see `wakeup/wake-cache.ts`), or undefined when none is fresh.
 * Loaded on call so that the archiving events never load the wake-up modules.
 */
export async function cachedWakeUpText(home: string, cwd: string): Promise<string | undefined> {
  const { cachedWakeUpText: cached } = await import('../wakeup/wake-cache.js');
  return cached(home, cwd);
}
