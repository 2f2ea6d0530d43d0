/**
 * @module cli/commands/kg
 * `loci kg add|query|timeline|invalidate|stats|entities` and `loci traverse <wing>/<room>`.
 */
import { createError } from '../../core/errors.js';
import type { Fact } from '../../internal.js';
import type { CliContext, RegisterCommand } from '../context.js';
import { colors, dateOption, intOption, printJson, table } from '../format.js';
import { withPalace } from '../open.js';

function factJson(f: Fact) {
  return {
    id: f.id,
    subject: f.subjectName,
    predicate: f.predicate,
    object: f.literal ? f.object : f.objectName,
    literal: f.literal,
    valid_from: f.validFrom,
    valid_to: f.validTo,
    recorded_at: f.recordedAt,
    confidence: f.confidence,
    sources: f.sources,
  };
}

function printFacts(ctx: CliContext, facts: Fact[], withSources: Map<string, string> | null): void {
  const c = colors(ctx.io);
  if (facts.length === 0) return ctx.io.stdout('no facts\n');
  for (const f of facts) {
    const window = `${f.validFrom?.slice(0, 10) ?? '…'} → ${f.validTo?.slice(0, 10) ?? 'now'}`;
    ctx.io.stdout(
      `${c.bold(f.subjectName)} ${c.cyan(f.predicate)} ` +
        `${c.bold(f.literal ? JSON.stringify(f.object) : f.objectName)}  ${c.dim(window)}\n`,
    );
    if (withSources) {
      for (const id of f.sources) ctx.io.stdout(c.dim(`   ↳ ${id}  ${withSources.get(id) ?? '(drawer deleted)'}\n`));
    }
  }
}

const date = dateOption;

