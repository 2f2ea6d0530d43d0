/**
 * @module kg/engine
 * The write path shared by every graph adapter: validation, entity resolution, deduplication,
 * contradictions and invalidation over a small synchronous row interface ({@link GraphRows}).
 * Adapters run {@link applyBatch} inside one transaction (SQLite) or with an undo log (memory).
 */
import { randomBytes } from 'node:crypto';
import { createError, isLociError } from '../core/errors.js';
import {
  confidenceValue,
  entityKey,
  entityType,
  literalValue,
  normalizeDate,
  normalizeOptionalDate,
  predicateKey,
  requireEntityKey,
} from './normalize.js';
import { checkWindow, planFact } from './semantics.js';
import type { EntityRow, FactRow, FactsFilter, GraphRows } from '../store/index.js';
import type { ApplyResult, EntityInput, FactInput, GraphBatch, InvalidationInput } from './types.js';

/** Context of one batch. */
export interface EngineContext {
  functional: ReadonlySet<string>;
  /** The clock's now, ISO-8601 UTC. */
  now: string;
  dates: 'keep' | 'replace';
  lenient: boolean;
}

/** Resolves a key to an entity id through ids, then aliases. */
export function resolveKey(rows: GraphRows, key: string): string | undefined {
  if (rows.hasEntity(key)) return key;
  return rows.aliasOwner(key);
}

function cleanSources(ids: readonly string[] | undefined): string[] {
  if (!ids) return [];
  return [...new Set(ids.map((s) => String(s).trim()).filter((s) => s.length > 0))];
}

/** Creates or merges an entity (see EntityInput for the merge rules). */
function upsertEntityRow(rows: GraphRows, input: EntityInput, now: string): EntityRow {
  const key = requireEntityKey(input.name);
  const type = entityType(input.type);
  const aliases = (input.aliases ?? []).map((a) => ({ alias: a.trim(), key: requireEntityKey(a) }));
  const id = resolveKey(rows, key) ?? key;
  for (const a of aliases) {
    if (a.key === id) continue;
    const owner = rows.hasEntity(a.key) ? a.key : rows.aliasOwner(a.key);
    if (owner !== undefined && owner !== id) throw createError('KG_ALIAS_TAKEN', { alias: a.alias, entity: id, owner });
  }
  let row = rows.getEntity(id);
  if (!row) {
    row = {
      id,
      name: input.name.trim(),
      type,
      properties: { ...(input.properties ?? {}) },
      createdAt: now,
      updatedAt: now,
    };
    rows.insertEntity(row);
  } else {
    const retype =
      input.type !== undefined &&
      type !== 'unknown' &&
      (row.type === 'unknown' || (input.retype === true && row.type !== type));
    const props = input.properties && Object.keys(input.properties).length > 0;
    if (retype || props) {
      row = {
        ...row,
        type: retype ? type : row.type,
        properties: props ? { ...row.properties, ...input.properties } : row.properties,
        updatedAt: now,
      };
      rows.updateEntity(row);
    }
  }
  for (const a of aliases)
    if (a.key !== id && rows.aliasOwner(a.key) === undefined) rows.insertAlias(a.key, id, a.alias);
  const sources = cleanSources(input.sources);
  if (sources.length) rows.addEntitySources(id, sources);
  return row;
}

/** Creates the entity of a fact end when missing (`id` undefined), or fills its `unknown` type; returns its id. */
function ensureEntity(
  rows: GraphRows,
  name: string,
  type: string | undefined,
  id: string | undefined,
  now: string,
): string {
  if (id !== undefined && type === undefined) return id;
  return upsertEntityRow(rows, { name, ...(type !== undefined ? { type } : {}) }, now).id;
}

interface PreparedFact {
  subjectKey: string;
  subjectId: string | undefined;
  predicate: string;
  object: string;
  objectKnown: boolean;
  literal: boolean;
  validFrom: string | null;
  validTo: string | null;
  confidence: number;
  sources: string[];
}

function prepareFact(rows: GraphRows, f: FactInput, now: string): PreparedFact {
  const subjectKey = requireEntityKey(f.subject);
  const predicate = predicateKey(f.predicate);
  const literal = f.literal === true;
  let object: string;
  let objectKnown = true;
  if (literal) object = literalValue(f.object);
  else {
    const k = requireEntityKey(f.object);
    const resolved = resolveKey(rows, k);
    objectKnown = resolved !== undefined;
    object = resolved ?? k;
  }
  if (f.subjectType !== undefined) entityType(f.subjectType);
  if (f.objectType !== undefined) entityType(f.objectType);
  const validFrom = normalizeOptionalDate(f.validFrom, 'valid_from', now);
  const validTo = normalizeOptionalDate(f.validTo, 'valid_to', null);
  checkWindow(validFrom, validTo, { subject: f.subject, predicate, object });
  return {
    subjectKey,
    subjectId: resolveKey(rows, subjectKey),
    predicate,
    object,
    objectKnown,
    literal,
    validFrom,
    validTo,
    confidence: confidenceValue(f.confidence),
    sources: cleanSources(f.sources),
  };
}

// Fact ids: a random per-process prefix plus a counter (unique across processes, cheap to make).
const ID_PREFIX = 'f_' + randomBytes(6).toString('hex');
let idCounter = 0;
function newFactId(): string {
  return ID_PREFIX + (idCounter++).toString(36).padStart(4, '0');
}

