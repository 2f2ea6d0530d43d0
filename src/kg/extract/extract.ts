/**
 * @module kg/extract/extract
 * Weights-free extraction of entities and temporal facts from one drawer: speaker turns,
 * mentions and relation rules, with "I" resolved to the turn's speaker, "we" to the wing, and
 * dates in the sentence resolved against the drawer's content date. The result is a
 * {@link GraphBatch}: `graph.apply(extractFromDrawer(d), { lenient: true })`.
 */
import { entityKey, normalizeDate } from '../normalize.js';
import type { EntityInput, FactInput, GraphBatch, InvalidationInput } from '../types.js';
import { findDates, type DateMention } from './dates.js';
import { repeatedNames, scanMentions, type Mention, type RunCounts, type VerbHit } from './mentions.js';
import { classifyToken, isStopWord, isTool, nameType, trimStops } from './tokens.js';
import { codeRelations } from './code-rules.js';
import { structureRelations } from './structure.js';
import { relationsAtHits, VERB_INDEX, type RawRelation } from './relations.js';
import { splitTurns, stripCode, type Turn } from './turns.js';
import { proseLines, skipReason } from './prose.js';

/** The drawer fields extraction reads (a subset of the store's `Drawer`). */
export interface ExtractionInput {
  id: string;
  text: string;
  /** When the content was said or written (ISO-8601); anchors relative dates. */
  contentDate: string | null;
  /** Declared speakers (e.g. the two people of a chat); `Name:` lines by them are turns. */
  speakers?: string[];
  wing: string;
  room: string;
  source?: string | null;
  /** `speaker` (string) is read as a declared speaker. */
  metadata?: Record<string, unknown>;
}

/** What extraction produced for one drawer; every item carries the drawer id as source. */
export interface ExtractionResult extends GraphBatch {
  entities: EntityInput[];
  facts: FactInput[];
  invalidations: InvalidationInput[];
}

/** Options of {@link extractFromDrawer}. */
export interface ExtractOptions {
  /** Names always recognised as persons in text (besides the speakers). Default []. */
  knownPeople?: readonly string[];
  /** Person the `user:` / `human:` role stands for; null leaves "I" in those turns unresolved. Default null. */
  userName?: string | null;
  /** Resolve "we" to the wing (as a project) in project-ish rules (uses, chose, works_on…). Default true. */
  weIsWing?: boolean;
  /**
   * A capitalised multi-word name of unknown type is kept when seen this many times in the drawer (>= 1). Default 2.
   */
  minRepeat?: number;
}

let lastDate: [string, string | null] = ['', null];
function safeDate(value: string | null | undefined): string | null {
  if (!value) return null;
  if (lastDate[0] === value) return lastDate[1];
  let v: string | null = null;
  try {
    v = normalizeDate(value, 'content_date');
  } catch {
    v = null;
  }
  lastDate = [value, v];
  return v;
}

