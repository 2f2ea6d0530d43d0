/**
 * @module store/team-port
 * The storage port of the team server ({@link TeamStore}): access tokens (stored hashed), grants per
 * wing, the audit log of writes, and the shared memory documents of `loci memory sync` with their
 * full version history (the common ancestors of three-way merges) and tombstones. Adapters:
 * `memory/team.ts` (reference), `sqlite/team.ts`. The rules over it (authentication, rights, merges)
 * live in `src/team`.
 */

/** A right on a wing: `read` < `write` < `admin` (each includes the ones before it). */
export type TeamRight = 'read' | 'write' | 'admin';

/** The rights in increasing order. */
export const TEAM_RIGHTS: readonly TeamRight[] = ['read', 'write', 'admin'];

/** One grant: a right on a wing (`*` = every wing, and the knowledge graph). */
export interface TeamGrant {
  wing: string;
  right: TeamRight;
}

/** A stored token: its secret is never stored, only its SHA-256. */
export interface TeamToken {
  /** Public id (`tok_…`), shown by `token list` and used by `token revoke`. */
  id: string;
  /** Who the token stands for (audit log, conflict labels). */
  user: string;
  /** SHA-256 (hex) of the whole secret token. */
  hash: string;
  grants: TeamGrant[];
  /** ISO-8601 UTC. */
  createdAt: string;
  /** ISO-8601 UTC when revoked, else null. A revoked token authenticates nobody. */
  revokedAt: string | null;
}

/** One audited write. */
export interface TeamAuditEntry {
  /** Increasing, never reused. Assigned by the store. */
  seq: number;
  /** ISO-8601 UTC. */
  at: string;
  user: string;
  /** What was done, e.g. `drawer.add`, `kg.add`, `memory.sync`, `mine.upload`. */
  action: string;
  /** The wing written (`*` for the graph). */
  wing: string;
  /** What was written: a drawer id, a fact id, a memory file… */
  target: string;
  /** Small JSON-safe details. */
  details: Record<string, unknown>;
}

/** One version of a shared memory document. Version 1 is the first; a tombstone has `text: null`. */
export interface TeamMemoryVersion {
  project: string;
  /** The file's path relative to the memory folder, `/`-separated (e.g. `reference_ci.md`). */
  file: string;
  version: number;
  /** The whole file, or null for a deletion (tombstone). */
  text: string | null;
  /** Who wrote this version. */
  author: string;
  /** ISO-8601 UTC. */
  at: string;
}

/** Storage of the team server. Every method is atomic. */
export interface TeamStore {
  readonly kind: string;
  /** Creates the tables if needed. Idempotent. */
  init(): Promise<void>;

  /** Stores a new token (its id and hash are unique). */
  addToken(token: TeamToken): Promise<void>;
  /** The token with this hash (revoked ones included), or undefined. */
  tokenByHash(hash: string): Promise<TeamToken | undefined>;
  /** Every token, oldest first. */
  listTokens(): Promise<TeamToken[]>;
  /** Marks a token revoked at `at`. False when no live token has this id. */
  revokeToken(id: string, at: string): Promise<boolean>;

  /** Appends an audit entry; returns it with its `seq`. */
  appendAudit(entry: Omit<TeamAuditEntry, 'seq'>): Promise<TeamAuditEntry>;
  /** Audit entries with `seq` > `after` (default 0), oldest first, at most `limit` (default 100). */
  listAudit(opts?: { after?: number; limit?: number; wing?: string }): Promise<TeamAuditEntry[]>;

  /** The newest version of a memory document, or undefined. */
  latestMemory(project: string, file: string): Promise<TeamMemoryVersion | undefined>;
  /** One version of a memory document, or undefined. */
  memoryVersion(project: string, file: string, version: number): Promise<TeamMemoryVersion | undefined>;
  /** The newest version of every document of a project (tombstones included), by file. */
  listMemories(project: string): Promise<TeamMemoryVersion[]>;
  /**
   * Appends version `expected + 1` (`expected` 0: the document is new) when the newest version is
   * still `expected` (compare-and-swap); returns false, writing nothing, when another writer won.
   */
  commitMemory(entry: Omit<TeamMemoryVersion, 'version'>, expected: number): Promise<boolean>;

  close(): Promise<void>;
  /** Deletes everything. For tests. */
  dangerouslyClearAll(): Promise<void>;
}
