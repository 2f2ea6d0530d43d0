/**
 * @module mcp/tools/search
 * Finding drawers: search (filters, explain, context), duplicate check, and a drawer's neighbours.
 */
import * as z from 'zod';
import { createError } from '../../core/errors.js';
import { checkDuplicate, excerptChars, matchSpans, type SearchOptions } from '../../search/index.js';
import { READ, defineTool, type AnyTool } from '../tool.js';
import { dateArg, idArg, nameArg } from '../args.js';
import {
  CompactContext,
  DrawerSummary,
  DrawerText,
  compactDate,
  compactHeader,
  headerOf,
  linesOf,
  plural,
  toSummary,
  toText,
} from '../shapes.js';

const isoDate = dateArg;

const Signal = z.object({ rank: z.number().int().nullable(), score: z.number().nullable(), contribution: z.number() });

/**
 * A hit as the model reads it. Claude Code hands the model `JSON.stringify(structuredContent)`, so
 * this shape *is* the payload: provenance fields are kept, empty ones and storage details
 * (filing time, null hall) are left out, and a long text is an excerpt around the matches.
 */
const Hit = z.object({
  id: z.string().describe('drawer id: pass it to loci_get_drawer (whole text), loci_drawer_neighbours'),
  wing: z.string(),
  room: z.string(),
  hall: z.string().optional().describe('kind of content, when the drawer has one'),
  source: z.string().nullable().describe('file path or URI the text came from; null for text added directly'),
  lines: z.string().optional().describe('line range in the source, "first-last"'),
  date: z
    .string()
    .describe(
      'when it was said or written (content date), else when it was stored: "YYYY-MM-DD" or "YYYY-MM-DD HH:MM" (UTC)',
    ),
  score: z.number(),
  text: z
    .string()
    .describe('the verbatim drawer text, or a verbatim excerpt around the matches when `chars` is present'),
  chars: z
    .number()
    .int()
    .optional()
    .describe("present when `text` is an excerpt: the whole text's length (read it with loci_get_drawer)"),
  explain: z
    .object({ fused: z.number(), signals: z.record(z.string(), Signal) })
    .optional()
    .describe('present with explain: how each signal ranked the hit'),
  context: z
    .array(CompactContext)
    .optional()
    .describe('present with context > 0: neighbouring drawers of the same source, in order'),
});

