/**
 * @module store/memory/team
 * The in-memory reference adapter of {@link TeamStore}: plain arrays and maps, copies in and out.
 */
import type { TeamAuditEntry, TeamMemoryVersion, TeamStore, TeamToken } from '../team-port.js';

const copy = <T>(v: T): T => structuredClone(v);

class MemoryTeamStore implements TeamStore {
  readonly kind = 'memory';
  private tokens: TeamToken[] = [];
  private audit: TeamAuditEntry[] = [];
  private seq = 0;
  /** Versions by `project\0file`, oldest first. */
  private docs = new Map<string, TeamMemoryVersion[]>();

  async init(): Promise<void> {}
  async addToken(token: TeamToken): Promise<void> {
    if (this.tokens.some((t) => t.id === token.id || t.hash === token.hash)) throw new Error('duplicate token');
    this.tokens.push(copy(token));
  }
  async tokenByHash(hash: string): Promise<TeamToken | undefined> {
    const t = this.tokens.find((x) => x.hash === hash);
    return t && copy(t);
  }
  async listTokens(): Promise<TeamToken[]> {
    return copy(this.tokens);
  }
  async revokeToken(id: string, at: string): Promise<boolean> {
    const t = this.tokens.find((x) => x.id === id && x.revokedAt === null);
    if (!t) return false;
    t.revokedAt = at;
    return true;
  }
  async appendAudit(entry: Omit<TeamAuditEntry, 'seq'>): Promise<TeamAuditEntry> {
    const e = { ...copy(entry), seq: ++this.seq };
    this.audit.push(e);
    return copy(e);
  }
  async listAudit(opts: { after?: number; limit?: number; wing?: string } = {}): Promise<TeamAuditEntry[]> {
    const after = opts.after ?? 0;
    return copy(
      this.audit
        .filter((e) => e.seq > after && (opts.wing === undefined || e.wing === opts.wing))
        .slice(0, opts.limit ?? 100),
    );
  }
  async latestMemory(project: string, file: string): Promise<TeamMemoryVersion | undefined> {
    const v = this.docs.get(`${project}\0${file}`);
    return v && copy(v[v.length - 1]);
  }
  async memoryVersion(project: string, file: string, version: number): Promise<TeamMemoryVersion | undefined> {
    const v = this.docs.get(`${project}\0${file}`)?.find((x) => x.version === version);
    return v && copy(v);
  }
  async listMemories(project: string): Promise<TeamMemoryVersion[]> {
    const out: TeamMemoryVersion[] = [];
    for (const versions of this.docs.values()) {
      const last = versions[versions.length - 1]!;
      if (last.project === project) out.push(copy(last));
    }
    return out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  }
  async commitMemory(entry: Omit<TeamMemoryVersion, 'version'>, expected: number): Promise<boolean> {
    const key = `${entry.project}\0${entry.file}`;
    const versions = this.docs.get(key) ?? [];
    if ((versions[versions.length - 1]?.version ?? 0) !== expected) return false;
    versions.push({ ...copy(entry), version: expected + 1 });
    this.docs.set(key, versions);
    return true;
  }
  async close(): Promise<void> {}
  async dangerouslyClearAll(): Promise<void> {
    this.tokens = [];
    this.audit = [];
    this.docs.clear();
  }
}

/** A team store in memory (tests, the in-memory palace). */
export function createMemoryTeamStore(): TeamStore {
  return new MemoryTeamStore();
}
