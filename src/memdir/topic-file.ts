/**
 * @module memdir/topic-file
 * Reading and writing one topic file in every Claude Code variant (A3): top-level `type`,
 * `metadata.type`, `metadata.pinned`, `modified`, unknown keys, `[[links]]`, `team/` paths, files
 * without frontmatter, CRLF line ends and a BOM.
 *
 * Writers produce the newest variant (`name` slug, `description`, `metadata: {type, privacy}`,
 * `modified`). Rewrites edit the parsed YAML document in place, so key order, quoting, comments and
 * unknown keys survive; a rewrite that changes nothing returns the original bytes. A file without
 * frontmatter never gains one.
 */
import { lazyRequire } from '../core/lazy.js';

const yaml = lazyRequire<typeof import('yaml')>('yaml');
import { createError } from '../core/errors.js';
import { extractLinks } from './markdown.js';
import {
  joinFrontmatter,
  parseYaml,
  splitFrontmatter,
  stringifyYaml,
  type ParsedYaml,
  type SplitFile,
} from './frontmatter.js';
import { slugifyName } from './slug.js';
import { isMemoryType, isPrivacy, type MemoryType, type Privacy } from './types.js';

/** What a topic file says about itself (no file-system facts). */
export interface TopicFields {
  name: string;
  title: string;
  type: MemoryType | null;
  description: string;
  pinned: boolean;
  /** Frontmatter `modified` normalised to ISO-8601, when present and a valid date. */
  modified?: string;
  /** Privacy declared in frontmatter (`metadata.privacy`, else top-level `privacy`). */
  declaredPrivacy?: Privacy;
  links: string[];
  team: boolean;
  hasFrontmatter: boolean;
  /** The body with LF line ends and leading blank lines removed. */
  body: string;
  /** Plain view of the frontmatter ({} without one). */
  data: Record<string, unknown>;
  /** YAML errors; a file with errors is read with filename-derived fields and never rewritten. */
  errors: string[];
}

/** A parsed topic file: its fields plus what is needed to rewrite it. */
interface TopicFile extends TopicFields {
  split: SplitFile;
  yaml?: ParsedYaml;
}

const FILE_TYPE = /^(user|feedback|project|reference)_/;

function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

function meta(data: Record<string, unknown>): Record<string, unknown> {
  const m = data['metadata'];
  return m && typeof m === 'object' && !Array.isArray(m) ? (m as Record<string, unknown>) : {};
}

/**
 * Parses a topic file. `file` is its path relative to the memory directory (`/` separators); it
 * supplies the fallbacks (name from the stem, type from the `{type}_` prefix, team from `team/`).
 */
export function parseTopicFile(text: string, file: string): TopicFile {
  const split = splitFrontmatter(text);
  const yaml = split.has ? parseYaml(split.yaml) : undefined;
  const data = yaml && yaml.errors.length === 0 ? yaml.data : {};
  const md = meta(data);
  const base = file.split('/').pop() ?? file;
  const stem = base.replace(/\.md$/i, '');
  const name = oneLine(str(data['name']) ?? '') || stem;
  const rawType = md['type'] ?? data['type'];
  const type: MemoryType | null = isMemoryType(rawType)
    ? rawType
    : ((FILE_TYPE.exec(base)?.[1] as MemoryType | undefined) ?? null);
  const modRaw = data['modified'];
  const modDate = modRaw instanceof Date ? modRaw : typeof modRaw === 'string' ? new Date(modRaw) : undefined;
  const modified = modDate && !Number.isNaN(modDate.getTime()) ? modDate.toISOString() : undefined;
  const priv = md['privacy'] ?? data['privacy'];
  const pin = md['pinned'] ?? data['pinned'];
  const body = split.body.replace(/\r\n/g, '\n').replace(/^\n+/, '');
  return {
    split,
    ...(yaml ? { yaml } : {}),
    name,
    title: oneLine(str(md['title']) ?? '') || name,
    type,
    description: oneLine(str(data['description']) ?? ''),
    pinned: pin === true || pin === 'true',
    ...(modified ? { modified } : {}),
    ...(isPrivacy(priv) ? { declaredPrivacy: priv } : {}),
    links: extractLinks(body),
    team: file.startsWith('team/'),
    hasFrontmatter: split.has,
    body,
    data,
    errors: yaml?.errors ?? [],
  };
}