const search = defineTool({
  name: 'loci_search',
  title: 'Search memory',
  description:
    'Searches everything stored in the palace (mined files, conversations, notes, diaries) and returns the best ' +
    'verbatim drawers with their ids, wing/room, source file and lines. ' +
    'Ask in natural words ("why did we switch to OAuth2", "auth bug last week"); time words like "last week" or ' +
    '"in March" bias toward that period. ' +
    'Narrow with wing / room / hall (see loci_get_taxonomy) and since / until (content dates). Set context to see ' +
    'the surrounding chunks of each hit, explain to see why it ranked. ' +
    'Read a whole drawer with loci_get_drawer.',
  input: {
    query: z.string().trim().min(1).max(2000).describe('what to look for, in natural language or keywords'),
    wing: nameArg.optional().describe('only this wing (project / person / agent)'),
    room: nameArg.optional().describe('only this room (topic)'),
    hall: nameArg.optional().describe('only this kind of content, e.g. facts, events, decisions, diary'),
    since: isoDate.optional().describe('content dated on or after this date'),
    until: isoDate.optional().describe('content dated on or before this date (a bare date includes the whole day)'),
    limit: z.number().int().min(1).max(100).default(10).describe('hits to return, 1–100 (default 10)'),
    explain: z.boolean().default(false).describe("attach each signal's rank and contribution"),
    context: z
      .number()
      .int()
      .min(0)
      .max(10)
      .default(0)
      .describe('add ±N neighbouring drawers of the same source to each hit (0–10)'),
    mode: z
      .enum(['hybrid', 'lexical'])
      .default('hybrid')
      .describe('hybrid fuses every available signal; lexical is BM25 only'),
    text_chars: z
      .number()
      .int()
      .min(0)
      .max(100_000)
      .default(600)
      .describe('longest text per hit before it becomes an excerpt around the matches (default 600; 0 = whole texts)'),
  },
  output: {
    query: z.string(),
    signals: z.array(z.string()).describe('signals used, e.g. ["bm25"]'),
    fallback: z.string().optional().describe('present when a signal was unavailable and search fell back'),
    hits: z.array(Hit),
  },
  annotations: READ,
  async run(ctx, a) {
    const opts: SearchOptions = { limit: a.limit, explain: a.explain, context: a.context, mode: a.mode };
    if (a.wing) opts.wing = a.wing;
    if (a.room) opts.room = a.room;
    if (a.hall) opts.hall = a.hall;
    if (a.since) opts.since = a.since;
    if (a.until) opts.until = a.until;
    const r = await ctx.palace.search(a.query, opts);
    const tokens = new Set(r.tokens);
    const hits = r.hits.map((h) => {
      const ex = a.text_chars > 0 ? excerptChars(h.text, matchSpans(h.text, tokens), a.text_chars) : undefined;
      const lines = linesOf(h.lines?.[0] ?? null, h.lines?.[1] ?? null);
      return {
        id: h.id,
        wing: h.wing,
        room: h.room,
        ...(h.hall ? { hall: h.hall } : {}),
        source: h.source,
        ...(lines ? { lines } : {}),
        date: compactDate(h.contentDate ?? h.filedAt),
        score: Math.round(h.score * 1000) / 1000,
        text: ex?.cut ? `${ex.start > 0 ? '…' : ''}${ex.text}${ex.end < h.text.length ? '…' : ''}` : h.text,
        ...(ex?.cut ? { chars: h.text.length } : {}),
        ...(h.explain ? { explain: { fused: h.explain.fused, signals: h.explain.signals } } : {}),
        ...(h.context
          ? {
              context: h.context.map((c) => ({
                id: c.id,
                ...(c.lineStart !== null ? { lines: linesOf(c.lineStart, c.lineEnd)! } : {}),
                text: c.text,
              })),
            }
          : {}),
      };
    });
    const lines = [
      `${plural(hits.length, 'hit')} for ${JSON.stringify(r.query)} ` +
        `(${r.signals.join('+') || 'none'}${r.fallback ? `; ${r.fallback}` : ''})`,
    ];
    hits.forEach((h, i) => {
      lines.push(
        `\n[${i + 1}] ${compactHeader(h)} · score ` +
          `${h.score.toFixed(3)}${h.chars ? ` · excerpt of ${h.chars} chars` : ''}`,
      );
      if (h.explain)
        lines.push(
          `why: ${Object.entries(h.explain.signals)
            .map(([k, s]) => `${k} #${s.rank ?? '-'} +${s.contribution.toFixed(3)}`)
            .join(', ')}`,
        );
      const hitStart = Number(h.lines?.split('-')[0] ?? NaN);
      const before = Number.isFinite(hitStart)
        ? (h.context ?? []).filter((c) => c.lines && Number(c.lines.split('-')[0]) < hitStart)
        : [];
      const after = (h.context ?? []).filter((c) => !before.includes(c));
      for (const c of before) lines.push(`  (before, ${c.id}) ${c.text}`);
      lines.push(h.text);
      for (const c of after) lines.push(`  (after, ${c.id}) ${c.text}`);
    });
    if (!hits.length) lines.push('nothing found: try other words, drop filters, or check loci_status');
    return {
      data: { query: r.query, signals: r.signals, ...(r.fallback ? { fallback: r.fallback } : {}), hits },
      text: lines.join('\n'),
    };
  },
});

const duplicateCheck = defineTool({
  name: 'loci_check_duplicate',
  title: 'Check for duplicates',
  description:
    'Before filing new text with loci_add_drawer, checks whether the palace already holds it: exact copies (same ' +
    'text) and near-copies (word-set similarity at or above `threshold` among the closest search hits). ' +
    'Returns the ids of what matched.',
  input: {
    content: z.string().min(1).max(100_000).describe('the text you are about to store'),
    threshold: z
      .number()
      .min(0)
      .max(1)
      .default(0.9)
      .describe('similarity (0–1) at which a drawer counts as a near-copy; default 0.9'),
    wing: nameArg.optional().describe('only look in this wing'),
  },
  output: {
    is_duplicate: z.boolean(),
    exact: z.array(DrawerSummary),
    similar: z.array(DrawerSummary.extend({ similarity: z.number() })),
  },
  annotations: READ,
  async run(ctx, a) {
    const found = await checkDuplicate(ctx.palace, a.content, {
      threshold: a.threshold,
      ...(a.wing ? { wing: a.wing } : {}),
    });
    const exact = found.exact;
    const similar = found.similar.map((s) => ({ ...toSummary(s.drawer), similarity: s.similarity }));
    const data = { is_duplicate: exact.length + similar.length > 0, exact: exact.map(toSummary), similar };
    const text = data.is_duplicate
      ? [
          ...data.exact.map((d) => `exact copy: ${headerOf(d)}`),
          ...data.similar.map((d) => `near copy (${d.similarity}): ${headerOf(d)}`),
        ].join('\n')
      : 'no duplicate: safe to store';
    return { data, text };
  },
});

const neighbours = defineTool({
  name: 'loci_drawer_neighbours',
  title: 'Drawer neighbours',
  description:
    'The drawers just before and after a drawer in the same source (the surrounding part of a file or ' +
    'conversation), in order, the drawer itself included. Use it to read more around a search hit.',
  input: {
    drawer_id: idArg.describe('a drawer id from a search or listing'),
    n: z.number().int().min(1).max(10).default(2).describe('drawers on each side, 1–10 (default 2)'),
  },
  output: { drawer_id: z.string(), drawers: z.array(DrawerText) },
  annotations: READ,
  async run(ctx, a) {
    if (!(await ctx.palace.get(a.drawer_id))) throw createError('DRAWER_NOT_FOUND', { id: a.drawer_id });
    const drawers = (await ctx.palace.neighbours(a.drawer_id, a.n)).map(toText);
    const text = drawers.map((d) => `${d.id === a.drawer_id ? '>> ' : ''}${headerOf(d)}\n${d.text}`).join('\n\n');
    return { data: { drawer_id: a.drawer_id, drawers }, text };
  },
});

/** Search tools. */
export const searchTools: AnyTool[] = [search, duplicateCheck, neighbours];
