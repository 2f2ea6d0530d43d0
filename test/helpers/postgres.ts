/**
 * @module test/helpers/postgres
 * A PostgreSQL server for tests. `LOCI_TEST_DATABASE_URL` names one (CI starts a throw-away cluster
 * and exports it); otherwise, when PostgreSQL's binaries are installed (`initdb` on the PATH or in
 * /usr/lib/postgresql/<n>/bin), this helper starts a throw-away cluster of its own for the test
 * process (as the `postgres` user when run as root; trust auth on loopback; a free port; the socket
 * in the temp folder) and stops it at exit. Without either, tests skip with the reason — unless
 * `LOCI_REQUIRE_POSTGRES=1` (CI), where a missing server fails them. Each caller gets its own schema
 * (`?schema=`), so tests run in parallel.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A server to test against, or why there is none. */
export type PgServer = { url: string; skip?: undefined } | { url?: undefined; skip: string };

function binDir(): string | undefined {
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  const onPath = which.status === 0 ? which.stdout.trim() : '';
  if (onPath) return join(onPath, '..');
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) if (existsSync(join(base, v, 'bin', 'initdb'))) return join(base, v, 'bin');
  return undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

function uidOf(user: string): { uid: number; gid: number } | undefined {
  const r = spawnSync('id', ['-u', user], { encoding: 'utf8' });
  const g = spawnSync('id', ['-g', user], { encoding: 'utf8' });
  return r.status === 0 && g.status === 0 ? { uid: Number(r.stdout), gid: Number(g.stdout) } : undefined;
}

async function startCluster(bin: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'loci-pg-'));
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? uidOf('postgres') : undefined;
  if (asRoot && !owner) throw new Error('running as root, and no `postgres` user to run the test cluster as');
  if (owner) {
    chownSync(dir, owner.uid, owner.gid);
    chmodSync(dir, 0o700);
  }
  const run = (cmd: string, args: string[]) =>
    execFileSync(owner ? 'runuser' : cmd, owner ? ['-u', 'postgres', '--', cmd, ...args] : args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: dir,
    });
  const data = join(dir, 'data');
  run(join(bin, 'initdb'), ['-D', data, '-U', 'loci', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  run(join(bin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'log'), '-o', opts, '-w', 'start']);
  process.once('exit', () => {
    try {
      run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']);
    } catch {
      /* already stopped */
    }
    rmSync(dir, { recursive: true, force: true });
  });
  return `postgres://loci@127.0.0.1:${port}/postgres`;
}

let server: Promise<PgServer> | undefined;

/** The test server (started once per process), or a skip reason. */
export function pgServer(): Promise<PgServer> {
  server ??= (async (): Promise<PgServer> => {
    const given = process.env['LOCI_TEST_DATABASE_URL'];
    if (given) return { url: given };
    const required = process.env['LOCI_REQUIRE_POSTGRES'] === '1';
    const bin = binDir();
    if (!bin) {
      if (required) throw new Error('LOCI_REQUIRE_POSTGRES=1 but no LOCI_TEST_DATABASE_URL and no initdb found');
      return { skip: 'no PostgreSQL: set LOCI_TEST_DATABASE_URL or install postgresql (initdb)' };
    }
    try {
      return { url: await startCluster(bin) };
    } catch (e) {
      if (required) throw e;
      return { skip: `could not start a throw-away PostgreSQL cluster: ${(e as Error).message.split('\n')[0]}` };
    }
  })();
  return server;
}

/** `url` with a fresh schema of its own (`?schema=t_<random>`), for one test or suite. */
export function withFreshSchema(url: string, prefix = 't'): string {
  const u = new URL(url);
  u.searchParams.set('schema', `${prefix}_${randomBytes(6).toString('hex')}`);
  return u.toString();
}
