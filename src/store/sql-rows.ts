/**
 * @module store/sql-rows
 * The row shapes the SQL adapters (SQLite, PostgreSQL) share — drawers, sources, facts, tunnels,
 * team tokens and audit, as their tables store them — and their mapping to the port records. Pure: no driver, no SQL.
 */
import type { EntityRow, Fact, FactRow } from './graph-port.js';
import type { Drawer, DrawerInput, DrawerPatch, SourceState } from './ports.js';
import type { DrawerRowInput } from './shared.js';
import type { TeamAuditEntry, TeamGrant, TeamToken } from './team-port.js';
import type { Tunnel } from './tunnel-port.js';

/** A drawer row (`SELECT *` of table `drawers`, without a search column). */
export interface DrawerRow {
  rid: number;
  id: string;
  wing: string;
  room: string;
  hall: string | null;
  source: string | null;
  source_hash: string | null;
  source_mtime: number | null;
  chunk_index: number;
  line_start: number | null;
  line_end: number | null;
  content_date: string | null;
  filed_at: string;
  added_by: string;
  content_hash: string;
  metadata: string;
  index_extra: string | null;
  text: string;
}

/** The columns of a stored drawer that replacing its source compares with the new version. */
export type ComparedRow = Omit<DrawerRow, 'filed_at' | 'added_by' | 'content_hash' | 'index_extra' | 'text'>;

/**
 * How a stored drawer differs from its new version: `visible` (wing, room, hall, position, lines or
 * date changed: the drawer counts as updated) and `dirty` (anything stored changed, bookkeeping too).
 */
export function compareRow(
  o: Omit<ComparedRow, 'source' | 'id'>,
  m: DrawerRowInput,
): { visible: boolean; dirty: boolean } {
  const visible =
    o.wing !== m.wing ||
    o.room !== m.room ||
    o.hall !== m.hall ||
    o.chunk_index !== m.chunkIndex ||
    o.line_start !== m.lineStart ||
    o.line_end !== m.lineEnd ||
    o.content_date !== m.contentDate;
  const dirty =
    visible || o.metadata !== m.metadataJson || o.source_hash !== m.sourceHash || o.source_mtime !== m.sourceMtime;
  return { visible, dirty };
}

/** A row of table `sources`. */
export interface SourceRow {
  source: string;
  wing: string;
  kind: string;
  root: string | null;
  size: number;
  mtime_ms: number;
  hash: string;
  offset: number;
  prefix_hash: string | null;
  config: string;
  state: string;
  mined_at: string;
}

/** Maps a drawer row to a {@link Drawer}. */
export function toDrawer(r: DrawerRow): Drawer {
  return {
    id: r.id,
    wing: r.wing,
    room: r.room,
    hall: r.hall,
    source: r.source,
    sourceHash: r.source_hash,
    sourceMtime: r.source_mtime,
    chunkIndex: r.chunk_index,
    lineStart: r.line_start,
    lineEnd: r.line_end,
    contentDate: r.content_date,
    filedAt: r.filed_at,
    addedBy: r.added_by,
    contentHash: r.content_hash,
    metadata: JSON.parse(r.metadata) as Record<string, unknown>,
    text: r.text,
  };
}

/** Maps a source row to a {@link SourceState}. */
export function toSource(r: SourceRow): SourceState {
  return {
    source: r.source,
    wing: r.wing,
    kind: r.kind,
    root: r.root,
    size: r.size,
    mtimeMs: r.mtime_ms,
    hash: r.hash,
    offset: r.offset,
    prefixHash: r.prefix_hash,
    config: r.config,
    state: JSON.parse(r.state) as Record<string, unknown>,
    minedAt: r.mined_at,
  };
}

/** A row of table `kg_facts`. */
export interface SqlFactRow {
  rid: number;
  id: string;
  subject: string;
  predicate: string;
  object: string;
  object_is_literal: number;
  valid_from: string | null;
  valid_to: string | null;
  recorded_at: string;
  confidence: number;
}

