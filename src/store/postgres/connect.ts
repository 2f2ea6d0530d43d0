/**
 * @module store/postgres/connect
 * The connection side of the PostgreSQL adapters: parses and checks a `postgres://` URL (the
 * password never appears in a message), loads `pg` (node-postgres) with a dynamic `import()` — only
 * a PostgreSQL palace ever loads it —, opens a pool whose connections use the palace's schema, maps
 * driver errors to catalogue errors, and runs transactions that serialise the palace's writers.
 */
import { createError, isLociError } from '../../core/errors.js';

/** The node-postgres module (types only: the module itself is loaded on demand). */
type PgModule = typeof import('pg');
/** A pool of connections. */
export type PgPool = import('pg').Pool;
/** One connection (pooled or not). */
type PgClient = import('pg').PoolClient;
/** Something that runs a query: the pool or a client inside a transaction. */
export type Queryable = Pick<import('pg').Pool, 'query'>;

/** A checked database URL. */
export interface PgTarget {
  /** The URL given to the driver (without Loci's own `schema` parameter). */
  connectionString: string;
  /** The URL with its password replaced by `***`, for messages and `status`. */
  display: string;
  /** The schema that holds the palace's tables (`?schema=`; default `public`). */
  schema: string;
}

const SCHEMA_RE = /^[a-z_][a-z0-9_]{0,62}$/;

/** The URL with its password replaced by `***` (best effort on unparsable input). */
function hidePassword(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@');
  }
}

/** Parses `url`; throws PG_URL_INVALID. */
export function parseDatabaseUrl(url: string): PgTarget {
  const display = hidePassword(url);
  const bad = (reason: string) => createError('PG_URL_INVALID', { url: display, reason });
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw bad('not a URL');
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') throw bad(`scheme ${u.protocol} is not postgres:`);
  if (!u.hostname && !u.searchParams.get('host')) throw bad('no host');
  if (u.pathname.length <= 1) throw bad('no database name');
  const schema = u.searchParams.get('schema') ?? 'public';
  if (!SCHEMA_RE.test(schema)) throw bad(`schema ${JSON.stringify(schema)} must be lower-case letters, digits, _`);
  u.searchParams.delete('schema');
  return { connectionString: u.toString(), display: hidePassword(u.toString()) + suffix(schema), schema };
}

const suffix = (schema: string) => (schema === 'public' ? '' : ` (schema ${schema})`);

/** SQLSTATE classes and socket errors that mean "the connection is gone or never came". */
export function isConnectionError(e: unknown): boolean {
  const code = String((e as { code?: unknown } | undefined)?.code ?? '');
  const msg = String((e as Error | undefined)?.message ?? '');
  return (
    code.startsWith('08') ||
    code === '57P01' ||
    code === '57P02' ||
    code === '57P03' ||
    /^E(CONNREFUSED|CONNRESET|NOTFOUND|AI_AGAIN|HOSTUNREACH|TIMEDOUT|PIPE)$/.test(code) ||
    /Connection terminated|connection timeout|Client has encountered a connection error/i.test(msg)
  );
}

/** Maps a driver error to a catalogue error (connection and login failures), else returns it. */
export function mapPgError(e: unknown, target: Pick<PgTarget, 'display'>): unknown {
  if (isLociError(e)) return e;
  const code = String((e as { code?: unknown } | undefined)?.code ?? '');
  const message = (e as Error | undefined)?.message ?? String(e);
  // node-postgres's own words when every pooled connection stayed taken for the wait limit.
  if (message === 'timeout exceeded when trying to connect') {
    const busy = busyLimits.get(target.display) ?? { connections: 0, seconds: 0 };
    return createError('PG_BUSY', { url: target.display, ...busy }, e);
  }
  if (isConnectionError(e) || code === '28P01' || code === '28000' || code === '3D000') {
    return createError('PG_UNREACHABLE', { url: target.display, reason: message.replace(/\s+/g, ' ') }, e);
  }
  return e;
}

let loaded: Promise<PgModule> | undefined;

