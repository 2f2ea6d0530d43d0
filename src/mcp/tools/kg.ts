/**
 * @module mcp/tools/kg
 * The temporal knowledge graph: facts about entities with validity windows — query (as of a
 * date), add, invalidate, timeline, stats and entity listing. Registered only when the palace has
 * a graph (`ToolContext.graph`).
 */
import * as z from 'zod';
import { createError } from '../../core/errors.js';
import type { Fact, PalaceGraph } from '../../internal.js';
import { DESTRUCTIVE, READ, WRITE, defineTool, type AnyTool, type ToolContext } from '../tool.js';
import { cursorArg, idArg } from '../args.js';
import { plural } from '../shapes.js';

const date = z.string().min(4).max(40).describe('YYYY-MM-DD or ISO-8601 with a zone');
const entityName = z.string().trim().min(1).max(200);

const FactShape = z.object({
  id: z.string(),
  subject: z.string().describe('subject entity id'),
  subject_name: z.string(),
  predicate: z.string(),
  object: z.string().describe('object entity id, or the literal value'),
  object_name: z.string(),
  literal: z.boolean(),
  valid_from: z.string().nullable().describe('null: since forever / unknown'),
  valid_to: z.string().nullable().describe('exclusive end; null: still true'),
  recorded_at: z.string(),
  confidence: z.number(),
  source_drawer_ids: z.array(z.string()).describe('drawers the fact was read from (open them with loci_get_drawer)'),
});
const Entity = z.object({ id: z.string(), name: z.string(), type: z.string(), aliases: z.array(z.string()) });

const factOf = (f: Fact): z.output<typeof FactShape> => ({
  id: f.id,
  subject: f.subject,
  subject_name: f.subjectName,
  predicate: f.predicate,
  object: f.object,
  object_name: f.objectName,
  literal: f.literal,
  valid_from: f.validFrom,
  valid_to: f.validTo,
  recorded_at: f.recordedAt,
  confidence: f.confidence,
  source_drawer_ids: [...f.sources],
});

const span = (f: z.output<typeof FactShape>) =>
  `${f.valid_from?.slice(0, 10) ?? '…'} → ${f.valid_to?.slice(0, 10) ?? 'now'}`;
const factLine = (f: z.output<typeof FactShape>) =>
  `${f.subject_name} ${f.predicate} ${f.object_name} ` +
  `[${span(f)}]${f.source_drawer_ids.length ? ` (drawers ${f.source_drawer_ids.join(', ')})` : ''}`;

/** The palace's graph, which the registry guarantees for these tools (loaded on first use). */
export async function graphOf(ctx: ToolContext): Promise<PalaceGraph> {
  if (!ctx.graph) throw createError('INTERNAL', { what: 'a knowledge-graph tool ran without a graph' });
  return ctx.graph();
}

async function entityOr404(kg: PalaceGraph, name: string) {
  const e = await kg.graph.resolveEntity(name);
  if (!e) throw createError('KG_ENTITY_NOT_FOUND', { name });
  return e;
}

const query = defineTool({
  name: 'loci_kg_query',
  title: 'Facts about an entity',
  description:
    'What the knowledge graph knows about a person, project, tool or file: the facts true at a moment (default ' +
    'now), e.g. who works where, which library a project uses. Give as_of to ask about the past. Each fact ' +
    'names the drawers it came from.',
  input: {
    entity: entityName.describe('name, alias or id, matched case-insensitively'),
    as_of: date.optional().describe('instant to look at (a bare date means the end of that day); default now'),
    direction: z.enum(['out', 'in', 'both']).default('both').describe('out: the entity is the subject; in: the object'),
    predicate: z.string().trim().min(1).max(64).optional().describe('only this relation, e.g. works_at'),
  },
  output: { entity: Entity, as_of: z.string().nullable(), facts: z.array(FactShape) },
  annotations: READ,
  async run(ctx, a) {
    const kg = await graphOf(ctx);
    const e = await entityOr404(kg, a.entity);
    const facts = (
      await kg.graph.query(e.id, {
        direction: a.direction,
        ...(a.as_of ? { asOf: a.as_of } : {}),
        ...(a.predicate ? { predicate: a.predicate } : {}),
      })
    ).map(factOf);
    const text =
      `${plural(facts.length, 'fact')} about ${e.name}${a.as_of ? ` as of ${a.as_of}` : ''}\n` +
      `${facts.map(factLine).join('\n')}`;
    return {
      data: { entity: { id: e.id, name: e.name, type: e.type, aliases: e.aliases }, as_of: a.as_of ?? null, facts },
      text,
    };
  },
});

const add = defineTool({
  name: 'loci_kg_add',
  title: 'Add a fact',
  description:
    'States a fact `subject predicate object` (e.g. "Alice works_at Acme", "api uses postgres") valid from ' +
    'valid_from (default now). Unknown entities are created. Adding a fact that is already open returns it ' +
    'unchanged. ' +
    "For one-value relations (works_at, lives_in, uses_version…) the previous value's window is closed, not " +
    'deleted. Use literal for values that are not entities (a role, a status).',
  input: {
    subject: entityName,
    predicate: z.string().trim().min(1).max(64).describe('relation in snake_case, e.g. works_at'),
    object: z.string().trim().min(1).max(500),
    literal: z.boolean().default(false).describe('the object is a value, not an entity'),
    valid_from: date.nullable().optional().describe('start; default now; null for unknown'),
    valid_to: date.nullable().optional().describe('exclusive end; default open'),
    confidence: z.number().gt(0).max(1).default(1),
    source_drawer_ids: z.array(idArg).max(50).default([]).describe('drawers the fact comes from'),
  },
  output: { fact: FactShape },
  annotations: WRITE(true),
  async run(ctx, a) {
    const kg = await graphOf(ctx);
    const f = factOf(
      await kg.graph.addFact({
        subject: a.subject,
        predicate: a.predicate,
        object: a.object,
        literal: a.literal,
        confidence: a.confidence,
        sources: a.source_drawer_ids,
        ...(a.valid_from !== undefined ? { validFrom: a.valid_from } : {}),
        ...(a.valid_to !== undefined ? { validTo: a.valid_to } : {}),
      }),
    );
    return { data: { fact: f }, text: `fact ${f.id}: ${factLine(f)}` };
  },
});

