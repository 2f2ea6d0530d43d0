/**
 * @module store/postgres/team
 * The PostgreSQL adapter of {@link TeamStore}: the `team_*` tables in the palace's schema, created
 * by `init()` (`CREATE TABLE IF NOT EXISTS`) like the SQLite adapter's, so a palace that never
 * serves carries none. Writes run in `withWriteTx` (the palace's advisory write lock): the memory
 * compare-and-swap reads the newest version and appends the next one in one transaction.
 */
import type { TeamMemoryVersion, TeamStore } from '../team-port.js';
import { toAudit, toToken, type AuditRow, type TokenRow } from '../sql-rows.js';
import { readQuery, withWriteTx, type PgPool, type PgTarget } from './connect.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS team_tokens (
  id TEXT PRIMARY KEY, "user" TEXT NOT NULL, hash TEXT NOT NULL UNIQUE, grants TEXT NOT NULL,
  created_at TEXT NOT NULL, revoked_at TEXT
);
CREATE TABLE IF NOT EXISTS team_audit (
  seq BIGSERIAL PRIMARY KEY, at TEXT NOT NULL, "user" TEXT NOT NULL, action TEXT NOT NULL,
  wing TEXT NOT NULL, target TEXT NOT NULL, details TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS team_memories (
  project TEXT NOT NULL, file TEXT NOT NULL, version INTEGER NOT NULL, text TEXT,
  author TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (project, file, version)
);`;

const toVersion = (r: TeamMemoryVersion): TeamMemoryVersion => ({ ...r, version: Number(r.version) });

/** The team tables of a PostgreSQL palace (call `init()` before use). */
export function createPostgresTeamStore(pool: PgPool, target: PgTarget): TeamStore {
  const q = <R>(sql: string, params: unknown[] = []) => readQuery<R>(pool, target, sql, params);
  const tx = <T>(fn: Parameters<typeof withWriteTx<T>>[2]) => withWriteTx(pool, target, fn);
  return {
    kind: 'postgres',
    async init() {
      await tx(async (c) => {
        await c.query(SCHEMA);
      });
    },
    async addToken(t) {
      await tx((c) =>
        c.query(
          'INSERT INTO team_tokens (id, "user", hash, grants, created_at, revoked_at) VALUES ($1,$2,$3,$4,$5,$6)',
          [t.id, t.user, t.hash, JSON.stringify(t.grants), t.createdAt, t.revokedAt],
        ),
      );
    },
    async tokenByHash(hash) {
      const [r] = await q<TokenRow>('SELECT * FROM team_tokens WHERE hash = $1', [hash]);
      return r && toToken(r);
    },
    async listTokens() {
      return (await q<TokenRow>('SELECT * FROM team_tokens ORDER BY created_at, id')).map(toToken);
    },
    async revokeToken(id, at) {
      const r = await tx((c) =>
        c.query('UPDATE team_tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [at, id]),
      );
      return (r.rowCount ?? 0) > 0;
    },
    async appendAudit(e) {
      const r = await tx((c) =>
        c.query<{ seq: number }>(
          'INSERT INTO team_audit (at, "user", action, wing, target, details) VALUES ($1,$2,$3,$4,$5,$6) RETURNING seq',
          [e.at, e.user, e.action, e.wing, e.target, JSON.stringify(e.details)],
        ),
      );
      return { ...structuredClone(e), seq: Number(r.rows[0]!.seq) };
    },
    async listAudit(o = {}) {
      const params: unknown[] = [o.after ?? 0, o.limit ?? 100];
      const wing = o.wing !== undefined ? (params.push(o.wing), ' AND wing = $3') : '';
      return (await q<AuditRow>(`SELECT * FROM team_audit WHERE seq > $1${wing} ORDER BY seq LIMIT $2`, params)).map(
        toAudit,
      );
    },
    async latestMemory(project, file) {
      const [r] = await q<TeamMemoryVersion>(
        'SELECT * FROM team_memories WHERE project = $1 AND file = $2 ORDER BY version DESC LIMIT 1',
        [project, file],
      );
      return r && toVersion(r);
    },
    async memoryVersion(project, file, version) {
      const [r] = await q<TeamMemoryVersion>(
        'SELECT * FROM team_memories WHERE project = $1 AND file = $2 AND version = $3',
        [project, file, version],
      );
      return r && toVersion(r);
    },
    async listMemories(project) {
      return (
        await q<TeamMemoryVersion>(
          `SELECT DISTINCT ON (file) * FROM team_memories WHERE project = $1 ORDER BY file, version DESC`,
          [project],
        )
      ).map(toVersion);
    },
    async commitMemory(e, expected) {
      return tx(async (c) => {
        const cur = await c.query<{ v: number | null }>(
          'SELECT max(version) AS v FROM team_memories WHERE project = $1 AND file = $2',
          [e.project, e.file],
        );
        if (Number(cur.rows[0]?.v ?? 0) !== expected) return false;
        await c.query(
          'INSERT INTO team_memories (project, file, version, text, author, at) VALUES ($1,$2,$3,$4,$5,$6)',
          [e.project, e.file, expected + 1, e.text, e.author, e.at],
        );
        return true;
      });
    },
    async close() {},
    async dangerouslyClearAll() {
      await tx(async (c) => {
        await c.query('DELETE FROM team_tokens; DELETE FROM team_audit; DELETE FROM team_memories;');
      });
    },
  };
}
