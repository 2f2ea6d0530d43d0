/**
 * @module palace/redacting
 * Secret redaction on the palace's direct write paths — drawers added or edited (text, extra index
 * text and the string values of their metadata), diary entries,
 * facts and entities stated by hand — so that the CLI, MCP tools, hooks and library callers all
 * store `[REDACTED:<kind>]` instead of a credential, as mining does. Only secrets change; every
 * other character is kept. (Mining has its own `--no-redact` opt-out; these paths have none.)
 */
import type { GraphStore } from '../kg/index.js';
import { redactSecrets } from '../redact/index.js';
import type { DrawerInput, DrawerPatch } from '../store/ports.js';
import type { DiaryEntryInput } from './diary.js';

/** A text with its secrets redacted, counting into `n.count`. */
function red(s: string, n: { count: number }): string {
  if (s === '') return s;
  const r = redactSecrets(s);
  n.count += r.count;
  return r.text;
}

/** The string leaves of free-form metadata with their secrets redacted (the same object when none). */
function redMeta(v: unknown, n: { count: number }): unknown {
  if (typeof v === 'string') return red(v, n);
  if (Array.isArray(v)) {
    const before = n.count;
    const out = v.map((x) => redMeta(x, n));
    return n.count === before ? v : out;
  }
  if (v && typeof v === 'object') {
    const before = n.count;
    const out = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, redMeta(x, n)]));
    return n.count === before ? v : out;
  }
  return v;
}

/** A drawer to add, with the secrets of its text, extra index text and metadata redacted. */
export function redactDrawerInput(input: DrawerInput): { input: DrawerInput; redactions: number } {
  const n = { count: 0 };
  const text = red(input.text, n);
  const indexExtra = input.indexExtra === undefined ? undefined : red(input.indexExtra, n);
  const metadata = input.metadata === undefined ? undefined : (redMeta(input.metadata, n) as Record<string, unknown>);
  if (n.count === 0) return { input, redactions: 0 };
  // A precomputed hash and search column describe the text before redaction: drop them.
  const { prepared: _stale, ...rest } = input;
  return {
    input: {
      ...rest,
      text,
      ...(indexExtra !== undefined ? { indexExtra } : {}),
      ...(metadata !== undefined ? { metadata } : {}),
    },
    redactions: n.count,
  };
}

/** A drawer patch with the secrets of its new text and metadata redacted. */
export function redactDrawerPatch(patch: DrawerPatch): DrawerPatch {
  const n = { count: 0 };
  const text = patch.text === undefined ? undefined : red(patch.text, n);
  const indexExtra = typeof patch.indexExtra === 'string' ? red(patch.indexExtra, n) : patch.indexExtra;
  const metadata = patch.metadata === undefined ? undefined : (redMeta(patch.metadata, n) as Record<string, unknown>);
  if (n.count === 0) return patch;
  return {
    ...patch,
    ...(text !== undefined ? { text } : {}),
    ...(indexExtra !== undefined ? { indexExtra } : {}),
    ...(metadata !== undefined ? { metadata } : {}),
  };
}

/** A diary entry with the secrets of its entry, topic and project redacted. */
export function redactDiaryInput(input: DiaryEntryInput): { input: DiaryEntryInput; redactions: number } {
  const n = { count: 0 };
  const out: DiaryEntryInput = { ...input, entry: red(input.entry, n) };
  if (input.topic !== undefined) out.topic = red(input.topic, n);
  if (input.project !== undefined) out.project = red(input.project, n);
  return { input: n.count === 0 ? input : out, redactions: n.count };
}

/**
 * The graph as callers see it: `addFact`, `invalidate` and `upsertEntity` redact the names and
 * values they are given (so a fact stated by hand stores no credential, and invalidating it with
 * the same words finds it); everything else is the graph itself. Extraction writes through the
 * unwrapped graph: it reads drawers, which are redacted already.
 */
export function redactingGraph(graph: GraphStore): GraphStore {
  const txt = (s: string) => redactSecrets(s).text;
  const overrides: Partial<GraphStore> = {
    addFact: (input, opts) => graph.addFact({ ...input, subject: txt(input.subject), object: txt(input.object) }, opts),
    invalidate: (subject, predicate, object, opts) => graph.invalidate(txt(subject), predicate, txt(object), opts),
    upsertEntity: (input, opts) =>
      graph.upsertEntity(
        { ...input, name: txt(input.name), ...(input.aliases ? { aliases: input.aliases.map(txt) } : {}) },
        opts,
      ),
  };
  return new Proxy(graph, {
    get(target, prop) {
      if (Object.hasOwn(overrides, prop)) return overrides[prop as keyof GraphStore];
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