function resolveSubject(
  raw: string,
  r: RawRelation,
  turn: Turn,
  input: ExtractionInput,
  people: ReadonlyMap<string, string>,
  weIsWing: boolean,
): { name: string; type?: string } | null {
  const words = raw.split(' ');
  const last = words[words.length - 1]!;
  if (last === 'I') return turn.speaker ? { name: turn.speaker, type: 'person' } : null;
  if (last === 'We' || last === 'we') return r.weOk && weIsWing ? { name: input.wing, type: 'project' } : null;
  if (raw.startsWith('@')) return { name: raw.slice(1), type: 'person' };
  if (raw.startsWith('`')) {
    const inner = raw.slice(1, -1);
    if (/^(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) \/\S*$/.test(inner)) return { name: inner, type: 'endpoint' };
    if (/^(?:~|\.{0,2}\/)\S+$/.test(inner)) return { name: inner, type: 'file' };
    const c = classifyToken(inner, true, true);
    return c && r.subjectKind !== 'person' ? { name: c.name, type: c.type } : null;
  }
  const ws = trimStops(words.map((w) => w.replace(/['’]s$/, '')));
  if (ws.length === 0 || ws.length > 4) return null;
  const name = ws.join(' ');
  const known = people.get(name.toLowerCase());
  if (known) return { name: known, type: 'person' };
  const typed = nameType(ws) ?? (r.subjectKind === 'person' ? 'person' : undefined);
  return typed ? { name, type: typed } : { name };
}

/** Gives each date phrase of a sentence to the relation whose match is nearest to it. */
function datesFor(rels: readonly RawRelation[], dates: readonly DateMention[]): Map<RawRelation, string> {
  const out = new Map<RawRelation, string>();
  for (const d of dates) {
    const end = d.index + d.phrase.length;
    let best: RawRelation | undefined;
    let bestGap = Infinity;
    for (const r of rels) {
      const gap = end <= r.at ? r.at - end : d.index >= r.end ? d.index - r.end : 0;
      if (gap < bestGap) [best, bestGap] = [r, gap];
    }
    for (const r of rels) if (best && r.at === best.at && r.end === best.end && !out.has(r)) out.set(r, d.date);
  }
  return out;
}

// Entity keys of recently seen names (speakers and tools recur in every drawer).
const KEY_CACHE = new Map<string, string>();
function cachedKey(name: string): string {
  let k = KEY_CACHE.get(name);
  if (k === undefined) {
    if (KEY_CACHE.size >= 20_000) KEY_CACHE.clear();
    KEY_CACHE.set(name, (k = name.length > 200 ? '' : entityKey(name)));
  }
  return k;
}

function addEntity(entities: Map<string, EntityInput>, name: string, type: string, sources: string[]): void {
  const k = cachedKey(name);
  if (!k) return;
  const had = entities.get(k);
  if (!had) entities.set(k, { name, type, sources });
  else if (had.type === 'unknown' && type !== 'unknown') had.type = type;
}

interface Context {
  input: ExtractionInput;
  people: ReadonlyMap<string, string>;
  weIsWing: boolean;
  anchor: string | null;
  sources: string[];
  facts: FactInput[];
  invalidations: InvalidationInput[];
}

// A capitalised plural or indefinite word ("Tests", "Hooks", "Everything") is a common noun unless
// the text shows it as a name elsewhere.
const COMMON_SUBJECT = new RegExp(
  String.raw`^(?:\p{Lu}[\p{Ll}'’-]{2,}s|Every\p{Ll}+|Some\p{Ll}+|No\p{Ll}+|Any\p{Ll}+|Each|Both|All|Most|Many|` +
    String.raw`Other\p{Ll}*|Another)$`,
  'u',
);
const INNER_CAPS = /^.[^\s]*[\p{Lu}\p{N}.+#]/u;

/**
 * Whether a capitalised subject is a proper name in `text`: several words, a known person or tool,
 * inner capitals, digits or dots (`SessionRegistry`, `BERT`, `Node.js`), or the word written
 * capitalised somewhere not at a sentence start. A sentence-initial common noun ("Tests use…",
 * "Everything uses…") is not.
 */
function properIn(text: string, people: ReadonlyMap<string, string>): (name: string) => boolean {
  return (name) => {
    const words = name.split(' ');
    if (words.some((w) => isStopWord(w))) return false;
    if (words.length > 1 || people.has(name.toLowerCase()) || isTool(name, true) || INNER_CAPS.test(name)) return true;
    const re = new RegExp(`[\\p{Ll}\\p{N},;(] ${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}])`, 'u');
    return re.test(text);
  };
}

/** Turns the relations of one turn into facts and invalidations. */
function emit(ctx: Context, turn: Turn, text: string, hits: VerbHit[]): void {
  const proper = properIn(text, ctx.people);
  const groups = [
    ...(hits.length ? relationsAtHits(text, hits) : []),
    ...codeRelations(text, proper),
    ...structureRelations(text),
  ];
  for (const { sentence, relations: rels } of groups) {
    const dated = datesFor(rels, findDates(sentence, ctx.input.contentDate));
    for (const r of rels) {
      // project-ish rules ("Tests use X", "Everything uses Y"): a capitalised word must be a name
      if (r.weOk && COMMON_SUBJECT.test(r.subject) && !proper(r.subject)) continue;
      const when = dated.get(r) ?? ctx.anchor;
      const s = resolveSubject(r.subject, r, turn, ctx.input, ctx.people, ctx.weIsWing);
      if (!s) continue;
      const literal = 'literal' in r.object;
      const object = 'literal' in r.object ? r.object.literal : r.object.name;
      if (!literal && cachedKey(object) === cachedKey(s.name)) continue;
      if (r.ends) {
        if (when === null) continue;
        const inv: InvalidationInput = { subject: s.name, predicate: r.predicate, object, ended: when };
        if (r.record)
          Object.assign(inv, { recordIfMissing: true, literal, sources: ctx.sources, confidence: r.confidence });
        ctx.invalidations.push(inv);
        continue;
      }
      const f: FactInput = {
        subject: s.name,
        predicate: r.predicate,
        object,
        validFrom: when,
        confidence: r.confidence,
        sources: ctx.sources,
      };
      if (s.type) f.subjectType = s.type;
      if (literal) f.literal = true;
      else if ('type' in r.object && r.object.type !== 'unknown') f.objectType = r.object.type;
      ctx.facts.push(f);
    }
  }
}

/**
 * Extracts entities, facts and invalidations from one drawer by the documented rule set
 * (ARCHITECTURE.md, "Extraction rules"). Only prose is read: drawers of code files, tests and
 * fixtures give nothing, and tool lines, shell, diff and code lines of the text are dropped first
 * (see {@link proseText}). Pure and synchronous; never throws on text.
 */
export function extractFromDrawer(input: ExtractionInput, opts: ExtractOptions = {}): ExtractionResult {
  const sources = [input.id];
  const speakers = input.speakers ? [...input.speakers] : [];
  const metaSpeaker = input.metadata?.['speaker'];
  if (typeof metaSpeaker === 'string' && metaSpeaker.trim()) speakers.push(metaSpeaker.trim());
  const people = new Map<string, string>();
  for (const p of speakers) if (p.trim()) people.set(p.trim().toLowerCase(), p.trim());
  if (opts.knownPeople) for (const p of opts.knownPeople) if (p.trim()) people.set(p.trim().toLowerCase(), p.trim());
  if (skipReason(input) !== null) return { entities: [], facts: [], invalidations: [] };
  const text = proseLines(stripCode(input.text));
  const turns = splitTurns(text, { speakers, userName: opts.userName ?? null });
  const ctx: Context = {
    input,
    people,
    weIsWing: opts.weIsWing ?? true,
    anchor: safeDate(input.contentDate),
    sources,
    facts: [],
    invalidations: [],
  };

  const entities = new Map<string, EntityInput>();
  for (const t of turns) if (t.speaker) addEntity(entities, t.speaker, 'person', sources);
  const mentions: Mention[] = [];
  const hits: VerbHit[] = [];
  const runs: RunCounts = new Map();
  scanMentions(text, { people, verbs: VERB_INDEX }, mentions, runs, hits);
  for (const m of mentions) addEntity(entities, m.name, m.type, sources);
  for (const m of repeatedNames(runs, Math.max(1, opts.minRepeat ?? 2))) addEntity(entities, m.name, m.type, sources);

  let h = 0;
  for (const turn of turns) {
    while (h < hits.length && hits[h]!.index < turn.start) h++;
    const own: VerbHit[] = [];
    while (h < hits.length && hits[h]!.index < turn.end) {
      own.push({ index: hits[h]!.index - turn.start, phrase: hits[h]!.phrase });
      h++;
    }
    emit(ctx, turn, text.slice(turn.start, turn.end), own);
  }
  return { entities: [...entities.values()], facts: ctx.facts, invalidations: ctx.invalidations };
}

/**
 * The prose extraction reads in a drawer: its text without fenced code, tool calls and results,
 * harness tags, shell, diff, table and code lines; `''` for a drawer of a code file, a test or a
 * fixture. Used to measure how much conversation text extraction had to work with.
 */
export function proseText(input: Pick<ExtractionInput, 'text' | 'source' | 'metadata'>): string {
  return skipReason(input) !== null ? '' : proseLines(stripCode(input.text));
}