/** Adds one fact (dedupe, contradiction rule) and returns the stored row. */
function addFactRow(rows: GraphRows, f: FactInput, ctx: EngineContext): FactRow {
  const p = prepareFact(rows, f, ctx.now);
  const functional = ctx.functional.has(p.predicate);
  const label = { subject: p.subjectId ?? p.subjectKey, predicate: p.predicate, object: p.object };
  // Only windows that can interact with the new one: its key, still running after its start.
  const filter: FactsFilter = {};
  if (!functional) filter.object = { value: p.object, literal: p.literal };
  if (p.validFrom !== null) filter.runningAfter = p.validFrom;
  const siblings = p.subjectId ? rows.factsOf(p.subjectId, p.predicate, filter) : [];
  const plan = planFact(siblings, p, functional, ctx.now, label);
  if (plan.kind === 'duplicate') {
    const row = plan.row;
    if (ctx.dates === 'replace' && f.validFrom !== undefined && p.validFrom !== row.validFrom) {
      const others = siblings.filter((s) => s !== row);
      const re = planFact(others, { ...p, validTo: null }, functional, ctx.now, label);
      if (re.kind === 'insert') {
        for (const c of re.closes) rows.setWindow(c.row, c.row.validFrom, c.validTo);
        rows.setWindow(row, re.validFrom, re.validTo);
      }
    }
    if (f.subjectType !== undefined) ensureEntity(rows, f.subject, f.subjectType, row.subject, ctx.now);
    if (!p.literal && f.objectType !== undefined) ensureEntity(rows, f.object, f.objectType, row.object, ctx.now);
    if (p.confidence > row.confidence) rows.setConfidence(row, p.confidence);
    if (p.sources.length) rows.addFactSources(row, p.sources);
    return row;
  }
  const subjectId = ensureEntity(rows, f.subject, f.subjectType, p.subjectId, ctx.now);
  if (!p.literal) ensureEntity(rows, f.object, f.objectType, p.objectKnown ? p.object : undefined, ctx.now);
  for (const c of plan.closes) rows.setWindow(c.row, c.row.validFrom, c.validTo);
  const row = rows.insertFact({
    id: newFactId(),
    subject: subjectId,
    predicate: p.predicate,
    object: p.object,
    literal: p.literal,
    validFrom: plan.validFrom,
    validTo: plan.validTo,
    recordedAt: ctx.now,
    confidence: p.confidence,
  });
  if (p.sources.length) rows.addFactSources(row, p.sources);
  return row;
}

/** Closes the open windows of (subject, predicate, object) at `ended` (or records one, see recordIfMissing). */
function invalidateRows(rows: GraphRows, inv: InvalidationInput, ctx: EngineContext): FactRow[] {
  const now = ctx.now;
  const predicate = predicateKey(inv.predicate);
  const ended = inv.ended === undefined ? now : normalizeDate(inv.ended, 'ended');
  const subjectId = resolveKey(rows, requireEntityKey(inv.subject));
  const literal = inv.object.trim();
  const key = entityKey(inv.object);
  const objKey = key ? (resolveKey(rows, key) ?? key) : null;
  const same = (r: FactRow) =>
    r.literal ? r.object === literal && inv.literal !== false : r.object === objKey && inv.literal !== true;
  const all = subjectId
    ? rows
        .factsOf(
          subjectId,
          predicate,
          inv.literal === undefined
            ? undefined
            : { object: { value: inv.literal ? literal : (objKey ?? ''), literal: inv.literal } },
        )
        .filter(same)
    : [];
  if (all.length === 0 && inv.recordIfMissing) {
    const input: FactInput = {
      subject: inv.subject,
      predicate,
      object: inv.object,
      literal: inv.literal === true,
      validFrom: null,
      validTo: ended,
    };
    if (inv.sources) input.sources = inv.sources;
    if (inv.confidence !== undefined) input.confidence = inv.confidence;
    return [addFactRow(rows, input, ctx)];
  }
  const open = all.filter((r) => r.validTo === null);
  for (const r of open) {
    checkWindow(
      r.validFrom,
      ended,
      { subject: r.subject, predicate, object: r.object },
      'the end date is before the fact started',
    );
  }
  for (const r of open) rows.setWindow(r, r.validFrom, ended);
  return open;
}

/** Applies a batch in order (entities, facts, invalidations). Run it inside one transaction. */
export function applyBatch(
  rows: GraphRows,
  batch: GraphBatch,
  ctx: EngineContext,
  rollbackItem?: <T>(fn: () => T) => T,
): ApplyResult {
  const result: ApplyResult = { entities: [], facts: [], invalidated: [], skipped: [] };
  const guard = <T>(kind: 'entity' | 'fact' | 'invalidation', index: number, fn: () => T): T | undefined => {
    if (!ctx.lenient) return fn();
    try {
      return rollbackItem ? rollbackItem(fn) : fn();
    } catch (e) {
      if (!isLociError(e) || e.category !== 'user') throw e;
      result.skipped.push({ kind, index, code: e.code, message: e.message });
      return undefined;
    }
  };
  const entityRows: EntityRow[] = [];
  (batch.entities ?? []).forEach((e, i) => {
    const row = guard('entity', i, () => upsertEntityRow(rows, e, ctx.now));
    if (row) entityRows.push(row);
  });
  const factRows: FactRow[] = [];
  (batch.facts ?? []).forEach((f, i) => {
    const row = guard('fact', i, () => addFactRow(rows, f, ctx));
    if (row) factRows.push(row);
  });
  const closed: FactRow[] = [];
  (batch.invalidations ?? []).forEach((inv, i) => {
    const got = guard('invalidation', i, () => invalidateRows(rows, inv, ctx));
    if (got) closed.push(...got);
  });
  result.entities = entityRows.map((r) => rows.toEntity(rows.getEntity(r.id) ?? r));
  result.facts = factRows.map((r) => rows.toFact(r));
  result.invalidated = closed.map((r) => rows.toFact(r));
  return result;
}
