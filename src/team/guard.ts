/**
 * @module team/guard
 * The palace as one team member may use it: {@link guardPalace} wraps an open palace so that every
 * call checks the caller's rights on the wing it touches (TEAM_FORBIDDEN otherwise) and every write
 * is appended to the audit log (who, what, when, which wing) after it succeeded. The team server
 * hands this object to the MCP tools and to its JSON API, so both enforce the same rules.
 *
 * Reads are narrowed rather than refused where a caller may see part of the answer: a search
 * without a wing searches the readable wings, listings and status count readable wings only.
 */
import { isoAt, type Clock } from '../core/clock.js';
import type { Palace, PalaceGraph } from '../palace/index.js';
import { DIARY_WING } from '../palace/index.js';
import type { Drawer, TeamRight, TeamStore } from '../store/index.js';
import { hasRight, readableWings, requireRight, type TeamPrincipal } from './access.js';

/** Graph and tunnel methods that change data (everything else reads). */
const GRAPH_WRITES = new Set(['upsertEntity', 'addFact', 'invalidate', 'apply', 'applyMany', 'create', 'delete']);
const NEVER = new Set(['dangerouslyClearAll', 'close']);

/** Appends one audit entry for `p`. */
export function auditor(team: TeamStore, p: TeamPrincipal, clock: Clock) {
  return (action: string, wing: string, target: string, details: Record<string, unknown> = {}) =>
    team.appendAudit({ at: isoAt(clock.now()), user: p.user, action, wing, target, details });
}

/** `obj` with its write methods checked against `write` on `*` and audited. */
function guardGraphPart<T extends object>(obj: T, p: TeamPrincipal, audit: ReturnType<typeof auditor>, kind: string) {
  return new Proxy(obj, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function' || typeof prop !== 'string') return v;
      if (NEVER.has(prop)) return async () => requireRight(p, '*', 'admin');
      if (!GRAPH_WRITES.has(prop)) return (v as (...a: unknown[]) => unknown).bind(target);
      return async (...args: unknown[]) => {
        requireRight(p, '*', 'write');
        const r = (await (v as (...a: unknown[]) => Promise<unknown>).apply(target, args)) as { id?: unknown };
        await audit(`${kind}.${prop}`, '*', typeof r?.id === 'string' ? r.id : '', {});
        return r;
      };
    },
  });
}

