/**
 * @module memdir/frontmatter
 * Splits a markdown file into BOM, `---` fenced YAML frontmatter and body, and reassembles it
 * byte for byte. The YAML itself is parsed by the `yaml` package (`parseDocument`), so rewrites keep
 * key order, quoting, comments and unknown keys; frontmatter of the common simple shape is read
 * without it (`simple-yaml.ts`), and the package loads only when its document is asked for.
 */
import type { Document } from 'yaml';
import { lazyRequire } from '../core/lazy.js';
import { parseSimpleYaml } from './simple-yaml.js';

const yaml = lazyRequire<typeof import('yaml')>('yaml');

/** The pieces of a markdown file. `bom + open + yaml + close + body === text` always holds. */
export interface SplitFile {
  /** `'\uFEFF'` when the file starts with a byte-order mark, else ''. */
  bom: string;
  /** Line ending used by the file (`'\r\n'` when its first line ends so, else `'\n'`). */
  eol: '\n' | '\r\n';
  /** True when a frontmatter block was found. */
  has: boolean;
  /** The opening fence line including its line end (`'---\n'`), '' without frontmatter. */
  open: string;
  /** The YAML text between the fences, exactly as in the file. */
  yaml: string;
  /** The closing fence line including its line end ('' at end of file), '' without frontmatter. */
  close: string;
  /** Everything after the closing fence (the whole text after the BOM without frontmatter). */
  body: string;
}

const FENCE = /^---[ \t]*$/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*$/;

/** Splits `text` into its parts. A file whose first line is `---` but never closes has no frontmatter. */
export function splitFrontmatter(text: string): SplitFile {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const rest = bom ? text.slice(1) : text;
  const firstNl = rest.indexOf('\n');
  const eol: '\n' | '\r\n' = firstNl > 0 && rest[firstNl - 1] === '\r' ? '\r\n' : '\n';
  const none: SplitFile = { bom, eol, has: false, open: '', yaml: '', close: '', body: rest };
  if (firstNl < 0) return none;
  const firstLine = rest.slice(0, firstNl).replace(/\r$/, '');
  if (!FENCE.test(firstLine)) return none;
  const open = rest.slice(0, firstNl + 1);
  let pos = firstNl + 1;
  while (pos <= rest.length) {
    const nl = rest.indexOf('\n', pos);
    const end = nl < 0 ? rest.length : nl + 1;
    const line = rest.slice(pos, nl < 0 ? rest.length : nl).replace(/\r$/, '');
    if (CLOSE.test(line)) {
      return {
        bom,
        eol,
        has: true,
        open,
        yaml: rest.slice(firstNl + 1, pos),
        close: rest.slice(pos, end),
        body: rest.slice(end),
      };
    }
    if (nl < 0) break;
    pos = end;
  }
  return none;
}

/** Reassembles parts produced (or edited) from {@link splitFrontmatter}. */
export function joinFrontmatter(p: SplitFile): string {
  return p.bom + (p.has ? p.open + p.yaml + p.close : '') + p.body;
}

/** A parsed frontmatter block. */
export interface ParsedYaml {
  /** The document (mutable; serialise with {@link stringifyYaml}). */
  doc: Document;
  /** Plain JS view of the mapping ({} when empty). */
  data: Record<string, unknown>;
  /** Parse problems; when non-empty the block must not be rewritten. */
  errors: string[];
}

/** One line, at most 200 characters: YAML error messages may carry line breaks and source excerpts. */
function oneLineError(message: string): string {
  const s = message.replace(/\s+/g, ' ').trim();
  return s.length > 200 ? `${s.slice(0, 199)}…` : s;
}

/**
 * Parses YAML frontmatter text tolerantly (duplicate keys allowed, last wins). Never throws: parse
 * errors, unresolved aliases (`b: *x`), alias bombs (more than 100 alias expansions) and
 * non-mapping documents are reported in `errors` (one line each). Simple frontmatter is read without
 * the `yaml` package; `doc` then parses it on first access.
 */
export function parseYaml(yamlText: string): ParsedYaml {
  const simple = parseSimpleYaml(yamlText);
  if (simple === undefined) return parseWithPackage(yamlText);
  let doc: Document | undefined;
  return {
    get doc() {
      return (doc ??= parseWithPackage(yamlText).doc);
    },
    data: simple,
    errors: [],
  };
}

function parseWithPackage(yamlText: string): ParsedYaml {
  const y = yaml();
  let doc: Document;
  try {
    doc = y.parseDocument(yamlText.replace(/\r\n/g, '\n'), {
      uniqueKeys: false,
      prettyErrors: false,
      logLevel: 'error',
    });
  } catch (e) {
    // Not expected from the yaml package, but a memory file must never break the folder.
    return {
      doc: new y.Document({}),
      data: {},
      errors: [oneLineError(`YAML could not be read: ${(e as Error).message}`)],
    };
  }
  const errors = doc.errors.map((e) => oneLineError(e.message));
  let data: Record<string, unknown> = {};
  if (errors.length === 0) {
    if (doc.contents === null) data = {};
    else if (y.isMap(doc.contents)) {
      try {
        const js: unknown = doc.toJS({ maxAliasCount: 100 });
        data = js && typeof js === 'object' ? (js as Record<string, unknown>) : {};
      } catch (e) {
        // toJS throws on an unresolved alias and past maxAliasCount (the "billion laughs" guard).
        errors.push(oneLineError((e as Error).message));
      }
    } else errors.push('frontmatter is not a mapping of keys to values');
  }
  return { doc, data, errors };
}

/** Serialises a document back to YAML text with the file's line ending (no folding of long lines). */
export function stringifyYaml(doc: Document, eol: '\n' | '\r\n'): string {
  const s = doc.toString({ lineWidth: 0, flowCollectionPadding: false });
  return eol === '\n' ? s : s.replace(/\n/g, '\r\n');
}
