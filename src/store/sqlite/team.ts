/**
 * @module store/sqlite/team
 * The SQLite adapter of {@link TeamStore}: four `team_*` tables in the palace database. They are
 * created by `init()` (`CREATE TABLE IF NOT EXISTS`, in one immediate transaction) rather than by a
 * numbered migration, so a palace that never runs `loci serve` carries none of them and its schema
 * version is unchanged. Every write runs in a `BEGIN IMMEDIATE` transaction; the memory
 * compare-and-swap is one `INSERT … SELECT` guarded by the newest version.
 */
import type Database from 'better-sqlite3';
import type { TeamAuditEntry, TeamMemoryVersion, TeamStore, TeamToken } from '../team-port.js';
import { toAudit, toToken, type AuditRow, type TokenRow } from '../sql-rows.js';
import { mapSqliteError } from './driver.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS team_tokens (
  id         TEXT PRIMARY KEY,
  user       TEXT NOT NULL,
  hash       TEXT NOT NULL UNIQUE,
  grants     TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS team_audit (
  seq     INTEGER PRIMARY KEY AUTOINCREMENT,
  at      TEXT NOT NULL,
  user    TEXT NOT NULL,
  action  TEXT NOT NULL,
  wing    TEXT NOT NULL,
  target  TEXT NOT NULL,
  details TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS team_memories (
  project TEXT NOT NULL,
  file    TEXT NOT NULL,
  version INTEGER NOT NULL,
  text    TEXT,
  author  TEXT NOT NULL,
  at      TEXT NOT NULL,
  PRIMARY KEY (project, file, version)
) WITHOUT ROWID;
`;

type MemoryRow = TeamMemoryVersion;

const LATEST = `SELECT * FROM team_memories WHERE project = ? AND file = ? ORDER BY version DESC LIMIT 1`;

class SqliteTeamStore implements TeamStore {
  readonly kind = 'sqlite';
  constructor(private readonly db: Database.Database) {}

  private run<T>(fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      throw mapSqliteError(e, this.db.name);
    }
  }
  private write<T>(fn: () => T): T {
    return this.run(() => this.db.transaction(fn).immediate());
  }
  async init(): Promise<void> {
    this.write(() => this.db.exec(SCHEMA));
  }
  async addToken(t: TeamToken): Promise<void> {
    this.write(() =>
      this.db
        .prepare('INSERT INTO team_tokens (id, user, hash, grants, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(t.id, t.user, t.hash, JSON.stringify(t.grants), t.createdAt, t.revokedAt),
    );
  }
  async tokenByHash(hash: string): Promise<TeamToken | undefined> {
    const r = this.run(() => this.db.prepare('SELECT * FROM team_tokens WHERE hash = ?').get(hash) as TokenRow);
    return r && toToken(r);
  }
  async listTokens(): Promise<TeamToken[]> {
    return this.run(() =>
      (this.db.prepare('SELECT * FROM team_tokens ORDER BY created_at, id').all() as TokenRow[]).map(toToken),
    );
  }
  async revokeToken(id: string, at: string): Promise<boolean> {
    return this.write(
      () =>
        this.db.prepare('UPDATE team_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id)
          .changes > 0,
    );
  }
  async appendAudit(e: Omit<TeamAuditEntry, 'seq'>): Promise<TeamAuditEntry> {
    return this.write(() => {
      const r = this.db
        .prepare('INSERT INTO team_audit (at, user, action, wing, target, details) VALUES (?, ?, ?, ?, ?, ?)')
        .run(e.at, e.user, e.action, e.wing, e.target, JSON.stringify(e.details));
      return { ...structuredClone(e), seq: Number(r.lastInsertRowid) };
    });
  }
  async listAudit(opts: { after?: number; limit?: number; wing?: string } = {}): Promise<TeamAuditEntry[]> {
    const wing = opts.wing !== undefined ? ' AND wing = @wing' : '';
    return this.run(() =>
      (
        this.db
          .prepare(`SELECT * FROM team_audit WHERE seq > @after${wing} ORDER BY seq LIMIT @limit`)
          .all({ after: opts.after ?? 0, limit: opts.limit ?? 100, ...(wing ? { wing: opts.wing } : {}) }) as AuditRow[]
      ).map(toAudit),
    );
  }
  async latestMemory(project: string, file: string): Promise<TeamMemoryVersion | undefined> {
    return this.run(() => this.db.prepare(LATEST).get(project, file) as MemoryRow | undefined);
  }
  async memoryVersion(project: string, file: string, version: number): Promise<TeamMemoryVersion | undefined> {
    return this.run(
      () =>
        this.db
          .prepare('SELECT * FROM team_memories WHERE project = ? AND file = ? AND version = ?')
          .get(project, file, version) as MemoryRow | undefined,
    );
  }
  async listMemories(project: string): Promise<TeamMemoryVersion[]> {
    return this.run(
      () =>
        this.db
          .prepare(
            `SELECT m.* FROM team_memories m
             JOIN (SELECT file, max(version) v FROM team_memories WHERE project = ? GROUP BY file) n
               ON m.file = n.file AND m.version = n.v
             WHERE m.project = ? ORDER BY m.file`,
          )
          .all(project, project) as MemoryRow[],
    );
  }
  async commitMemory(e: Omit<TeamMemoryVersion, 'version'>, expected: number): Promise<boolean> {
    return this.write(() => {
      const cur =
        (this.db
          .prepare('SELECT max(version) FROM team_memories WHERE project = ? AND file = ?')
          .pluck()
          .get(e.project, e.file) as number | null) ?? 0;
      if (cur !== expected) return false;
      this.db
        .prepare('INSERT INTO team_memories (project, file, version, text, author, at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(e.project, e.file, expected + 1, e.text, e.author, e.at);
      return true;
    });
  }
  async close(): Promise<void> {}
  async dangerouslyClearAll(): Promise<void> {
    this.write(() => this.db.exec('DELETE FROM team_tokens; DELETE FROM team_audit; DELETE FROM team_memories;'));
  }
}

/** The team tables of an open palace database (call `init()` before use). */
export function createSqliteTeamStore(db: Database.Database): TeamStore {
  return new SqliteTeamStore(db);
}
