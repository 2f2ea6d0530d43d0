/**
 * @module cli/commands/search
 * `loci search "<query>"`: hybrid search with filters, explanations and neighbours.
 */
import { createError } from '../../core/errors.js';
import { highlight, matchSpans, snippetLines, type SearchHit, type SearchOptions } from '../../search/index.js';
import type { OptionSpec } from '../argv.js';
import type { CliContext, DirectCommand, RegisterCommand } from '../context.js';
import { colors, dateOption, intOption, printJson } from '../format.js';
import { withPalace } from '../open.js';

interface SearchFlags {
  wing?: string;
  room?: string;
  hall?: string;
  since?: string;
  until?: string;
  limit?: string;
  json?: boolean;
  explain?: boolean;
  context?: string;
  lexical?: boolean;
  full?: boolean;
}

function hitJson(h: SearchHit) {
  return {
    id: h.id,
    wing: h.wing,
    room: h.room,
    hall: h.hall,
    source: h.source,
    lines: h.lines,
    score: Math.round(h.score * 10_000) / 10_000,
    content_date: h.contentDate,
    metadata: h.metadata,
    text: h.text,
    ...(h.explain ? { explain: h.explain } : {}),
    ...(h.context
      ? { context: h.context.map((d) => ({ id: d.id, source: d.source, chunk_index: d.chunkIndex, text: d.text })) }
      : {}),
  };
}

/** The options of `loci search`, declared once for commander and for the direct parser (`cli/argv.ts`). */
const OPTIONS: readonly OptionSpec[] = [
  { flags: '-w, --wing <wing>', description: 'only this wing' },
  { flags: '-r, --room <room>', description: 'only this room' },
  { flags: '--hall <hall>', description: 'only this hall (facts, events, discoveries, preferences, advice)' },
  { flags: '--since <date>', description: 'only content dated on or after this date' },
  { flags: '--until <date>', description: 'only content dated on or before this date' },
  { flags: '-n, --limit <k>', description: 'number of results (1-100, default 10)' },
  { flags: '--context <n>', description: 'also show ±n neighbouring drawers of each hit (0-10)' },
  { flags: '--explain', description: "show each signal's contribution per hit" },
  { flags: '--lexical', description: 'BM25 only (skip the other signals)' },
  { flags: '--full', description: 'print whole drawers instead of snippets' },
  { flags: '--json', description: 'print results as JSON' },
];

/** Runs a search and prints it. */
async function run(words: string[], o: SearchFlags, ctx: CliContext): Promise<void> {
  const query = words.join(' ');
  dateOption('--since', o.since);
  dateOption('--until', o.until);
  const opts: SearchOptions = {
    limit: intOption('--limit', o.limit, 10, 1, 100),
    context: intOption('--context', o.context, 0, 0, 10),
    ...(o.wing ? { wing: o.wing } : {}),
    ...(o.room ? { room: o.room } : {}),
    ...(o.hall ? { hall: o.hall } : {}),
    ...(o.since ? { since: o.since } : {}),
    ...(o.until ? { until: o.until } : {}),
    ...(o.explain ? { explain: true } : {}),
    ...(o.lexical ? { mode: 'lexical' as const } : {}),
  };
  const res = await withPalace(ctx, (p) => p.search(query, opts));
  if (res.tokens.length === 0) throw createError('QUERY_EMPTY', { query });
  if (o.json) {
    return printJson(ctx.io, {
      query: res.query,
      results: res.hits.map(hitJson),
      signals: res.signals,
      ...(res.fallback ? { fallback: res.fallback } : {}),
      took_ms: Math.round(res.tookMs * 100) / 100,
    });
  }
  const c = colors(ctx.io);
  if (res.hits.length === 0) {
    ctx.io.stdout(`no results for ${JSON.stringify(query)}${o.wing || o.room ? ' with these filters' : ''}\n`);
    return;
  }
  if (res.fallback && o.explain) ctx.io.stdout(c.yellow(`note: ${res.fallback}\n`));
  const tokens = new Set(res.tokens);
  // The listing is written at once, and the matched words are looked for only where they are used
  // (the snippet of a drawer longer than 8 lines, highlighting on a terminal).
  let out = '';
  res.hits.forEach((h, i) => {
    const where = h.source ? `${h.source}${h.lines ? `:${h.lines[0]}-${h.lines[1]}` : ''}` : '(no source)';
    out +=
      `${c.bold(`${i + 1}.`)} ${c.cyan(`${h.wing}/${h.room}`)}  ${where}  ${c.dim(h.id)}  ` +
      `${c.dim(`score ${h.score.toFixed(3)}`)}` +
      `${h.contentDate ? c.dim(`  ${h.contentDate.slice(0, 10)}`) : ''}\n`;
    const snip = o.full
      ? { text: h.text, truncated: false }
      : snippetLines(h.text, () => matchSpans(h.text, tokens), 8);
    const shown = ctx.io.isTTY
      ? highlight(snip.text, matchSpans(snip.text, tokens), '\x1b[1;33m', '\x1b[0m')
      : snip.text;
    out += shown.replace(/^/gm, '   ') + (snip.truncated ? c.dim('\n   …') : '') + '\n';
    if (h.explain) {
      const parts = Object.entries(h.explain.signals).map(
        ([k, v]) => `${k} rank ${v.rank ?? '-'} score ${v.score?.toFixed(3) ?? '-'} +${v.contribution.toFixed(4)}`,
      );
      out += c.magenta(`   explain: ${parts.join(' | ')} = ${h.explain.fused.toFixed(4)}\n`);
    }
    for (const n of h.context ?? []) out += c.dim(`   ┆ [${n.chunkIndex}] ${n.text.split('\n')[0]!.slice(0, 120)}\n`);
    out += '\n';
  });
  ctx.io.stdout(out);
}

/** `loci search` without commander: the plain argv forms (see `cli/argv.ts`). */
export const direct: DirectCommand = {
  name: 'search',
  options: OPTIONS,
  run: (args, opts, ctx) => run(args, opts as SearchFlags, ctx),
};

export const register: RegisterCommand = (program, ctx) => {
  const cmd = program
    .command('search')
    .description('search everything mined, best first')
    .argument('<query...>', 'what to look for (words, a question, Chinese or Japanese text…)');
  for (const o of OPTIONS) cmd.option(o.flags, o.description);
  cmd
    .addHelpText(
      'after',
      '\nExamples:\n  loci search "why did we switch to OAuth2"\n  loci search 认证 --wing myapp -n 5 --json\n',
    )
    .action((words: string[], o: SearchFlags) => run(words, o, ctx));
};