/**
 * True for a team memory: a file under `team/`, or one whose frontmatter marks it `team: true`
 * (top level or `metadata.team`). Consolidation changes these conservatively and never promotes a
 * private memory into one.
 */
export function isTeamMemory(fields: Pick<TopicFields, 'team' | 'data'>): boolean {
  const marked = (v: unknown) => v === true || v === 'true';
  return fields.team || marked(fields.data['team']) || marked(meta(fields.data)['team']);
}

/** Fallback text for a missing **Why:** or **How to apply:** value. */
export const NOT_RECORDED = '(not recorded)';

function setLabelLine(body: string, label: string, value: string | undefined, before?: string): string {
  const re = new RegExp(`^\\*\\*${label}:\\*\\*.*$`, 'm');
  if (re.test(body)) return value === undefined ? body : body.replace(re, `**${label}:** ${oneLine(value)}`);
  const line = `**${label}:** ${value === undefined ? NOT_RECORDED : oneLine(value)}`;
  if (before) {
    const b = new RegExp(`^\\*\\*${before}:\\*\\*`, 'm').exec(body);
    if (b) return body.slice(0, b.index) + line + '\n' + body.slice(b.index);
  }
  const trimmed = body.replace(/\s+$/, '');
  const sep = trimmed === '' ? '' : /\n\*\*(Why|How to apply):\*\*[^\n]*$/.test('\n' + trimmed) ? '\n' : '\n\n';
  return trimmed + sep + line;
}

/**
 * Adds or updates the `**Why:**` and `**How to apply:**` lines that feedback and project memories
 * carry. Existing lines are replaced only when a value is given; missing lines are written with the
 * value, or {@link NOT_RECORDED}. Other types are returned unchanged.
 */
export function withWhyHow(type: MemoryType | null, body: string, why?: string, how?: string): string {
  if (type !== 'feedback' && type !== 'project') return body;
  let out = setLabelLine(body, 'Why', why, 'How to apply');
  out = setLabelLine(out, 'How to apply', how);
  return out;
}

/** Input for a new topic file. */
interface NewTopicInput {
  type: MemoryType;
  /** Human name; slugged for `name` and the filename. */
  name: string;
  /** One line; line breaks are folded to spaces. */
  description: string;
  body: string;
  why?: string;
  how?: string;
  privacy: Privacy;
  /** Default false. */
  pinned?: boolean;
  /** ISO-8601 time for `modified`. */
  modified: string;
}

/** Renders a new topic file in the newest variant. Returns its filename and text (LF line ends). */
export function renderNewTopicFile(input: NewTopicInput): { fileName: string; slug: string; text: string } {
  const { slug, hashed } = slugifyName(input.name);
  const metadata: Record<string, unknown> = { type: input.type, privacy: input.privacy };
  if (input.pinned) metadata['pinned'] = true;
  if (hashed) metadata['title'] = oneLine(input.name);
  const doc = new (yaml().Document)({
    name: slug,
    description: oneLine(input.description),
    metadata,
    modified: input.modified,
  });
  const body = withWhyHow(input.type, input.body.replace(/\r\n/g, '\n').trim(), input.why, input.how);
  const text = `---\n${stringifyYaml(doc, '\n')}---\n\n${body}\n`;
  return { fileName: `${input.type}_${slug}.md`, slug, text };
}

