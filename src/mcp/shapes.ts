/**
 * @module mcp/shapes
 * Output shapes shared by several tools (drawers, hits, error envelope) and the mappers from the
 * library's objects to them. Every shape that concerns a drawer carries its `id`. Field names are
 * snake_case, like the arguments.
 */
import * as z from 'zod';
import type { Drawer } from '../internal.js';

/** Characters of a drawer shown in listings (the full text is in `loci_get_drawer`). */
const PREVIEW_CHARS = 240;

/** The error envelope of every failed call (`isError: true`). */
export const ErrorShape = z.object({
  code: z.string().describe('error code from the Loci catalogue, e.g. DRAWER_NOT_FOUND'),
  message: z.string().describe('what went wrong and how to fix it'),
  details: z.record(z.string(), z.unknown()).describe('the values involved'),
});

/** Where a drawer sits and where it came from (no text). */
const drawerPlace = {
  id: z
    .string()
    .describe('drawer id: pass it to loci_get_drawer, loci_update_drawer, loci_delete_drawer, loci_drawer_neighbours'),
  wing: z.string(),
  room: z.string(),
  hall: z.string().nullable(),
  source: z.string().nullable().describe('file path or URI the text came from; null for text added directly'),
  line_start: z.number().int().nullable(),
  line_end: z.number().int().nullable(),
  content_date: z.string().nullable().describe('when the content was said or written (ISO-8601), if known'),
  filed_at: z.string().describe('when Loci stored it (ISO-8601)'),
};

/** A drawer in a listing: place plus a preview. */
export const DrawerSummary = z.object({
  ...drawerPlace,
  preview: z.string().describe(`first ${PREVIEW_CHARS} characters`),
});

/** A drawer with its whole text and metadata. */
export const DrawerFull = z.object({
  ...drawerPlace,
  chunk_index: z.number().int(),
  added_by: z.string(),
  content_hash: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  text: z.string(),
});

/** A neighbouring drawer (search context, neighbours). */
export const DrawerText = z.object({ ...drawerPlace, chunk_index: z.number().int(), text: z.string() });

/** First `n` characters of `text` on one line-ish preview, with an ellipsis when cut. */
export function preview(text: string, n = PREVIEW_CHARS): string {
  const t = text.trim();
  return t.length <= n ? t : `${t.slice(0, n - 1).trimEnd()}…`;
}

/** The place fields of a drawer. */
function placeOf(d: Drawer): z.output<z.ZodObject<typeof drawerPlace>> {
  return {
    id: d.id,
    wing: d.wing,
    room: d.room,
    hall: d.hall,
    source: d.source,
    line_start: d.lineStart,
    line_end: d.lineEnd,
    content_date: d.contentDate,
    filed_at: d.filedAt,
  };
}

/** A drawer as a listing entry. */
export const toSummary = (d: Drawer): z.output<typeof DrawerSummary> => ({ ...placeOf(d), preview: preview(d.text) });

/** A drawer with its text (neighbours, context). */
export const toText = (d: Drawer): z.output<typeof DrawerText> => ({
  ...placeOf(d),
  chunk_index: d.chunkIndex,
  text: d.text,
});

/** A whole drawer. */
export const toFull = (d: Drawer): z.output<typeof DrawerFull> => ({
  ...placeOf(d),
  chunk_index: d.chunkIndex,
  added_by: d.addedBy,
  content_hash: d.contentHash,
  metadata: d.metadata,
  text: d.text,
});

/** `wing/room · source:12-30 · 2026-01-02` — the one-line header of a drawer in text renderings. */
export function headerOf(d: {
  id: string;
  wing: string;
  room: string;
  source: string | null;
  line_start: number | null;
  line_end: number | null;
  content_date: string | null;
}): string {
  const parts = [d.id, `${d.wing}/${d.room}`];
  if (d.source)
    parts.push(d.line_start !== null ? `${d.source}:${d.line_start}-${d.line_end ?? d.line_start}` : d.source);
  if (d.content_date) parts.push(d.content_date.slice(0, 10));
  return parts.join(' · ');
}

/** A neighbouring drawer in a compact search hit: same source as the hit, so only id, lines and text. */
export const CompactContext = z.object({
  id: z.string(),
  lines: z.string().optional().describe('"first-last" in the source'),
  text: z.string(),
});

/** `"12-30"` (or `"12"`), undefined without a first line. */
export function linesOf(start: number | null, end: number | null): string | undefined {
  if (start === null) return undefined;
  return end !== null && end !== start ? `${start}-${end}` : String(start);
}

/** An ISO date as `YYYY-MM-DD`, or `YYYY-MM-DD HH:MM` (UTC) when it has a time other than midnight. */
export function compactDate(iso: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2}))?/.exec(iso);
  if (!m) return iso;
  return m[2] && m[2] !== '00:00' ? `${m[1]} ${m[2]}` : m[1]!;
}

/** `id · wing/room · source:12-30 · date` for a compact hit. */
export function compactHeader(h: {
  id: string;
  wing: string;
  room: string;
  source: string | null;
  lines?: string | undefined;
  date: string;
}): string {
  const parts = [h.id, `${h.wing}/${h.room}`];
  if (h.source) parts.push(h.lines ? `${h.source}:${h.lines}` : h.source);
  parts.push(h.date);
  return parts.join(' · ');
}

/** `n thing(s)`. */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** Record<string, number> → entries sorted by count (desc) then name. */
export function byCount(r: Record<string, number>): [string, number][] {
  return Object.entries(r).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}