export const register: RegisterCommand = (program, ctx) => {
  const kg = program
    .command('kg')
    .description('the temporal knowledge graph: facts with validity windows, filled at ingest');

  kg.command('add')
    .description('state a fact (an identical open fact is not duplicated)')
    .argument('<subject>')
    .argument('<predicate>', 'e.g. works_at, uses, assigned_to')
    .argument('<object>')
    .option('--from <date>', 'valid from (default: now)')
    .option('--to <date>', 'valid until (exclusive)')
    .option('--source <drawer-id>', 'the drawer the fact comes from (repeatable)', (v: string, acc: string[] = []) => [
      ...acc,
      v,
    ])
    .option('--confidence <x>', 'confidence in (0, 1]', '1')
    .option('--literal', 'the object is a value (a role, a status), not an entity')
    .option('--replace-dates', 'when the same open fact exists, replace its dates')
    .option('--json', 'print as JSON')
    .action(
      async (
        subject: string,
        predicate: string,
        object: string,
        o: {
          from?: string;
          to?: string;
          source?: string[];
          confidence: string;
          literal?: boolean;
          replaceDates?: boolean;
          json?: boolean;
        },
      ) => {
        const confidence = Number(o.confidence);
        if (!(confidence > 0 && confidence <= 1))
          throw createError('INVALID_ARGUMENT', {
            name: '--confidence',
            value: o.confidence,
            expected: 'a number in (0, 1]',
          });
        const fact = await withPalace(ctx, async (p) =>
          (await p.graph()).graph.addFact(
            {
              subject,
              predicate,
              object,
              ...(o.literal ? { literal: true } : {}),
              ...(date('--from', o.from) !== undefined ? { validFrom: o.from! } : {}),
              ...(date('--to', o.to) !== undefined ? { validTo: o.to! } : {}),
              ...(o.source ? { sources: o.source } : {}),
              confidence,
            },
            o.replaceDates ? { dates: 'replace' } : {},
          ),
        );
        if (o.json) return printJson(ctx.io, { fact: factJson(fact) });
        printFacts(ctx, [fact], null);
      },
    );

  kg.command('query')
    .description('facts about an entity valid at a date (default: now), with the drawers behind them')
    .argument('<entity>')
    .option('--as-of <date>', 'the instant to look at')
    .option('--direction <dir>', 'out (entity is subject), in (object) or both', 'both')
    .option('--predicate <p>', 'only this relation')
    .option('--json', 'print as JSON')
    .action(async (entity: string, o: { asOf?: string; direction: string; predicate?: string; json?: boolean }) => {
      if (!['out', 'in', 'both'].includes(o.direction))
        throw createError('INVALID_ARGUMENT', { name: '--direction', value: o.direction, expected: 'out, in or both' });
      const { facts, previews, known } = await withPalace(ctx, async (p) => {
        const g = (await p.graph()).graph;
        const known = await g.resolveEntity(entity);
        const facts = await g.query(entity, {
          ...(date('--as-of', o.asOf) ? { asOf: o.asOf! } : {}),
          direction: o.direction as 'out' | 'in' | 'both',
          ...(o.predicate ? { predicate: o.predicate } : {}),
        });
        const ids = [...new Set(facts.flatMap((f) => f.sources))];
        const drawers = ids.length ? (await p.listDrawers({ ids }, { limit: ids.length })).drawers : [];
        return {
          facts,
          known,
          previews: new Map(drawers.map((d) => [d.id, `${d.wing}/${d.room}  ${d.text.split('\n')[0]!.slice(0, 100)}`])),
        };
      });
      if (!known) throw createError('KG_ENTITY_NOT_FOUND', { name: entity });
      if (o.json) return printJson(ctx.io, { entity: known.name, as_of: o.asOf ?? null, facts: facts.map(factJson) });
      printFacts(ctx, facts, previews);
    });

  kg.command('timeline')
    .description('every fact about an entity, oldest first (paged, no cap)')
    .argument('<entity>')
    .option('-n, --limit <n>', 'facts per page (default 50)')
    .option('--cursor <c>', 'continue after a previous page')
    .option('--json', 'print as JSON')
    .action(async (entity: string, o: { limit?: string; cursor?: string; json?: boolean }) => {
      const limit = intOption('--limit', o.limit, 50, 1, 1_000_000);
      const page = await withPalace(ctx, async (p) =>
        (await p.graph()).graph.timeline(entity, { limit, cursor: o.cursor ?? null }),
      );
      if (o.json) return printJson(ctx.io, { facts: page.items.map(factJson), next_cursor: page.nextCursor });
      printFacts(ctx, page.items, null);
      if (page.nextCursor) ctx.io.stdout(colors(ctx.io).dim(`more: --cursor ${page.nextCursor}\n`));
    });

  kg.command('invalidate')
    .description('close the validity window of a fact (history is never deleted)')
    .argument('<subject>')
    .argument('<predicate>')
    .argument('<object>')
    .option('--ended <date>', 'when it stopped being true (default: now)')
    .option('--json', 'print as JSON')
    .action(async (subject: string, predicate: string, object: string, o: { ended?: string; json?: boolean }) => {
      const closed = await withPalace(ctx, async (p) =>
        (await p.graph()).graph.invalidate(
          subject,
          predicate,
          object,
          date('--ended', o.ended) ? { ended: o.ended! } : {},
        ),
      );
      if (o.json) return printJson(ctx.io, { closed: closed.map(factJson) });
      if (closed.length === 0) ctx.io.stdout(`no open fact "${subject} ${predicate} ${object}"\n`);
      else printFacts(ctx, closed, null);
    });

  kg.command('stats')
    .description('entity and fact counts, per relation')
    .option('--json', 'print as JSON')
    .action(async (o: { json?: boolean }) => {
      const s = await withPalace(ctx, async (p) => (await p.graph()).graph.stats());
      if (o.json)
        return printJson(ctx.io, {
          entities: s.entities,
          facts: s.facts,
          open_facts: s.openFacts,
          predicates: s.predicates,
        });
      ctx.io.stdout(`${s.entities} entities, ${s.facts} facts (${s.openFacts} open)\n`);
      const rows = Object.entries(s.predicates).sort((a, b) => b[1] - a[1]);
      if (rows.length) ctx.io.stdout(table([['RELATION', 'FACTS'], ...rows.map(([k, v]) => [k, String(v)])]));
    });

  kg.command('entities')
    .description('list entities (paged)')
    .option('--type <t>', 'person, project, tool, file, organisation, …')
    .option('--prefix <p>', 'names starting with this')
    .option('-n, --limit <n>', 'per page (default 50)')
    .option('--cursor <c>', 'continue after a previous page')
    .option('--json', 'print as JSON')
    .action(async (o: { type?: string; prefix?: string; limit?: string; cursor?: string; json?: boolean }) => {
      const limit = intOption('--limit', o.limit, 50, 1, 100_000);
      const page = await withPalace(ctx, async (p) =>
        (await p.graph()).graph.entities({
          limit,
          cursor: o.cursor ?? null,
          ...(o.type ? { type: o.type } : {}),
          ...(o.prefix ? { prefix: o.prefix } : {}),
        }),
      );
      if (o.json)
        return printJson(ctx.io, {
          entities: page.items.map((e) => ({ id: e.id, name: e.name, type: e.type, aliases: e.aliases })),
          next_cursor: page.nextCursor,
        });
      ctx.io.stdout(
        page.items.length
          ? table([['ID', 'NAME', 'TYPE'], ...page.items.map((e) => [e.id, e.name, e.type])])
          : 'no entities\n',
      );
      if (page.nextCursor) ctx.io.stdout(colors(ctx.io).dim(`more: --cursor ${page.nextCursor}\n`));
    });

  program
    .command('traverse')
    .description('walk from a room to rooms of the same name in other wings and through explicit tunnels')
    .argument('<wing/room>', 'start, e.g. myapp/auth')
    .option('--hops <n>', 'how far to walk (default 2)')
    .option('--json', 'print as JSON')
    .action(async (start: string, o: { hops?: string; json?: boolean }) => {
      const i = start.indexOf('/');
      if (i <= 0 || i === start.length - 1)
        throw createError('INVALID_ARGUMENT', {
          name: '<wing/room>',
          value: start,
          expected: 'wing/room, e.g. myapp/auth',
        });
      const hops = intOption('--hops', o.hops, 2, 0, 10);
      const steps = await withPalace(ctx, async (p) =>
        (await p.graph()).traverse({ wing: start.slice(0, i), room: start.slice(i + 1) }, hops),
      );
      if (o.json) return printJson(ctx.io, { rooms: steps });
      ctx.io.stdout(
        table([
          ['HOPS', 'ROOM', 'DRAWERS', 'VIA'],
          ...steps.map((s) => [String(s.hops), `${s.wing}/${s.room}`, String(s.count), s.via]),
        ]),
      );
    });
};