/** Loads node-postgres once. Throws MODULE_MISSING when it is not installed. */
export function loadPg(): Promise<PgModule> {
  loaded ??= import('pg').then(
    (m) => ((m as unknown as { default?: PgModule }).default ?? m) as unknown as PgModule,
    (e: unknown) => {
      loaded = undefined;
      throw createError('MODULE_MISSING', { module: 'pg', feature: 'a PostgreSQL palace' }, e);
    },
  );
  return loaded;
}

/** Parses int8 and numeric as numbers (row ids and counts stay far below 2^53). */
function typesOf(pg: PgModule) {
  return {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === 20 || oid === 1700
        ? (v: string) => Number(v)
        : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
  };
}

/** The pool size and wait of each palace URL, for PG_BUSY's message. */
const busyLimits = new Map<string, { connections: number; seconds: number }>();

/**
 * Pool options for `target`: the palace's schema first on the search path, numbers as numbers.
 * `waitMs` bounds both a new connection and the wait for a free one (node-postgres has one limit).
 */
export function poolConfig(pg: PgModule, target: PgTarget, max = 4, waitMs = 10_000) {
  busyLimits.set(target.display, { connections: max, seconds: Math.round(waitMs / 100) / 10 });
  return {
    connectionString: target.connectionString,
    max,
    options: `-c search_path=${target.schema}`,
    types: typesOf(pg),
    connectionTimeoutMillis: waitMs,
    idleTimeoutMillis: 10_000,
    // Per palace, so that an administrator (or a test) can tell the connections of one schema apart.
    application_name: `loci:${target.schema}`,
  };
}

/** Opens a pool on `target` and checks that it answers (throws PG_UNREACHABLE). */
export async function openPool(target: PgTarget, max = 4, waitMs = 10_000): Promise<PgPool> {
  const pg = await loadPg();
  const pool = new pg.Pool(poolConfig(pg, target, max, waitMs));
  // An idle connection that dies (server restart, terminated backend) must not crash the process.
  pool.on('error', () => {});
  try {
    await pool.query(`CREATE SCHEMA IF NOT EXISTS ${target.schema}`).catch((e: unknown) => {
      // Two first starters may race on the schema; the loser sees a unique violation.
      if ((e as { code?: string }).code !== '23505' && (e as { code?: string }).code !== '42P06') throw e;
    });
  } catch (e) {
    await pool.end().catch(() => {});
    throw mapPgError(e, target);
  }
  return pool;
}

/** Lock key 1 of every advisory lock Loci takes ("LOCI"); key 2 tells the lock apart per schema. */
export const LOCK_SPACE = 0x4c4f4349;

/**
 * Runs `fn` in one transaction on one pooled connection, holding the palace's write lock
 * (`pg_advisory_xact_lock`, per schema): writers are serialised as SQLite's `BEGIN IMMEDIATE` does,
 * so the feed's positions are committed in order. A transaction that loses its connection is
 * retried once on a fresh one (it was rolled back, and every write of the adapters is idempotent).
 */
export async function withWriteTx<T>(pool: PgPool, target: PgTarget, fn: (c: PgClient) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    let client: PgClient | undefined;
    try {
      client = await pool.connect();
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))', [LOCK_SPACE]);
      const out = await fn(client);
      await client.query('COMMIT');
      client.release();
      return out;
    } catch (e) {
      if (client) {
        const broken = isConnectionError(e);
        if (!broken) await client.query('ROLLBACK').catch(() => {});
        client.release(broken ? (e as Error) : undefined);
      }
      if (attempt === 0 && isConnectionError(e)) continue;
      throw mapPgError(e, target);
    }
  }
}

/** Runs a read query, mapping connection errors (retried once on a fresh connection). */
export async function readQuery<R>(pool: PgPool, target: PgTarget, sql: string, params: unknown[] = []): Promise<R[]> {
  for (let attempt = 0; ; attempt++) {
    try {
      return (await pool.query(sql, params)).rows as R[];
    } catch (e) {
      if (attempt === 0 && isConnectionError(e)) continue;
      throw mapPgError(e, target);
    }
  }
}