/** A fact row with its names and sources joined (`sources`: a JSON array, as text or parsed). */
export interface SqlFact extends SqlFactRow {
  subject_name: string;
  object_name: string;
  sources: string | string[];
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Maps a joined fact row to a {@link Fact} (sources sorted). */
export function toFact(r: SqlFact): Fact {
  const sources = typeof r.sources === 'string' ? (JSON.parse(r.sources) as string[]) : [...r.sources];
  return {
    id: r.id,
    subject: r.subject,
    subjectName: r.subject_name,
    predicate: r.predicate,
    object: r.object,
    objectName: r.object_name,
    literal: r.object_is_literal === 1,
    validFrom: r.valid_from,
    validTo: r.valid_to,
    recordedAt: r.recorded_at,
    confidence: r.confidence,
    sources: sources.sort(cmp),
  };
}

/** Maps a fact row to a {@link FactRow}. */
export function toFactRow(r: SqlFactRow): FactRow {
  return {
    seq: r.rid,
    id: r.id,
    subject: r.subject,
    predicate: r.predicate,
    object: r.object,
    literal: r.object_is_literal === 1,
    validFrom: r.valid_from,
    validTo: r.valid_to,
    recordedAt: r.recorded_at,
    confidence: r.confidence,
  };
}

/** A row of table `kg_entities`. */
export interface SqlEntity {
  id: string;
  name: string;
  type: string;
  properties: string;
  created_at: string;
  updated_at: string;
}

/** Maps an entity row to an {@link EntityRow}. */
export function toEntityRow(r: SqlEntity): EntityRow {
  return {
    id: r.id,
    name: r.name,
    type: r.type,
    properties: JSON.parse(r.properties) as Record<string, unknown>,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** A row of table `tunnels`. */
export interface TunnelRow {
  id: string;
  source_wing: string;
  source_room: string;
  source_drawer: string | null;
  target_wing: string;
  target_room: string;
  target_drawer: string | null;
  label: string;
  created_at: string;
}

/** Maps a tunnel row to a {@link Tunnel}. */
export function toTunnel(r: TunnelRow): Tunnel {
  return {
    id: r.id,
    source: { wing: r.source_wing, room: r.source_room, drawerId: r.source_drawer },
    target: { wing: r.target_wing, room: r.target_room, drawerId: r.target_drawer },
    label: r.label,
    createdAt: r.created_at,
  };
}

/** A row of `team_tokens`. */
export interface TokenRow {
  id: string;
  user: string;
  hash: string;
  grants: string;
  created_at: string;
  revoked_at: string | null;
}

/** A row of `team_audit` (`seq` may arrive as a string from PostgreSQL's bigint). */
export interface AuditRow {
  seq: number;
  at: string;
  user: string;
  action: string;
  wing: string;
  target: string;
  details: string;
}

/** A token row as the port's record. */
export const toToken = (r: TokenRow): TeamToken => ({
  id: r.id,
  user: r.user,
  hash: r.hash,
  grants: JSON.parse(r.grants) as TeamGrant[],
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

/** An audit row as the port's record. */
export const toAudit = (r: AuditRow): TeamAuditEntry => ({
  ...r,
  seq: Number(r.seq),
  details: JSON.parse(r.details) as Record<string, unknown>,
});

/**
 * A drawer row with a patch applied, as the input the adapters re-materialise (`update`): fields
 * the patch leaves undefined keep their stored values, and the id never changes.
 */
export function patchedDrawer(row: DrawerRow, patch: DrawerPatch): { cur: Drawer; input: DrawerInput } {
  const cur = toDrawer(row);
  const input: DrawerInput = {
    ...cur,
    indexExtra: row.index_extra ?? undefined,
    ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)),
    id: cur.id,
  };
  return { cur, input };
}