/** The palace `palace` as `p` may use it (see the module comment). `close()` does not close the palace. */
export function guardPalace(palace: Palace, p: TeamPrincipal, team: TeamStore, clock: Clock): Palace {
  const audit = auditor(team, p, clock);
  const need = (wing: string, right: TeamRight) => requireRight(p, wing, right);
  const readable = readableWings(p);
  const canRead = (wing: string) => hasRight(p, wing, 'read');
  const visible = (d: Drawer | undefined) => {
    if (d) need(d.wing, 'read');
    return d;
  };
  /** A wing filter narrowed to what `p` may read (throws when a named wing is not readable). */
  const wings = (given: string | readonly string[] | undefined): string | readonly string[] | undefined => {
    if (given !== undefined) {
      for (const w of typeof given === 'string' ? [given] : given) need(w, 'read');
      return given;
    }
    if (readable === '*') return undefined;
    if (readable.length === 0) need('*', 'read');
    return readable;
  };
  const counts = (c: Record<string, number>) => Object.fromEntries(Object.entries(c).filter(([w]) => canRead(w)));
  let graph: Promise<PalaceGraph> | undefined;

  return {
    home: palace.home,
    get store(): never {
      need('*', 'admin');
      throw new Error('the drawer store is not reachable through the team server');
    },
    async mine(path, o) {
      need('*', 'admin');
      const r = await palace.mine(path, o);
      await audit('palace.mine', o?.wing ?? '*', path, { drawersAdded: r.drawersAdded });
      return r;
    },
    async mineClaude(o) {
      need('*', 'admin');
      const r = await palace.mineClaude(o);
      await audit('palace.mineClaude', '*', '', { drawersAdded: r.drawersAdded });
      return r;
    },
    async sync(path) {
      need('*', 'admin');
      const r = await palace.sync(path);
      await audit('palace.sync', '*', path ?? '', { drawersRemoved: r.drawersRemoved });
      return r;
    },
    search: async (query, o = {}) => {
      const w = wings(o.wing);
      return palace.search(query, { ...o, ...(w !== undefined ? { wing: w } : {}) });
    },
    get: async (id) => visible(await palace.get(id)),
    async neighbours(id, n) {
      visible(await palace.get(id));
      return palace.neighbours(id, n);
    },
    listWings: async () => counts(await palace.listWings()),
    async listRooms(wing) {
      if (wing !== undefined) need(wing, 'read');
      else if (readable !== '*') need('*', 'read');
      return palace.listRooms(wing);
    },
    async listDrawers(filter = {}, o) {
      const w = wings(filter.wing);
      return palace.listDrawers({ ...filter, ...(w !== undefined ? { wing: w } : {}) }, o);
    },
    async addDrawer(input) {
      need(input.wing, 'write');
      const r = await palace.addDrawer({ ...input, addedBy: input.addedBy ?? p.user });
      if (r.added) await audit('drawer.add', input.wing, r.id, { room: input.room, redactions: r.redactions });
      return r;
    },
    async updateDrawer(id, patch) {
      const before = visible(await palace.get(id));
      if (!before) return undefined;
      need(before.wing, 'write');
      if (patch.wing !== undefined) need(patch.wing, 'write');
      const d = await palace.updateDrawer(id, patch);
      if (d) await audit('drawer.update', d.wing, id, { fields: Object.keys(patch) });
      return d;
    },
    async deleteDrawer(id) {
      const before = visible(await palace.get(id));
      if (!before) return false;
      need(before.wing, 'admin');
      const r = await palace.deleteDrawer(id);
      if (r) await audit('drawer.delete', before.wing, id);
      return r;
    },
    findDuplicates: async (text) => (await palace.findDuplicates(text)).filter((d) => canRead(d.wing)),
    async status() {
      const s = await palace.status();
      const rooms = Object.fromEntries(Object.entries(s.rooms).filter(([w]) => canRead(w)));
      const wingCounts = counts(s.wings);
      const drawers = readable === '*' ? s.drawers : Object.values(wingCounts).reduce((a, b) => a + b, 0);
      const wingBytes = counts(s.textBytes.wings);
      const textBytes = {
        total: readable === '*' ? s.textBytes.total : Object.values(wingBytes).reduce((a, b) => a + b, 0),
        wings: wingBytes,
        rooms: Object.fromEntries(Object.entries(s.textBytes.rooms).filter(([w]) => canRead(w))),
      };
      return { ...s, wings: wingCounts, rooms, drawers, textBytes };
    },
    embed: async (o) => {
      need('*', 'admin');
      return palace.embed(o);
    },
    async diaryWrite(input) {
      need(DIARY_WING, 'write');
      const r = await palace.diaryWrite(input);
      await audit('diary.write', DIARY_WING, r.id, { agent: input.agent });
      return r;
    },
    diaryRead: async (agent, o) => {
      need(DIARY_WING, 'read');
      return palace.diaryRead(agent, o);
    },
    graph: () =>
      (graph ??= (async () => {
        need('*', 'read');
        const g = await palace.graph();
        return {
          ...g,
          graph: guardGraphPart(g.graph, p, audit, 'kg'),
          tunnels: guardGraphPart(g.tunnels, p, audit, 'tunnel'),
          traverse: g.traverse.bind(g),
          sync: g.sync.bind(g),
        };
      })()).catch((e: unknown) => {
        graph = undefined;
        throw e;
      }),
    close: async () => {},
  };
}