/** Changes for an existing topic file; absent fields stay as they are. */
export interface TopicPatch {
  description?: string;
  body?: string;
  why?: string;
  how?: string;
  type?: MemoryType;
  privacy?: Privacy;
  pinned?: boolean;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Applies `patch` to a topic file's text. Returns the original string when nothing changes. On a
 * change to a file with frontmatter, `modified` is set to `nowIso` (in place when the key exists,
 * appended otherwise). Throws MEMORY_NO_FRONTMATTER when frontmatter fields are set on a file
 * without one, MEMORY_FRONTMATTER_INVALID when its YAML cannot be parsed.
 */
export function applyTopicPatch(text: string, file: string, patch: TopicPatch, nowIso: string): string {
  const t = parseTopicFile(text, file);
  const fmFields = (['description', 'type', 'privacy', 'pinned'] as const).filter((k) => patch[k] !== undefined);
  if (!t.hasFrontmatter && fmFields.length) throw createError('MEMORY_NO_FRONTMATTER', { file, fields: [...fmFields] });
  if (
    t.errors.length &&
    (fmFields.length || patch.body !== undefined || patch.why !== undefined || patch.how !== undefined)
  ) {
    throw createError('MEMORY_FRONTMATTER_INVALID', { file, reason: t.errors[0]! });
  }
  const split = { ...t.split };
  let changed = false;
  const doc = t.yaml?.doc;
  if (doc && fmFields.length) {
    const md = doc.get('metadata');
    if (md !== undefined && md !== null && !yaml().isMap(md)) {
      throw createError('MEMORY_FRONTMATTER_INVALID', { file, reason: '`metadata` is not a mapping' });
    }
    if (md === null) doc.delete('metadata');
    const setMeta = (key: string, value: unknown, topLevelAlias?: string) => {
      const metaHas = doc.hasIn(['metadata', key]);
      const path = !metaHas && topLevelAlias && doc.has(topLevelAlias) ? [topLevelAlias] : ['metadata', key];
      if (sameValue(doc.getIn(path), value)) return;
      doc.setIn(path, value);
      changed = true;
    };
    if (patch.description !== undefined && !sameValue(doc.get('description'), oneLine(patch.description))) {
      doc.set('description', oneLine(patch.description));
      changed = true;
    }
    if (patch.type !== undefined) {
      // Keep the variant the file already uses; update both if it carries both.
      if (doc.has('type') && doc.hasIn(['metadata', 'type'])) {
        if (!sameValue(doc.get('type'), patch.type)) {
          doc.set('type', patch.type);
          changed = true;
        }
      }
      setMeta('type', patch.type, 'type');
    }
    if (patch.privacy !== undefined) setMeta('privacy', patch.privacy, 'privacy');
    if (patch.pinned !== undefined) {
      if (patch.pinned) setMeta('pinned', true, 'pinned');
      else {
        for (const p of [['metadata', 'pinned'], ['pinned']]) {
          if (doc.hasIn(p)) {
            doc.deleteIn(p);
            changed = true;
          }
        }
      }
    }
  }
  const type = patch.type ?? t.type;
  if (patch.body !== undefined || patch.why !== undefined || patch.how !== undefined) {
    const oldBody = t.body;
    let next = patch.body !== undefined ? patch.body.replace(/\r\n/g, '\n').trim() : oldBody.replace(/\s+$/, '');
    if (patch.body !== undefined && (type === 'feedback' || type === 'project')) {
      // A new body without its Why/How lines keeps the old ones.
      for (const label of ['Why', 'How to apply']) {
        const re = new RegExp(`^\\*\\*${label}:\\*\\*.*$`, 'm');
        const old = re.exec(oldBody);
        if (old && !re.test(next)) next = next + (next ? '\n\n' : '') + old[0];
      }
      next = next.replace(/(\*\*Why:\*\*[^\n]*)\n\n(\*\*How to apply:\*\*)/, '$1\n$2');
    }
    next = withWhyHow(type, next, patch.why, patch.how);
    if (next.replace(/\s+$/, '') !== oldBody.replace(/\s+$/, '')) {
      const lead = /^(?:\r?\n)*/.exec(t.split.body)![0];
      split.body = (lead + next + '\n').replace(/\r?\n/g, split.eol);
      changed = true;
    }
  }
  if (!changed) return text;
  if (doc) {
    doc.set('modified', nowIso);
    split.yaml = stringifyYaml(doc, split.eol);
  }
  return joinFrontmatter(split);
}
