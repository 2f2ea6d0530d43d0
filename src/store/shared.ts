/**
 * @module store/shared
 * Helpers shared by every drawer-store adapter: id derivation, input normalisation, filter
 * semantics (the in-memory adapter mirrors the SQL ones exactly), and the MATCH string builder.
 */
import { sha256, stableId } from '../core/hash.js';
import { createError } from '../core/errors.js';
import { searchColumn } from '../text/index.js';
import type { Drawer, DrawerFilter, DrawerInput } from './ports.js';

/** Default drawer id: content-addressed within its wing/room/source, so re-adding is idempotent. */
function defaultDrawerId(input: DrawerInput, contentHash: string): string {
  return input.source
    ? stableId('d', 'src', input.source, contentHash, input.chunkIndex ?? 0)
    : stableId('d', 'txt', input.wing, input.room, contentHash);
}

const NAME_RE = /^[^\u0000-\u001f/\\]{1,128}$/u;

/** Validates a wing or room name (1–128 chars, no control chars or slashes). */
const checked = new Set<string>();

function checkName(kind: 'wing' | 'room' | 'hall', v: string): void {
  if (checked.has(v)) return; // names repeat across a whole mining run
  if (typeof v !== 'string' || !NAME_RE.test(v) || v.trim() !== v) {
    throw createError('INVALID_ARGUMENT', {
      name: kind,
      value: v,
      expected: '1–128 characters without slashes, control characters or surrounding spaces',
    });
  }
  if (checked.size > 10_000) checked.clear();
  checked.add(v);
}

/** A drawer row as a SQL adapter writes it: metadata serialised, no metadata object. */
export type DrawerRowInput = Omit<Drawer, 'metadata'> & { search: string; metadataJson: string };

/**
 * The row of an input (validated), with its metadata as JSON — `prepared.metadata` when given, so
 * that mining serialises each drawer's metadata once, in the worker. `source` overrides the input's.
 */
export function materializeRow(input: DrawerInput, filedAt: string, source = input.source): DrawerRowInput {
  checkName('wing', input.wing);
  checkName('room', input.room);
  if (input.hall != null) checkName('hall', input.hall);
  if (typeof input.text !== 'string' || input.text.length === 0) {
    throw createError('INVALID_ARGUMENT', { name: 'text', value: input.text, expected: 'non-empty text' });
  }
  const p = input.prepared;
  const contentHash = p?.contentHash ?? sha256(input.text);
  return {
    id: input.id ?? defaultDrawerId(source === input.source ? input : { ...input, source }, contentHash),
    wing: input.wing,
    room: input.room,
    hall: input.hall ?? null,
    source: source ?? null,
    sourceHash: input.sourceHash ?? null,
    sourceMtime: input.sourceMtime ?? null,
    chunkIndex: input.chunkIndex ?? 0,
    lineStart: input.lineStart ?? null,
    lineEnd: input.lineEnd ?? null,
    contentDate: input.contentDate ?? null,
    filedAt,
    addedBy: input.addedBy ?? 'loci',
    contentHash,
    metadataJson: p?.metadata ?? JSON.stringify(input.metadata ?? {}),
    text: input.text,
    search: p?.search ?? searchColumn(input.indexExtra ? [input.text, input.indexExtra] : input.text),
  };
}

/** A fully-populated drawer record from an input (validated). */
export function materialize(input: DrawerInput, filedAt: string): Drawer & { search: string } {
  const { metadataJson, ...row } = materializeRow(input, filedAt);
  const metadata =
    input.metadata ?? (input.prepared?.metadata !== undefined ? (JSON.parse(metadataJson) as Drawer['metadata']) : {});
  return { ...row, metadata };
}

/** Fills `prepared` (content hash and search column) so that a store does no hashing or tokenising. */
export function prepareDrawer<T extends DrawerInput>(input: T): T {
  return {
    ...input,
    prepared: {
      contentHash: sha256(input.text),
      search: searchColumn(input.indexExtra ? [input.text, input.indexExtra] : input.text),
    },
  };
}

/** Upper bound for `until`: a bare date includes the whole day. */
function untilBound(until: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(until) ? `${until}T23:59:59.999Z` : until;
}

function asList(v: string | readonly string[] | undefined): readonly string[] | undefined {
  return v === undefined ? undefined : typeof v === 'string' ? [v] : v;
}

/** In-memory evaluation of a {@link DrawerFilter} (same semantics as the SQL adapters). */
export function matchesFilter(d: Drawer, f: DrawerFilter | undefined): boolean {
  if (!f) return true;
  const wings = asList(f.wing);
  if (wings && !wings.includes(d.wing)) return false;
  const rooms = asList(f.room);
  if (rooms && !rooms.includes(d.room)) return false;
  const halls = asList(f.hall);
  if (halls && (d.hall === null || !halls.includes(d.hall))) return false;
  if (f.source !== undefined) {
    if (f.source.endsWith('*')) {
      if (!d.source?.startsWith(f.source.slice(0, -1))) return false;
    } else if (d.source !== f.source) return false;
  }
  if (f.since !== undefined && (d.contentDate === null || d.contentDate < f.since)) return false;
  if (f.until !== undefined && (d.contentDate === null || d.contentDate > untilBound(f.until))) return false;
  if (f.ids && !f.ids.includes(d.id)) return false;
  return true;
}

/** SQL WHERE fragment and named parameters for a filter over table alias `d`. */
export function sqlFilter(f: DrawerFilter | undefined): { sql: string; params: Record<string, unknown> } {
  const parts: string[] = [];
  const params: Record<string, unknown> = {};
  if (!f) return { sql: '1', params };
  const inList = (col: string, key: string, vals: readonly string[] | undefined) => {
    if (!vals) return;
    if (vals.length === 0) {
      parts.push('0');
      return;
    }
    const names = vals.map((v, i) => {
      params[`${key}${i}`] = v;
      return `@${key}${i}`;
    });
    parts.push(`d.${col} IN (${names.join(', ')})`);
  };
  inList('wing', 'fw', asList(f.wing));
  inList('room', 'fr', asList(f.room));
  inList('hall', 'fh', asList(f.hall));
  inList('id', 'fi', f.ids);
  if (f.source !== undefined) {
    if (f.source.endsWith('*')) {
      params['fsrc'] = f.source.slice(0, -1);
      parts.push('substr(d.source, 1, length(@fsrc)) = @fsrc');
    } else {
      params['fsrc'] = f.source;
      parts.push('d.source = @fsrc');
    }
  }
  if (f.since !== undefined) {
    params['fsince'] = f.since;
    parts.push('d.content_date >= @fsince');
  }
  if (f.until !== undefined) {
    params['funtil'] = untilBound(f.until);
    parts.push('d.content_date <= @funtil');
  }
  return { sql: parts.length ? parts.join(' AND ') : '1', params };
}

/** FTS5 MATCH expression: the quoted tokens OR-ed together (no FTS syntax can leak in). */
export function matchExpression(tokens: readonly string[]): string {
  return tokens.map((t) => `"${t.replace(/"/g, '""')}"`).join(' OR ');
}

/** True when the filter is empty (no condition). */
export function isEmptyFilter(f: DrawerFilter | undefined): boolean {
  return !f || Object.values(f).every((v) => v === undefined);
}
