/**
 * @module core/home
 * Where a palace lives: `--home DIR` > `LOCI_HOME` > `~/.loci`.
 */
import { mkdirSync, accessSync, constants } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { createError } from './errors.js';

/** Resolves the Loci home folder (absolute). Does not create it. */
export function resolveHome(explicit?: string, env: NodeJS.ProcessEnv = process.env): string {
  const raw = explicit || env['LOCI_HOME'] || join(homedir(), '.loci');
  return resolve(raw.startsWith('~/') ? join(homedir(), raw.slice(2)) : raw);
}

/** Standard paths inside a home. */
export function homePaths(home: string) {
  return {
    home,
    db: join(home, 'palace.db'),
    config: join(home, 'config.json'),
    logs: join(home, 'logs'),
    locks: join(home, 'locks'),
    queue: join(home, 'queue'),
    projects: join(home, 'projects'),
    models: join(home, 'models'),
  } as const;
}

/** Creates the home folder (mode 0700) if needed and checks that it is writable. Idempotent. */
export function ensureHome(home: string): void {
  try {
    mkdirSync(home, { recursive: true, mode: 0o700 });
    accessSync(home, constants.W_OK | constants.R_OK);
  } catch (e) {
    throw createError('HOME_UNAVAILABLE', { path: home, reason: (e as Error).message }, e);
  }
}
