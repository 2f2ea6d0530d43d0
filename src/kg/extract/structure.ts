/**
 * @module kg/extract/structure
 * Facts from the structured prose agents write in reports and summaries, read line by line:
 * - a file or code item of a list with its description: "- `data.js` - Contains the sample data",
 *   "1. **README.md** - Explains the concept" → `data.js purpose "Contains the sample data"`;
 * - key/value items under a heading that names a component: "**Athena-SAM (Functional)**" then
 *   "- **Status**: Working pipeline", "- **Location**: `/code/athena-sam/`" → `Athena-SAM status
 *   "Working pipeline"`, `Athena-SAM located_in /code/athena-sam/`.
 * Only headings that are a name (one to four words, not a sentence) give a subject, and only the
 * keys below have a meaning; other items (features, gaps, plans) give nothing.
 */
import { rel, type RawRelation } from './objects.js';
import type { SentenceRelations } from './relations.js';
import { classifyToken, isFilePath, isStopWord } from './tokens.js';

const ITEM = /^[ \t]*(?:[-*+]|\d+[.)])[ \t]+/;
// "- `data.js` - Contains …", "1. **README.md** - Explains …", "- `athena-sam-gpu`: For …"
const FILE_ITEM =
  /^(?:`([^`\n]{2,120})`|\*\*([^*\n]{2,80})\*\*)[ \t]*(?:[-–—:]|\((?=[^)]*\)\s*[-–—:]))[ \t]+(.{6,200})$/u;
// "- **Status**: Working webcam image processing pipeline"
const KEY_ITEM = /^\*\*([A-Z][A-Za-z ]{1,20})\*\*:?[ \t]*:?[ \t]+(.{2,200})$/;
// "**Camera Collector (Advanced Architecture, Incomplete)**", "### 2. athena-sam", "## `spotter` app"
const HEADING = /^[ \t]*(?:#{1,6}[ \t]+|\*\*(?=.*\*\*[ \t]*:?[ \t]*$))(?:\d+[.)][ \t]+)?(.+?)[ \t]*$/u;

// "- `spotter-fum.3`: IN PROGRESS, changes made" → status; "- `a.css` - Moved styles" → nothing
const STATUS_WORD = new RegExp(
  String.raw`^(?:CLOSED|OPEN|IN[ _]PROGRESS|DONE|BLOCKED|TODO|WIP|MERGED|FIXED|COMPLETED?|PENDING|READY|FAILED|` +
    String.raw`PASSING|FAILING)\b`,
);
const DEED = /^\p{Lu}\p{Ll}+ed\b/u;

// A file item of a changes list with its state in parentheses.
const FILE_STATE =
  /^(?:\*\*)?`([^`\n]{2,160})`(?:\*\*)?[ \t]*\(((?:CREATED|NEW|ADDED|MODIFIED|UPDATED|CHANGED|EDITED|DELETED|REMOVED)\b[^)]*)\)/;
const STATE_WORD = /\b(?:CREATED|NEW|ADDED|MODIFIED|UPDATED|CHANGED|EDITED|DELETED|REMOVED)\b/g;
const STATES: Record<string, string> = {
  created: 'created',
  new: 'created',
  added: 'created',
  modified: 'modified',
  updated: 'modified',
  changed: 'modified',
  edited: 'modified',
  deleted: 'deleted',
  removed: 'deleted',
};

const ENDPOINT_HEADING =
  /^[ \t]*#{1,6}[ \t]+`((?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) \/[^`\s]*)`[ \t]*[-–—:][ \t]+(\p{L}.{4,150})$/u;

const KEYS: Record<string, { predicate: string; kind: 'path' | 'literal' | 'port' }> = {
  location: { predicate: 'located_in', kind: 'path' },
  path: { predicate: 'located_in', kind: 'path' },
  directory: { predicate: 'located_in', kind: 'path' },
  folder: { predicate: 'located_in', kind: 'path' },
  status: { predicate: 'status', kind: 'literal' },
  port: { predicate: 'port', kind: 'port' },
  version: { predicate: 'version', kind: 'literal' },
};

// eslint-disable-next-line no-misleading-character-class -- removes each code point, ZWJ included
const EMOJI = /[\p{Extended_Pictographic}\u{FE0F}\u{200D}✅❌]/gu;

/** Strips markdown emphasis, code ticks, emoji and trailing punctuation from a value. */
function clean(v: string): string {
  return v
    .replace(/\*\*|__|`/g, '')
    .replace(EMOJI, '')
    .replace(/[\s.:;,]+$/u, '')
    .trim();
}

// Words of section titles that name no component ("Current State", "Key Findings", "Next Steps").
const GENERIC = new Set(
  `current state overview progress changes change results notes details plan plans key findings analysis
implementation recommendations recommendation issues problems tasks files features testing setup configuration
deployment options option approach approaches steps priority priorities phase phases work done remaining pending
completed blockers risks questions conclusion background context architecture structure organization organisation
directory integration project`.split(/\s+/),
);

/** The component a heading names, or null when it is a sentence or a generic title. */
function headingName(raw: string): string | null {
  let t = raw.replace(/\*\*/g, '').replace(/[\s:]+$/, '');
  t = t
    .replace(/\s*\([^)]*\)\s*$/, '')
    .replace(/[\p{Extended_Pictographic}\u{FE0F}✅❌🚧]/gu, '')
    .trim();
  const code = /^`([^`\s]{2,80})`(?: [\p{Ll}]+)?$/u.exec(t);
  if (code) return classifyToken(code[1]!, true, true)?.name ?? null;
  const words = t.split(/\s+/);
  if (words.length === 0 || words.length > 4 || /[.?!,;]/.test(t.replace(/\.\w/g, ''))) return null;
  if (!/^[\p{Lu}`]/u.test(t) || words.some((w) => isStopWord(w) || GENERIC.has(w.toLowerCase()))) return null;
  return t;
}

// "GET /logs", "POST /circuit-breaker/engage": an HTTP endpoint is a name
const ENDPOINT = /^(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) \/\S*$/;

function codeItem(code: string | undefined, bold: string | undefined): string | null {
  const raw = (code ?? bold ?? '').trim();
  if (code !== undefined && ENDPOINT.test(raw)) return raw;
  if (!raw || /\s/.test(raw)) return null;
  if (bold !== undefined && !isFilePath(raw)) return null;
  if (/^(?:~|\.{0,2}\/)/.test(raw)) return raw;
  // a file, a path or a code-shaped name (`block_id`, `athena-sam-gpu`), not a plain word
  const c = classifyToken(raw, true, false);
  return c && (c.type === 'file' || c.type === 'identifier' || /[/_-]/.test(raw)) ? c.name : null;
}

/** Runs the structure rules over a turn's prose; relations grouped per line (the line is the sentence). */
export function structureRelations(text: string): SentenceRelations[] {
  if (!text.includes('\n') && !ITEM.test(text)) return [];
  const out: SentenceRelations[] = [];
  let subject: string | null = null;
  let pos = 0;
  for (const line of text.split('\n')) {
    const start = pos;
    pos += line.length + 1;
    const item = ITEM.exec(line);
    const ep = ENDPOINT_HEADING.exec(line);
    if (ep && !ep[2]!.includes('?')) {
      out.push({
        sentence: line,
        start,
        relations: [{ ...rel(`\`${ep[1]!}\``, 'purpose', { literal: clean(ep[2]!) }, 0.6), at: 0, end: line.length }],
      });
      subject = null;
      continue;
    }
    if (!item) {
      const h = HEADING.exec(line);
      if (h) subject = headingName(h[1]!);
      else if (line.trim()) subject = null;
      continue;
    }
    const body = line.slice(item[0].length).trim();
    if (body.includes('?')) continue;
    const made: RawRelation[] = [];
    const kv = KEY_ITEM.exec(body);
    const spec = kv ? KEYS[kv[1]!.trim().toLowerCase()] : undefined;
    if (kv && spec && subject) {
      const value = clean(kv[2]!);
      if (spec.kind === 'path' && /^(?:~|\.{0,2}\/|[A-Za-z]:\\|[\w.-]+\/)\S*$/.test(value))
        made.push(rel(subject, spec.predicate, { name: value, type: 'file' }, 0.6));
      if (spec.kind === 'port' && /^\d{2,5}$/.test(value))
        made.push(rel(subject, spec.predicate, { literal: value }, 0.6));
      if (spec.kind === 'literal' && value.length >= 2 && value.length <= 120)
        made.push(rel(subject, spec.predicate, { literal: value }, 0.6));
    } else if (FILE_STATE.test(body)) {
      // "- **`assets/js/app.js`** (MODIFIED - spotter-fum.3)", "- `a.ex` (CREATED, MODIFIED)"
      const m = FILE_STATE.exec(body)!;
      const file = codeItem(m[1], undefined);
      const states = new Set([...m[2]!.matchAll(STATE_WORD)].map((w) => STATES[w[0]!.toLowerCase()]!));
      if (file && isFilePath(file.replace(/\/$/, '/x.md')))
        for (const p of states) made.push(rel('we', p, { name: file, type: 'file' }, 0.6, { weOk: true }));
    } else if (!kv) {
      const fi = FILE_ITEM.exec(body);
      const name = fi ? codeItem(fi[1], fi[2]) : null;
      const what = fi ? clean(fi[3]!) : '';
      if (name && STATUS_WORD.test(what)) made.push(rel(`\`${name}\``, 'status', { literal: what.slice(0, 120) }, 0.6));
      // "- `styles.css` - Moved styles here" reports a change, not what the file is for
      else if (name && what.length >= 6 && /^\p{L}/u.test(what) && !/:\s*$/.test(fi![3]!) && !DEED.test(what))
        made.push(rel(`\`${name}\``, 'purpose', { literal: what }, 0.6));
    }
    if (made.length)
      out.push({ sentence: line, start, relations: made.map((r) => ({ ...r, at: 0, end: line.length })) });
  }
  return out;
}