const invalidate = defineTool({
  name: 'loci_kg_invalidate',
  title: 'End a fact',
  description:
    'Marks a fact as no longer true from `ended` (default now) — e.g. someone left a company, a dependency was ' +
    'removed. History is kept: loci_kg_query with an earlier as_of still sees it. Add the new fact with ' +
    'loci_kg_add.',
  input: {
    subject: entityName,
    predicate: z.string().trim().min(1).max(64),
    object: z.string().trim().min(1).max(500),
    ended: date.optional().describe('end date; default now'),
  },
  output: { invalidated: z.array(FactShape) },
  annotations: DESTRUCTIVE(true),
  async run(ctx, a) {
    const kg = await graphOf(ctx);
    const facts = (await kg.graph.invalidate(a.subject, a.predicate, a.object, a.ended ? { ended: a.ended } : {})).map(
      factOf,
    );
    const text = facts.length
      ? `ended ${plural(facts.length, 'fact')}\n${facts.map(factLine).join('\n')}`
      : `no open fact ${a.subject} ${a.predicate} ${a.object}: nothing ended`;
    return { data: { invalidated: facts }, text };
  },
});

const timeline = defineTool({
  name: 'loci_kg_timeline',
  title: 'Entity timeline',
  description:
    'Every fact ever recorded about an entity, past and present, in chronological order — how things changed over ' +
    'time. Page with cursor.',
  input: {
    entity: entityName,
    limit: z.number().int().min(1).max(200).default(50),
    cursor: cursorArg.optional().describe('next_cursor of the previous page'),
  },
  output: { entity: Entity, facts: z.array(FactShape), next_cursor: z.string().nullable() },
  annotations: READ,
  async run(ctx, a) {
    const kg = await graphOf(ctx);
    const e = await entityOr404(kg, a.entity);
    const page = await kg.graph.timeline(e.id, { limit: a.limit, cursor: a.cursor ?? null });
    const facts = page.items.map(factOf);
    const text =
      `${e.name}: ${plural(facts.length, 'fact')}${page.nextCursor ? ' (more: pass next_cursor)' : ''}\n` +
      `${facts.map(factLine).join('\n')}`;
    return {
      data: {
        entity: { id: e.id, name: e.name, type: e.type, aliases: e.aliases },
        facts,
        next_cursor: page.nextCursor,
      },
      text,
    };
  },
});

const stats = defineTool({
  name: 'loci_kg_stats',
  title: 'Knowledge graph stats',
  description: 'Size of the knowledge graph: entities, facts, facts still open, and facts per relation.',
  input: {},
  output: {
    entities: z.number().int(),
    facts: z.number().int(),
    open_facts: z.number().int(),
    predicates: z.array(z.object({ predicate: z.string(), facts: z.number().int() })),
  },
  annotations: READ,
  async run(ctx) {
    const kg = await graphOf(ctx);
    const s = await kg.graph.stats();
    const predicates = Object.entries(s.predicates)
      .sort((x, y) => y[1] - x[1])
      .map(([predicate, facts]) => ({ predicate, facts }));
    const text =
      `${plural(s.entities, 'entity', 'entities')}, ${plural(s.facts, 'fact')} (${s.openFacts} open)\n` +
      `${predicates.map((p) => `${p.predicate}: ${p.facts}`).join('\n')}`;
    return { data: { entities: s.entities, facts: s.facts, open_facts: s.openFacts, predicates }, text };
  },
});

const entities = defineTool({
  name: 'loci_kg_entities',
  title: 'List entities',
  description:
    'Lists the entities of the knowledge graph (people, projects, tools, files…) by id, optionally of one type or ' +
    'starting with a prefix. Page with cursor.',
  input: {
    type: z.string().trim().min(1).max(40).optional().describe('e.g. person, project, tool'),
    prefix: z.string().trim().min(1).max(200).optional(),
    limit: z.number().int().min(1).max(200).default(50),
    cursor: cursorArg.optional(),
  },
  output: { entities: z.array(Entity), next_cursor: z.string().nullable() },
  annotations: READ,
  async run(ctx, a) {
    const kg = await graphOf(ctx);
    const page = await kg.graph.entities({
      limit: a.limit,
      cursor: a.cursor ?? null,
      ...(a.type ? { type: a.type } : {}),
      ...(a.prefix ? { prefix: a.prefix } : {}),
    });
    const list = page.items.map((e) => ({ id: e.id, name: e.name, type: e.type, aliases: e.aliases }));
    const text =
      `${plural(list.length, 'entity', 'entities')}${page.nextCursor ? ' (more: pass next_cursor)' : ''}\n` +
      `${list.map((e) => `${e.name} (${e.type})${e.aliases.length ? ` aka ${e.aliases.join(', ')}` : ''}`).join('\n')}`;
    return { data: { entities: list, next_cursor: page.nextCursor }, text };
  },
});

/** Knowledge-graph tools. */
export const kgTools: AnyTool[] = [query, add, invalidate, timeline, stats, entities];
