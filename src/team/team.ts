/**
 * @module team/team
 * The team side of an open palace, as the team server uses it: {@link openTeam} gives token
 * management, authentication, the guarded palace of a member, memory sync, mine uploads and the
 * audit log, all over the palace's team store (`internals.teamStore()`), whichever database the
 * palace was opened on.
 */
import { join } from 'node:path';
import { writeFileAtomic } from '../core/fs-safe.js';
import { checkName, type Palace, type PalaceInternals } from '../palace/index.js';
import type { MineConvosSummary } from '../ingest/index.js';
import type { TeamAuditEntry, TeamGrant, TeamToken } from '../store/index.js';
import { createError } from '../core/errors.js';
import { authenticate, createToken, hasRight, requireRight, revokeToken, type TeamPrincipal } from './access.js';
import { auditor, guardPalace } from './guard.js';
import { applyMemorySync, type MemorySyncRequest, type MemorySyncResponse } from './memory-sync.js';

/** A mine upload: files of one folder, mined into `wing` on the server. */
interface MineUpload {
  wing: string;
  /** The uploaded folder's name (the files land in `<home>/uploads/<wing>/<root>/`). */
  root: string;
  files: { path: string; text: string }[];
}

/** The team server's operations over one palace. */
export interface Team {
  /** Creates a token; the secret is in the result only. */
  createToken(input: { user: string; grants: readonly TeamGrant[] }): Promise<{ token: string; record: TeamToken }>;
  listTokens(): Promise<TeamToken[]>;
  /** Throws TEAM_TOKEN_NOT_FOUND. */
  revokeToken(id: string): Promise<void>;
  /** The caller of an `Authorization` header, or undefined (→ 401). */
  authenticate(header: string | undefined): Promise<TeamPrincipal | undefined>;
  /** The palace as `p` may use it (rights checked, writes audited). */
  guard(p: TeamPrincipal): Palace;
  memorySync(p: TeamPrincipal, req: MemorySyncRequest): Promise<MemorySyncResponse>;
  mineUpload(p: TeamPrincipal, upload: MineUpload): Promise<MineConvosSummary>;
  /** Every audit entry (the server's own administrator: `loci serve audit`). */
  auditLog(opts?: { after?: number; limit?: number; wing?: string }): Promise<TeamAuditEntry[]>;
  /** Audit entries: all for an admin of `*`, else those of wings where `p` is admin. */
  audit(p: TeamPrincipal, opts?: { after?: number; limit?: number; wing?: string }): Promise<TeamAuditEntry[]>;
}

/** A safe relative path of an uploaded file (throws INVALID_ARGUMENT). */
function uploadPath(rel: string): string {
  const parts = rel.replace(/\\/g, '/').split('/');
  if (!rel || rel.length > 1000 || parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\0')))
    throw createError('INVALID_ARGUMENT', {
      name: 'uploaded file path',
      value: rel,
      expected: 'a relative path inside the uploaded folder (no .., no leading /)',
    });
  return parts.join('/');
}

/** A name used as one folder of the upload tree (a valid name, no separators, not `.`/`..`). */
function segment(kind: string, v: string): string {
  const name = checkName(kind, v);
  if (/[\\/]/.test(name) || name === '.' || name === '..')
    throw createError('INVALID_ARGUMENT', { name: kind, value: v, expected: 'a name without / or \\' });
  return name;
}

/** The team operations of an open palace (its team store is created on first use). */
export async function openTeam(palace: Palace & { internals: PalaceInternals }): Promise<Team> {
  const store = await palace.internals.teamStore();
  const clock = palace.internals.clock;
  return {
    createToken: (input) => createToken(store, input, clock),
    listTokens: () => store.listTokens(),
    revokeToken: (id) => revokeToken(store, id, clock),
    authenticate: (header) => authenticate(store, header),
    guard: (p) => guardPalace(palace, p, store, clock),
    memorySync: (p, req) => applyMemorySync(store, p, req, clock),
    async mineUpload(p, u) {
      const wing = segment('wing', u.wing);
      requireRight(p, wing, 'write');
      const root = segment('upload folder', u.root);
      const dir = join(palace.home, 'uploads', wing, root);
      for (const f of u.files) writeFileAtomic(join(dir, uploadPath(f.path)), f.text);
      const r = await palace.mine(dir, { wing, mode: 'projects' });
      await auditor(store, p, clock)('mine.upload', wing, root, {
        files: u.files.length,
        drawersAdded: r.drawersAdded,
      });
      return r;
    },
    auditLog: (opts) => store.listAudit(opts),
    async audit(p, opts = {}) {
      if (opts.wing !== undefined) requireRight(p, opts.wing, 'admin');
      else if (!hasRight(p, '*', 'admin')) {
        const mine = p.grants.filter((g) => g.right === 'admin').map((g) => g.wing);
        if (!mine.length) requireRight(p, '*', 'admin');
        const out = await store.listAudit({ ...opts, limit: 10_000 });
        return out.filter((e) => mine.includes(e.wing)).slice(0, opts.limit ?? 100);
      }
      return store.listAudit(opts);
    },
  };
}
