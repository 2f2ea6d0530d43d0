/**
 * @module core/launcher
 * How other programs (Claude Code hooks, MCP registrations) should start this Loci so that the
 * command keeps working after a Node upgrade or a move: the Node binary is never pinned by its
 * absolute path; `node` and `loci` are found at run time.
 *
 * In order of preference:
 * 1. **project** — this package is the project's own dependency (`<project>/node_modules/.bin/loci`
 *    leads to this package's `bin/loci.js`; that is what `npx loci` runs inside a project): hooks
 *    run `"$CLAUDE_PROJECT_DIR"/node_modules/.bin/loci`, which Claude Code's hook shell expands to
 *    the project it runs in. No machine path is written, so a project settings file can be
 *    committed. Only for project and local scopes (a user-wide hook has no one project).
 * 2. **path** — `loci` on `PATH` leads to this package (a global install): `loci`. Folders only
 *    present while `npx`/`npm exec` runs (`node_modules/.bin`, the `_npx` cache) are not counted.
 * 3. **node** — otherwise `node <absolute path of bin/loci.js>`: `node` is looked up on `PATH` when
 *    the command runs (an upgraded Node is picked up), but moving or deleting this package breaks
 *    it; the caller should say so. A package inside the npx cache is reported as `ephemeral`.
 */
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { readSettings } from './env.js';
import { fileURLToPath } from 'node:url';

/** Which rule chose the command (see the module comment). */
type LaunchKind = 'project' | 'path' | 'node';

/** A way to start `bin/loci.js`. */
export interface LociLaunch {
  kind: LaunchKind;
  /** Program to run: `"$CLAUDE_PROJECT_DIR"/node_modules/.bin/loci` (shell form), `loci` or `node`. */
  command: string;
  /** Arguments before Loci's own (`[<abs bin/loci.js>]` for `node`, else none). */
  args: string[];
  /** True when this package sits in npx's temporary cache (a `node` command will break when it is cleaned). */
  ephemeral: boolean;
}

/** Options of {@link lociLaunch}. */
interface LociLaunchOptions {
  /** The project root (git root or cwd); enables the `project` rule. Default none. */
  projectRoot?: string | undefined;
  /** The environment the command will run in (its `PATH` is searched). Required: read by the caller. */
  env: NodeJS.ProcessEnv;
  /** This package's `bin/loci.js`. Default: found from this module. */
  bin?: string | undefined;
}

/** This package's `bin/loci.js` (from `dist/core` or `src/core` alike). */
export function lociBin(): string {
  return fileURLToPath(new URL('../../bin/loci.js', import.meta.url));
}

function real(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

function executable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** True for PATH folders that exist only while `npx` / `npm exec` runs. */
function transientPathDir(dir: string): boolean {
  return /[\\/]node_modules[\\/]\.bin[\\/]?$/.test(dir) || /[\\/]_npx[\\/]/.test(dir);
}

/** Finds the command that starts this package's `bin/loci.js` at run time (see the module comment). */
export function lociLaunch(o: LociLaunchOptions): LociLaunch {
  const env = o.env;
  const bin = o.bin ?? lociBin();
  const target = real(bin) ?? bin;
  const ephemeral = /[\\/]_npx[\\/]/.test(target);
  if (o.projectRoot !== undefined) {
    const local = join(o.projectRoot, 'node_modules', '.bin', 'loci');
    if (real(local) === target)
      return { kind: 'project', command: '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/loci', args: [], ephemeral };
  }
  const vars = readSettings(env);
  const exts = process.platform === 'win32' ? (vars.pathExt ?? '.EXE;.CMD').split(';') : [''];
  for (const dir of vars.path.split(delimiter)) {
    if (!dir || transientPathDir(dir)) continue;
    for (const ext of exts) {
      const p = join(dir, 'loci' + ext);
      if (executable(p) && real(p) === target) return { kind: 'path', command: 'loci', args: [], ephemeral };
    }
  }
  return { kind: 'node', command: 'node', args: [bin], ephemeral };
}
