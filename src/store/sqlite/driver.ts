/**
 * @module store/sqlite/driver
 * Opens the palace database: WAL, busy timeout, foreign-file and corruption checks, migrations.
 * The only file that imports better-sqlite3 directly.
 */
import Database from 'better-sqlite3';
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createError, isLociError, LociError } from '../../core/errors.js';
import { latestVersion, MIGRATIONS } from './migrations.js';

/** `PRAGMA application_id` of Loci databases ("LOCI"). */
const APPLICATION_ID = 0x4c4f4349;

/** An open palace database (the better-sqlite3 handle), as the SQLite adapters take it. */
export type SqliteDatabase = Database.Database;

/** Options of {@link openDatabase}. */
interface OpenDatabaseOptions {
  /** How long a writer waits for another process's lock, in ms. Default 15000. */
  busyTimeoutMs?: number;
  /** Open read-only (no migrations). Default false. */
  readonly?: boolean;
}

const SQLITE_MAGIC = 'SQLite format 3\0';

/** The addon's path, once looked up (null: not where `npm install` builds it). */
let addonPath: string | null | undefined;

/**
 * The native addon of better-sqlite3 where its install builds it (`build/Release/` of the package),
 * handed to the driver as `nativeBinding`: the driver's own lookup (the `bindings` package) loads two
 * more modules, takes a stack trace and tries two other folders first, a few milliseconds of every
 * process that opens a palace (issue 12, `loci search` and the hooks). Undefined when the addon is
 * elsewhere (a debug or prebuilt layout): the driver then finds it itself.
 */
export function nativeBinding(): string | undefined {
  if (addonPath === undefined) {
    try {
      const main = fileURLToPath(import.meta.resolve('better-sqlite3'));
      const path = join(dirname(main), '..', 'build', 'Release', 'better_sqlite3.node');
      addonPath = existsSync(path) ? path : null;
    } catch {
      addonPath = null;
    }
  }
  return addonPath ?? undefined;
}

function checkHeader(path: string): void {
  if (!existsSync(path) || statSync(path).size === 0) return;
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(16);
    const n = readSync(fd, buf, 0, 16, 0);
    if (n < 16 || buf.toString('latin1') !== SQLITE_MAGIC) {
      throw createError('DB_CORRUPT', { path, reason: 'the file is not an SQLite database' });
    }
  } finally {
    closeSync(fd);
  }
}

/** Maps a driver error to a catalogue error. */
export function mapSqliteError(e: unknown, path: string, busyTimeoutMs = 0): unknown {
  if (isLociError(e)) return e;
  const code = (e as { code?: string } | undefined)?.code ?? '';
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || code.startsWith('SQLITE_BUSY_')) {
    return createError('DB_LOCKED', { path, waitedMs: busyTimeoutMs }, e);
  }
  if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT_')) {
    return createError('DB_CORRUPT', { path, reason: (e as Error).message }, e);
  }
  if (code === 'SQLITE_CANTOPEN' || code === 'SQLITE_READONLY' || code === 'SQLITE_PERM') {
    return createError('HOME_UNAVAILABLE', { path, reason: (e as Error).message }, e);
  }
  return e;
}

function migrate(db: Database.Database, path: string): void {
  // Both in one statement: an up-to-date palace needs no more than this read.
  const { appId, version } = db
    .prepare(
      'SELECT a.application_id AS appId, u.user_version AS version ' +
        'FROM pragma_application_id() a, pragma_user_version() u',
    )
    .get() as { appId: number; version: number };
  if (appId !== APPLICATION_ID) {
    const tables = db.prepare("select count(*) n from sqlite_schema where type = 'table'").get() as { n: number };
    if (appId !== 0 || tables.n > 0) throw createError('DB_FOREIGN', { path });
  }
  const latest = latestVersion();
  if (version > latest) throw createError('DB_TOO_NEW', { path, version, supported: latest });
  if (version === latest && appId === APPLICATION_ID) return;
  // Re-check under the write lock: another process may have migrated meanwhile.
  db.transaction(() => {
    const v = db.pragma('user_version', { simple: true }) as number;
    for (const m of [...MIGRATIONS].sort((a, b) => a.version - b.version)) {
      if (m.version > v) m.up(db);
    }
    db.pragma(`application_id = ${APPLICATION_ID}`);
    db.pragma(`user_version = ${latest}`);
  }).immediate();
}

/**
 * Opens (creating if needed) the palace database at `path`, in WAL mode with a busy timeout,
 * and brings its schema up to date. Throws DB_CORRUPT, DB_FOREIGN, DB_TOO_NEW or DB_LOCKED.
 */
export function openDatabase(path: string, opts: OpenDatabaseOptions = {}): Database.Database {
  const busy = opts.busyTimeoutMs ?? 15_000;
  checkHeader(path);
  let db: Database.Database | undefined;
  try {
    const addon = nativeBinding();
    // `timeout` is SQLite's busy timeout (sqlite3_busy_timeout), as `PRAGMA busy_timeout` would set it.
    db = new Database(path, {
      readonly: opts.readonly ?? false,
      timeout: busy,
      ...(addon ? { nativeBinding: addon } : {}),
    });
    if (!opts.readonly && (db.pragma('journal_mode', { simple: true }) as string) !== 'wal')
      db.pragma('journal_mode = WAL');
    // One call for the settings that return nothing to read (each `pragma()` prepares a statement).
    db.exec(
      `${opts.readonly ? '' : 'PRAGMA synchronous = NORMAL; '}PRAGMA foreign_keys = ON; PRAGMA cache_size = -32000; ` +
        'PRAGMA temp_store = MEMORY;',
    );
    if (!opts.readonly) migrate(db, path);
    return db;
  } catch (e) {
    db?.close();
    const mapped = mapSqliteError(e, path, busy);
    if (mapped instanceof LociError) throw mapped;
    throw e;
  }
}
