/**
 * @module team/access
 * Tokens and rights of the team server. A token is `loci_` + 32 random bytes (base64url); only its
 * SHA-256 is stored, so a stolen database reveals no usable token. Rights are per wing: `read`
 * (search, get, pull memories), `write` (add, mine uploads, push memories, state facts), `admin`
 * (delete drawers, read the audit log, server-side mining). A grant on `*` covers every wing and
 * the knowledge graph, which spans wings: reading the graph needs `read` on `*`, changing it
 * `write` on `*`.
 */
import { randomBytes } from 'node:crypto';
import { isoAt, type Clock } from '../core/clock.js';
import { createError } from '../core/errors.js';
import { sha256 } from '../core/hash.js';
import { checkName } from '../palace/index.js';
import { TEAM_RIGHTS, type TeamGrant, type TeamRight, type TeamStore, type TeamToken } from '../store/index.js';

/** Who is calling: the user of a live token and its grants. */
export interface TeamPrincipal {
  user: string;
  tokenId: string;
  grants: readonly TeamGrant[];
}

const rank = (r: TeamRight) => TEAM_RIGHTS.indexOf(r);

/** Parses `wing:right` (e.g. `loci:write`, `*:read`); throws INVALID_ARGUMENT. */
export function parseGrant(raw: string): TeamGrant {
  const at = raw.lastIndexOf(':');
  const wing = at > 0 ? raw.slice(0, at).trim() : '';
  const right = raw.slice(at + 1).trim() as TeamRight;
  if (!wing || !TEAM_RIGHTS.includes(right))
    throw createError('INVALID_ARGUMENT', {
      name: 'grant',
      value: raw,
      expected: 'WING:RIGHT with RIGHT one of read, write, admin (WING may be * for every wing), e.g. loci:write',
    });
  return { wing: wing === '*' ? '*' : checkName('wing', wing), right };
}

/** True when `p` holds at least `right` on `wing` (a grant on `*` counts for every wing). */
export function hasRight(p: TeamPrincipal, wing: string, right: TeamRight): boolean {
  return p.grants.some((g) => (g.wing === '*' || g.wing === wing) && rank(g.right) >= rank(right));
}

/** Throws TEAM_FORBIDDEN unless `p` holds `right` on `wing`. */
export function requireRight(p: TeamPrincipal, wing: string, right: TeamRight): void {
  if (!hasRight(p, wing, right)) throw createError('TEAM_FORBIDDEN', { user: p.user, wing, right });
}

/** The wings `p` may read: `'*'` for all, else the named ones. */
export function readableWings(p: TeamPrincipal): '*' | string[] {
  if (hasRight(p, '*', 'read')) return '*';
  return [...new Set(p.grants.map((g) => g.wing))].sort();
}

/** Creates a token for `user`; the secret is returned once and never stored. */
export async function createToken(
  store: TeamStore,
  input: { user: string; grants: readonly TeamGrant[] },
  clock: Clock,
): Promise<{ token: string; record: TeamToken }> {
  const user = input.user.trim();
  if (!user || /[\s\0]/.test(user) || user.length > 100)
    throw createError('INVALID_ARGUMENT', {
      name: '--user',
      value: input.user,
      expected: 'a user name without spaces, at most 100 characters',
    });
  if (input.grants.length === 0)
    throw createError('INVALID_ARGUMENT', {
      name: '--grant',
      value: [],
      expected: 'at least one WING:RIGHT grant, e.g. --grant loci:write',
    });
  const token = `loci_${randomBytes(32).toString('base64url')}`;
  const record: TeamToken = {
    id: `tok_${randomBytes(6).toString('hex')}`,
    user,
    hash: sha256(token),
    grants: [...input.grants],
    createdAt: isoAt(clock.now()),
    revokedAt: null,
  };
  await store.addToken(record);
  return { token, record };
}

/**
 * The principal of an `Authorization: Bearer <token>` header, or undefined (missing, malformed,
 * unknown or revoked). Lookup is by hash, so no secret is compared character by character.
 */
export async function authenticate(store: TeamStore, header: string | undefined): Promise<TeamPrincipal | undefined> {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!m) return undefined;
  const t = await store.tokenByHash(sha256(m[1]!));
  if (!t || t.revokedAt !== null) return undefined;
  return { user: t.user, tokenId: t.id, grants: t.grants };
}

/** Revokes a token by id; throws TEAM_TOKEN_NOT_FOUND when no live token has it. */
export async function revokeToken(store: TeamStore, id: string, clock: Clock): Promise<void> {
  if (!(await store.revokeToken(id, isoAt(clock.now())))) throw createError('TEAM_TOKEN_NOT_FOUND', { id });
}
