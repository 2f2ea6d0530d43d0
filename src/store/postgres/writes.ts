/**
 * @module store/postgres/writes
 * The multi-row writes of the PostgreSQL drawer store, each a constant number of statements however
 * many rows it touches (arrays bound as parameters and `unnest`ed): insert drawers (idempotent on
 * the id), refresh the bookkeeping of kept drawers, upsert source states, and the replacement of
 * sources that mining runs. Callers hold the palace's write transaction (`withWriteTx`).
 */
import type { DrawerInput, ReplaceResult, SourceState } from '../ports.js';
import { materializeRow, type DrawerRowInput } from '../shared.js';
import { compareRow, type ComparedRow } from '../sql-rows.js';
import type { Queryable } from './connect.js';
import { addTermStats, deleteRids, indexText, type IndexedText } from './rows.js';

const INSERT_SQL = `INSERT INTO drawers (id, wing, room, hall, source, source_hash, source_mtime, chunk_index,
    line_start, line_end, content_date, filed_at, added_by, content_hash, metadata, index_extra, text, search, dl)
  SELECT id, wing, room, hall, source, source_hash, source_mtime, chunk_index, line_start, line_end, content_date,
    filed_at, added_by, content_hash, metadata, index_extra, text, search, dl
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::float8[], $8::int[],
    $9::int[], $10::int[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[],
    $18::tsvector[], $19::int[]) WITH ORDINALITY
    AS u(id, wing, room, hall, source, source_hash, source_mtime, chunk_index, line_start, line_end, content_date,
      filed_at, added_by, content_hash, metadata, index_extra, text, search, dl, ord)
  ORDER BY ord
  ON CONFLICT (id) DO NOTHING RETURNING id`;

/** A row ready to insert: the materialised drawer, its index extra and its indexed search column. */
interface NewRow {
  m: DrawerRowInput;
  indexExtra: string | null;
  ix: IndexedText;
}

/** Materialises an input (validated) for {@link insertRows}. */
export function newRow(input: DrawerInput, filedAt: string, source = input.source): NewRow {
  const m = materializeRow(input, filedAt, source);
  return { m, indexExtra: input.indexExtra ?? null, ix: indexText(m.search) };
}

/**
 * Inserts rows in order (the first of two with one id wins); ids already stored are left as they
 * are. Returns the rows actually added.
 */
export async function insertRows(c: Queryable, rows: readonly NewRow[]): Promise<Set<NewRow>> {
  const seen = new Set<string>();
  const fresh = rows.filter((r) => !seen.has(r.m.id) && seen.add(r.m.id));
  if (fresh.length === 0) return new Set<NewRow>();
  const col = <T>(f: (r: NewRow) => T) => fresh.map(f);
  const res = await c.query(INSERT_SQL, [
    col((r) => r.m.id),
    col((r) => r.m.wing),
    col((r) => r.m.room),
    col((r) => r.m.hall),
    col((r) => r.m.source),
    col((r) => r.m.sourceHash),
    col((r) => r.m.sourceMtime),
    col((r) => r.m.chunkIndex),
    col((r) => r.m.lineStart),
    col((r) => r.m.lineEnd),
    col((r) => r.m.contentDate),
    col((r) => r.m.filedAt),
    col((r) => r.m.addedBy),
    col((r) => r.m.contentHash),
    col((r) => r.m.metadataJson),
    col((r) => r.indexExtra),
    col((r) => r.m.text),
    col((r) => r.ix.vector),
    col((r) => r.ix.dl),
  ]);
  const ids = new Set((res.rows as { id: string }[]).map((r) => r.id));
  const added = new Set(fresh.filter((r) => ids.has(r.m.id)));
  await addTermStats(
    c,
    [...added].map((r) => r.ix),
  );
  return added;
}

/** Columns selected as {@link ComparedRow}. */
export const COMPARED_COLS =
  'rid, id, source, wing, room, hall, source_hash, source_mtime, chunk_index, line_start, line_end, content_date, ' +
  'metadata';

/** Writes the bookkeeping columns of kept drawers (one statement). */
async function refreshRows(c: Queryable, rows: readonly { rid: number; m: DrawerRowInput }[]): Promise<void> {
  if (rows.length === 0) return;
  const col = <T>(f: (r: { rid: number; m: DrawerRowInput }) => T) => rows.map(f);
  await c.query(
    `UPDATE drawers d SET wing = u.wing, room = u.room, hall = u.hall, source_hash = u.source_hash,
       source_mtime = u.source_mtime, chunk_index = u.chunk_index, line_start = u.line_start, line_end = u.line_end,
       content_date = u.content_date, metadata = u.metadata
     FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::float8[], $7::int[], $8::int[],
       $9::int[], $10::text[], $11::text[])
       AS u(rid, wing, room, hall, source_hash, source_mtime, chunk_index, line_start, line_end, content_date, metadata)
     WHERE d.rid = u.rid`,
    [
      col((r) => r.rid),
      col((r) => r.m.wing),
      col((r) => r.m.room),
      col((r) => r.m.hall),
      col((r) => r.m.sourceHash),
      col((r) => r.m.sourceMtime),
      col((r) => r.m.chunkIndex),
      col((r) => r.m.lineStart),
      col((r) => r.m.lineEnd),
      col((r) => r.m.contentDate),
      col((r) => r.m.metadataJson),
    ],
  );
}

