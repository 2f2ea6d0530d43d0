/**
 * @module store/memory/memory-store
 * The in-memory reference adapter of the drawer store: the port's specification in executable
 * form and the store of unit tests. BM25 uses FTS5's formula (k1 = 1.2, b = 0.75, idf floor
 * 1e-6) so both adapters rank alike.
 */
import type {
  Drawer,
  DrawerInput,
  LexicalHit,
  ListOptions,
  MemoryStore,
  RoomSize,
  SourceStamp,
  SourceState,
  UsageRecord,
} from '../ports.js';
import { materialize, matchesFilter } from '../shared.js';

const K1 = 1.2;
const B = 0.75;

interface Entry {
  drawer: Drawer;
  indexExtra: string | undefined;
  tf: Map<string, number>;
  len: number;
  seq: number;
}

function clone<T>(v: T): T {
  return structuredClone(v);
}

/** Creates an empty in-memory drawer store. */
export function createMemoryStore(opts: { now?: () => number } = {}): MemoryStore {
  const now = opts.now ?? Date.now;
  const byId = new Map<string, Entry>();
  const postings = new Map<string, Set<string>>();
  const sources = new Map<string, SourceState>();
  let totalLen = 0;
  const meta = new Map<string, string>();
  const usage = new Map<string, UsageRecord>();
  /** Feed position of the next drawer (from 1, never reused, like SQLite's AUTOINCREMENT rid). */
  let seq = 1;

  function index(e: Entry, search: string): void {
    const toks = search.length ? search.split(' ') : [];
    e.len = toks.length;
    totalLen += e.len;
    for (const t of toks) e.tf.set(t, (e.tf.get(t) ?? 0) + 1);
    for (const t of e.tf.keys()) {
      let p = postings.get(t);
      if (!p) postings.set(t, (p = new Set()));
      p.add(e.drawer.id);
    }
  }

  function unindex(e: Entry): void {
    totalLen -= e.len;
    for (const t of e.tf.keys()) {
      const p = postings.get(t);
      p?.delete(e.drawer.id);
      if (p && p.size === 0) postings.delete(t);
    }
    e.tf.clear();
    e.len = 0;
  }

  function insert(input: DrawerInput, filedAt: string): { id: string; added: boolean } {
    const m = materialize(input, filedAt);
    if (byId.has(m.id)) return { id: m.id, added: false };
    const { search, ...drawer } = m;
    const e: Entry = { drawer: clone(drawer), indexExtra: input.indexExtra, tf: new Map(), len: 0, seq: seq++ };
    byId.set(m.id, e);
    index(e, search);
    return { id: m.id, added: true };
  }

  /** Rewrites an existing drawer's placement and bookkeeping from `m`; true when a visible field changed. */
  function refresh(old: Entry, m: ReturnType<typeof materialize>): boolean {
    const d = old.drawer;
    const visible =
      d.wing !== m.wing ||
      d.room !== m.room ||
      d.hall !== m.hall ||
      d.chunkIndex !== m.chunkIndex ||
      d.lineStart !== m.lineStart ||
      d.lineEnd !== m.lineEnd ||
      d.contentDate !== m.contentDate;
    Object.assign(d, {
      wing: m.wing,
      room: m.room,
      hall: m.hall,
      chunkIndex: m.chunkIndex,
      lineStart: m.lineStart,
      lineEnd: m.lineEnd,
      contentDate: m.contentDate,
      metadata: clone(m.metadata),
      sourceHash: m.sourceHash,
      sourceMtime: m.sourceMtime,
    });
    return visible;
  }

  function remove(id: string): boolean {
    const e = byId.get(id);
    if (!e) return false;
    unindex(e);
    byId.delete(id);
    return true;
  }

  function sorted(list: Entry[], order: NonNullable<ListOptions['order']>): Entry[] {
    const cmp: Record<typeof order, (a: Entry, b: Entry) => number> = {
      filed: (a, b) =>
        a.drawer.filedAt < b.drawer.filedAt ? 1 : a.drawer.filedAt > b.drawer.filedAt ? -1 : b.seq - a.seq,
      date: (a, b) => {
        const x = a.drawer.contentDate;
        const y = b.drawer.contentDate;
        if (x === y) return b.seq - a.seq;
        if (x === null) return 1;
        if (y === null) return -1;
        return x < y ? 1 : -1;
      },
      source: (a, b) => {
        const x = a.drawer.source ?? '';
        const y = b.drawer.source ?? '';
        if (x !== y) return x < y ? -1 : 1;
        return a.drawer.chunkIndex - b.drawer.chunkIndex || a.seq - b.seq;
      },
    };
    return [...list].sort(cmp[order]);
  }

  const bySource = (source: string) =>
    sorted(
      [...byId.values()].filter((e) => e.drawer.source === source),
      'source',
    );

  const store: MemoryStore = {
    kind: 'memory',
    supports: { vectors: false, multiProcess: false, persistent: false },
    async init() {},

    async put(drawers) {
      const filedAt = new Date(now()).toISOString();
      // Validate everything first so the batch is atomic.
      for (const d of drawers) materialize(d, filedAt);
      const added: string[] = [];
      const existing: string[] = [];
      for (const d of drawers) {
        const r = insert(d, filedAt);
        (r.added ? added : existing).push(r.id);
      }
      return { added, existing };
    },

    async get(id) {
      const e = byId.get(id);
      return e ? clone(e.drawer) : undefined;
    },

    async getMany(ids) {
      return ids.flatMap((id) => {
        const e = byId.get(id);
        return e ? [clone(e.drawer)] : [];
      });
    },

    async update(id, patch) {
      const e = byId.get(id);
      if (!e) return undefined;
      const input: DrawerInput = {
        ...e.drawer,
        indexExtra: e.indexExtra,
        ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)),
        id,
      };
      const { search, ...drawer } = materialize(input, e.drawer.filedAt);
      unindex(e);
      e.drawer = clone(drawer);
      e.indexExtra = input.indexExtra;
      index(e, search);
      return clone(e.drawer);
    },

    async delete(ids) {
      let n = 0;
      for (const id of ids) if (remove(id)) n++;
      return n;
    },

    async list(filter, o = {}) {
      const all = sorted(
        [...byId.values()].filter((e) => matchesFilter(e.drawer, filter)),
        o.order ?? 'filed',
      );
      const offset = o.offset ?? 0;
      const limit = o.limit ?? 20;
      return { drawers: all.slice(offset, offset + limit).map((e) => clone(e.drawer)), total: all.length };
    },

    async count(filter) {
      let n = 0;
      for (const e of byId.values()) if (matchesFilter(e.drawer, filter)) n++;
      return n;
    },

    async countBy(field, filter) {
      const counts = new Map<string, number>();
      for (const e of byId.values()) {
        if (!matchesFilter(e.drawer, filter)) continue;
        const k = e.drawer[field] ?? '';
        counts.set(k, (counts.get(k) ?? 0) + 1);
      }
      const out: Record<string, number> = {};
      for (const [k, n] of [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) out[k] = n;
      return out;
    },

    async countRooms(filter) {
      return (await store.roomSizes(filter)).map(({ wing, room, count }) => ({ wing, room, count }));
    },

    async roomSizes(filter) {
      const rooms = new Map<string, RoomSize>();
      for (const e of byId.values()) {
        if (!matchesFilter(e.drawer, filter)) continue;
        const k = `${e.drawer.wing}\0${e.drawer.room}`;
        const c = rooms.get(k) ?? { wing: e.drawer.wing, room: e.drawer.room, count: 0, bytes: 0 };
        c.count++;
        c.bytes += Buffer.byteLength(e.drawer.text, 'utf8');
        rooms.set(k, c);
      }
      return [...rooms.values()].sort((a, b) =>
        a.wing < b.wing ? -1 : a.wing > b.wing ? 1 : b.count - a.count || (a.room < b.room ? -1 : 1),
      );
    },

    async findByContentHash(hash) {
      return sorted(
        [...byId.values()].filter((e) => e.drawer.contentHash === hash),
        'source',
      )
        .sort((a, b) => a.seq - b.seq)
        .map((e) => clone(e.drawer));
    },

    async neighbours(id, n) {
      const e = byId.get(id);
      if (!e) return [];
      if (e.drawer.source === null) return [clone(e.drawer)];
      const ci = e.drawer.chunkIndex;
      return bySource(e.drawer.source)
        .filter((x) => x.drawer.chunkIndex >= ci - n && x.drawer.chunkIndex <= ci + n)
        .map((x) => clone(x.drawer));
    },

    async searchLexical(tokens, filter, limit) {
      if (tokens.length === 0 || limit <= 0) return [];
      const N = byId.size;
      const avgdl = N ? totalLen / N : 0;
      const scores = new Map<string, number>();
      for (const t of new Set(tokens)) {
        const p = postings.get(t);
        if (!p) continue;
        let idf = Math.log((N - p.size + 0.5) / (p.size + 0.5));
        if (idf <= 0) idf = 1e-6;
        for (const id of p) {
          const e = byId.get(id)!;
          const f = e.tf.get(t)!;
          const s = (idf * (f * (K1 + 1))) / (f + K1 * (1 - B + (B * e.len) / avgdl));
          scores.set(id, (scores.get(id) ?? 0) + s);
        }
      }
      const hits: LexicalHit[] = [];
      for (const [id, score] of scores) {
        const d = byId.get(id)!.drawer;
        if (!matchesFilter(d, filter)) continue;
        hits.push({
          id,
          score,
          wing: d.wing,
          room: d.room,
          hall: d.hall,
          source: d.source,
          chunkIndex: d.chunkIndex,
          contentDate: d.contentDate,
        });
      }
      hits.sort((a, b) => b.score - a.score || byId.get(a.id)!.seq - byId.get(b.id)!.seq);
      return hits.slice(0, limit);
    },

    async replaceSource(state, drawers, o) {
      const cur = sources.get(state.source);
      if (o?.skipIfHash !== undefined && cur && cur.hash === o.skipIfHash && cur.config === state.config) return null;
      const filedAt = new Date(now()).toISOString();
      const items = drawers.map((d) => ({
        input: { ...d, source: state.source },
        m: materialize({ ...d, source: state.source }, filedAt),
      }));
      const existing = new Map(bySource(state.source).map((e) => [e.drawer.id, e]));
      let added = 0;
      let updated = 0;
      const keep = new Set<string>();
      for (const { input, m } of items) {
        keep.add(m.id);
        const old = existing.get(m.id);
        if (!old) {
          if (insert(input, filedAt).added) added++;
          continue;
        }
        if (refresh(old, m)) updated++;
      }
      let removed = 0;
      for (const id of existing.keys()) if (!keep.has(id) && remove(id)) removed++;
      sources.set(state.source, clone(state));
      return { added, updated, removed, ids: items.map((x) => x.m.id) };
    },

    async replaceSources(items) {
      const filedAt = new Date(now()).toISOString();
      for (const it of items) for (const d of it.drawers) materialize({ ...d, source: it.state.source }, filedAt);
      const out = [];
      for (const it of items)
        out.push(
          await store.replaceSource(
            it.state,
            it.drawers,
            it.skipIfHash !== undefined ? { skipIfHash: it.skipIfHash } : undefined,
          ),
        );
      return out;
    },

    async appendSource(state, drawers, fromOffset, opts) {
      if ((sources.get(state.source)?.offset ?? 0) !== fromOffset) return null;
      const filedAt = new Date(now()).toISOString();
      const items = drawers.map((d) => ({
        input: { ...d, source: state.source },
        m: materialize({ ...d, source: state.source }, filedAt),
      }));
      let added = 0;
      let updated = 0;
      let removed = 0;
      const ids: string[] = [];
      for (const { input, m } of items) {
        ids.push(m.id);
        const old = byId.get(m.id);
        if (!old) {
          if (insert(input, filedAt).added) added++;
          continue;
        }
        if (old.drawer.source !== state.source) continue;
        if (refresh(old, m)) updated++;
      }
      const written = new Set(ids);
      for (const id of opts?.remove ?? []) {
        if (!written.has(id) && byId.get(id)?.drawer.source === state.source && remove(id)) removed++;
      }
      sources.set(state.source, clone(state));
      return { added, updated, removed, ids };
    },

    async getSource(source) {
      const s = sources.get(source);
      return s ? clone(s) : undefined;
    },

    async listSources(o = {}) {
      return [...sources.values()]
        .filter((s) => (o.root === undefined || s.root === o.root) && (o.kind === undefined || s.kind === o.kind))
        .sort((a, b) => (a.source < b.source ? -1 : 1))
        .map(clone);
    },

    async listSourceStamps(under) {
      const base = under.replace(/[\\/]+$/, '');
      const out: SourceStamp[] = [];
      for (const s of sources.values()) {
        const c = s.source.charCodeAt(base.length);
        if (s.source.startsWith(base) && (s.source.length === base.length || c === 47 || c === 92))
          out.push({
            source: s.source,
            wing: s.wing,
            kind: s.kind,
            size: s.size,
            mtimeMs: s.mtimeMs,
            config: s.config,
          });
      }
      return out;
    },

    async touchSource(state) {
      sources.set(state.source, clone(state));
    },

    async removeSource(source) {
      let n = 0;
      for (const e of bySource(source)) if (remove(e.drawer.id)) n++;
      sources.delete(source);
      return n;
    },

    async feedAfter(after, limit) {
      const all = [...byId.values()].filter((e) => e.seq > after).sort((a, b) => a.seq - b.seq);
      return all.slice(0, limit ?? all.length).map((e) => ({ seq: e.seq, id: e.drawer.id }));
    },

    async feedRange(after, upTo) {
      return [...byId.values()]
        .filter((e) => e.seq > after && e.seq <= upTo)
        .sort((a, b) => a.seq - b.seq)
        .map(({ drawer: d }) =>
          clone({
            id: d.id,
            wing: d.wing,
            room: d.room,
            source: d.source,
            contentDate: d.contentDate,
            metadata: d.metadata,
            text: d.text,
          }),
        );
    },

    async getMeta(key) {
      return meta.get(key);
    },

    async casMeta(key, expected, value) {
      if (meta.get(key) !== expected) return false;
      meta.set(key, value);
      return true;
    },

    async recordUsage(items, at) {
      const keys = [...new Set(items)];
      for (const k of keys) usage.set(k, { item: k, uses: (usage.get(k)?.uses ?? 0) + 1, lastUsed: at });
      return keys.length;
    },

    async readUsage(items) {
      return [...new Set(items)].flatMap((k) => {
        const r = usage.get(k);
        return r ? [{ ...r }] : [];
      });
    },

    async topUsage(prefix, limit) {
      return [...usage.values()]
        .filter((r) => r.item.startsWith(prefix))
        .sort((a, b) => b.uses - a.uses || (a.lastUsed < b.lastUsed ? 1 : a.lastUsed > b.lastUsed ? -1 : 0))
        .slice(0, limit)
        .map((r) => ({ ...r }));
    },

    async stats() {
      return {
        drawers: byId.size,
        sources: sources.size,
        bytes: 0,
        schemaVersion: 0,
        lexicalIndex: 'ok',
        location: 'memory',
      };
    },

    async close() {},

    async dangerouslyClearAll() {
      byId.clear();
      postings.clear();
      sources.clear();
      meta.clear();
      usage.clear();
      totalLen = 0;
    },
  };
  return store;
}
