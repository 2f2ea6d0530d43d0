/**
 * @module test/helpers/modules
 * Which modules a Node process loads: runs it with a `--import` probe that records every module
 * the ES module loader loads (a `load` hook) and, at exit, every CommonJS module in the require
 * cache. Used by the start-up test (modules counted, never milliseconds) and `bench/startup.ts`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** What {@link modulesLoaded} saw. */
export interface LoadedModules {
  /**
   * Absolute paths of the modules loaded (ES modules and CommonJS), in first-load order; a file of a
   * start-up bundle (`dist/bundle/`, `scripts/build-bundles.mjs`) stands for the modules bundled into
   * it (its entry in `inputs.json`: modules of `dist/` and of `node_modules/`), so what a command
   * loads reads the same for the bundles and the tsc output.
   */
  files: string[];
  /** The files actually loaded (bundle files as themselves). */
  raw: string[];
  status: number | null;
  stdout: string;
  stderr: string;
}

const HOOKS = `import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function load(url, context, next) {
  const r = await next(url, context);
  if (url.startsWith('file:')) appendFileSync(log, url + '\\n');
  return r;
}
`;

const register = (hooks: string, log: string) => `import { register, createRequire } from 'node:module';
import { appendFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
register(${JSON.stringify(hooks)}, { data: { log: ${JSON.stringify(log)} } });
const require = createRequire(import.meta.url);
process.on('exit', () => {
  const cjs = Object.keys(require.cache).map((p) => pathToFileURL(p).href);
  if (cjs.length) appendFileSync(${JSON.stringify(log)}, cjs.join('\\n') + '\\n');
});
`;

/** Runs `node <args>` with the probe and returns the files it loaded (the probe's own excluded). */
export function modulesLoaded(
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {},
): LoadedModules {
  const dir = mkdtempSync(join(tmpdir(), 'loci-modules-'));
  try {
    const log = join(dir, 'loaded.log');
    writeFileSync(log, '');
    const hooks = join(dir, 'hooks.mjs');
    writeFileSync(hooks, HOOKS);
    const reg = join(dir, 'register.mjs');
    writeFileSync(reg, register(pathToFileURL(hooks).href, log));
    const r = spawnSync(process.execPath, ['--import', pathToFileURL(reg).href, ...args], {
      cwd: opts.cwd,
      env: { ...(opts.env ?? process.env), NODE_OPTIONS: '' },
      input: opts.input ?? '',
      encoding: 'utf8',
    });
    const raw = [
      ...new Set(
        readFileSync(log, 'utf8')
          .split('\n')
          .filter((u) => u.startsWith('file:'))
          .map((u) => fileURLToPath(u))
          .filter((p) => !p.startsWith(dir)),
      ),
    ];
    return { files: unbundled(raw), raw, status: r.status, stdout: r.stdout, stderr: r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `files` with each file of a start-up bundle replaced by the modules bundled into it. */
function unbundled(files: string[]): string[] {
  const inputs = new Map<string, Record<string, string[]>>();
  const out = files.flatMap((f) => {
    const m = /^(.*)[\\/]dist[\\/]bundle[\\/]([^\\/]+\.js)$/.exec(f);
    if (!m) return [f];
    const root = m[1]!;
    if (!inputs.has(root))
      inputs.set(root, JSON.parse(readFileSync(join(root, 'dist', 'bundle', 'inputs.json'), 'utf8')) as never);
    return (inputs.get(root)![m[2]!] ?? [f]).map((p) => resolve(root, p));
  });
  return [...new Set(out)];
}