/** Inserts or updates source states (distinct sources, one statement). */
export async function writeSources(c: Queryable, states: readonly SourceState[]): Promise<void> {
  if (states.length === 0) return;
  const col = <T>(f: (s: SourceState) => T) => states.map(f);
  await c.query(
    `INSERT INTO sources
       (source, wing, kind, root, size, mtime_ms, hash, "offset", prefix_hash, config, state, mined_at)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::float8[], $6::float8[], $7::text[],
       $8::float8[], $9::text[], $10::text[], $11::text[], $12::text[])
     ON CONFLICT (source) DO UPDATE SET wing = excluded.wing, kind = excluded.kind, root = excluded.root,
       size = excluded.size, mtime_ms = excluded.mtime_ms, hash = excluded.hash, "offset" = excluded."offset",
       prefix_hash = excluded.prefix_hash, config = excluded.config, state = excluded.state,
       mined_at = excluded.mined_at`,
    [
      col((s) => s.source),
      col((s) => s.wing),
      col((s) => s.kind),
      col((s) => s.root),
      col((s) => s.size),
      col((s) => s.mtimeMs),
      col((s) => s.hash),
      col((s) => s.offset),
      col((s) => s.prefixHash),
      col((s) => s.config),
      col((s) => JSON.stringify(s.state)),
      col((s) => s.minedAt),
    ],
  );
}

/** What upserting one source's drawers decided, before anything is written. */
interface Plan {
  inserts: NewRow[];
  refresh: { rid: number; m: DrawerRowInput }[];
  ids: string[];
  updated: number;
}

/**
 * Plans the drawers of `source`: a drawer whose id the source holds (`old`) is kept (its visible
 * fields changed → `updated`; bookkeeping-only changes are written silently), others are inserted.
 */
export function planUpserts(
  drawers: readonly DrawerInput[],
  source: string,
  old: (id: string) => ComparedRow | undefined,
  filedAt: string,
): Plan {
  const plan: Plan = { inserts: [], refresh: [], ids: [], updated: 0 };
  for (const input of drawers) {
    const m = materializeRow(input, filedAt, source);
    plan.ids.push(m.id);
    const o = old(m.id);
    if (!o) {
      plan.inserts.push({ m, indexExtra: input.indexExtra ?? null, ix: indexText(m.search) });
      continue;
    }
    const { visible, dirty } = compareRow(o, m);
    if (dirty) plan.refresh.push({ rid: o.rid, m });
    if (visible) plan.updated++;
  }
  return plan;
}

/** Writes a plan; returns how many drawers were added. */
export async function applyPlan(c: Queryable, plan: Plan): Promise<Set<NewRow>> {
  const added = await insertRows(c, plan.inserts);
  await refreshRows(c, plan.refresh);
  return added;
}

/** One `replaceSource` request. */
export interface ReplaceItem {
  state: SourceState;
  drawers: readonly DrawerInput[];
  skipIfHash?: string | undefined;
}

/**
 * Replaces sources that are pairwise distinct, in a constant number of statements: reads their
 * states and drawers, plans each, then inserts, refreshes, deletes and writes the states in bulk.
 */
export async function replaceDistinct(
  c: Queryable,
  items: readonly ReplaceItem[],
  filedAt: string,
): Promise<(ReplaceResult | null)[]> {
  const names = items.map((it) => it.state.source);
  const skips = items.filter((it) => it.skipIfHash !== undefined).map((it) => it.state.source);
  const cur = new Map<string, { hash: string; config: string }>();
  if (skips.length) {
    const r = await c.query('SELECT source, hash, config FROM sources WHERE source = ANY($1::text[])', [skips]);
    for (const row of r.rows as { source: string; hash: string; config: string }[]) cur.set(row.source, row);
  }
  const live = items.filter((it) => {
    const s = it.skipIfHash === undefined ? undefined : cur.get(it.state.source);
    return !(s && s.hash === it.skipIfHash && s.config === it.state.config);
  });
  const bySource = new Map<string, Map<string, ComparedRow>>();
  if (live.length) {
    const r = await c.query(`SELECT ${COMPARED_COLS} FROM drawers WHERE source = ANY($1::text[])`, [
      live.map((it) => it.state.source),
    ]);
    for (const row of r.rows as ComparedRow[]) {
      let m = bySource.get(row.source!);
      if (!m) bySource.set(row.source!, (m = new Map()));
      m.set(row.id, row);
    }
  }
  const plans = new Map<string, { plan: Plan; removed: number[] }>();
  const all: Plan = { inserts: [], refresh: [], ids: [], updated: 0 };
  const gone: number[] = [];
  for (const it of live) {
    const existing = bySource.get(it.state.source) ?? new Map<string, ComparedRow>();
    const plan = planUpserts(it.drawers, it.state.source, (id) => existing.get(id), filedAt);
    const keep = new Set(plan.ids);
    const removed = [...existing.values()].filter((r) => !keep.has(r.id)).map((r) => r.rid);
    plans.set(it.state.source, { plan, removed });
    all.inserts.push(...plan.inserts);
    all.refresh.push(...plan.refresh);
    gone.push(...removed);
  }
  const added = await applyPlan(c, all);
  await deleteRids(c, gone);
  await writeSources(
    c,
    live.map((it) => it.state),
  );
  return names.map((name) => {
    const p = plans.get(name);
    if (!p) return null;
    const n = p.plan.inserts.filter((r) => added.has(r)).length;
    return { added: n, updated: p.plan.updated, removed: p.removed.length, ids: p.plan.ids };
  });
}
