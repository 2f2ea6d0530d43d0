/**
 * @module memdir/simple-yaml
 * Reads the common shape of memory-file frontmatter without the `yaml` package (72 modules, the
 * largest part of a cold recall or wake-up): `key: value` lines whose values are plain strings,
 * one-line quoted strings without escapes, or booleans, and one level of nested `key:` blocks
 * indented by two spaces (`metadata:`). Anything else — comments, lists, flow collections, anchors,
 * tags, block scalars, escapes, tabs, numbers, nulls, repeated keys, a value YAML could read
 * otherwise — returns undefined, and the caller parses the text with `yaml`. On what it accepts, the result equals `yaml`'s `parseDocument(text).toJS()` (YAML
 * 1.2 core schema), which `simple-yaml.test.ts` checks against the package.
 */

const KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;
/** Scalars the YAML 1.2 core schema reads as null, booleans or numbers. */
const NOT_A_STRING = [
  /^(?:~|[Nn]ull|NULL)$/,
  /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/,
  /^[-+]?[0-9]+$/,
  /^0o[0-7]+$/,
  /^0x[0-9a-fA-F]+$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/,
  /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
];

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff\ud800-\udfff]/;

/** The value of a scalar YAML reads as a string or a boolean, or undefined for anything else. */
function scalar(v: string): string | boolean | undefined {
  if (/^(?:true|True|TRUE)$/.test(v)) return true;
  if (/^(?:false|False|FALSE)$/.test(v)) return false;
  // One-line quoted strings without escapes (`\` in double quotes, `''` in single quotes).
  const q = /^"([^"\\]*)"$/.exec(v) ?? /^'([^']*)'$/.exec(v);
  if (q) return CONTROL.test(q[1]!) ? undefined : q[1]!;
  return plainString(v);
}

/** A plain scalar YAML reads as exactly this string, or undefined. */
function plainString(v: string): string | undefined {
  if (v === '' || v !== v.trim()) return undefined;
  // Indicators that may not start a plain scalar, or that change its meaning there.
  if (/^[-?:,[\]{}#&*!|>'"%@`]/.test(v)) return undefined;
  if (v.includes(': ') || v.includes(' #') || v.endsWith(':')) return undefined;
  // Only printable characters without tabs (and no escapes to interpret).
  if (CONTROL.test(v)) return undefined;
  if (NOT_A_STRING.some((re) => re.test(v))) return undefined;
  return v;
}

type Scalar = string | boolean;
type Mapping = Record<string, Scalar | Record<string, Scalar>>;

/** The mapping of `text` when it has the simple shape (see the module comment), else undefined. */
export function parseSimpleYaml(text: string): Mapping | undefined {
  const out: Mapping = {};
  let block: Record<string, Scalar> | undefined;
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (const line of lines) {
    const nested = line.startsWith('  ');
    const body = nested ? line.slice(2) : line;
    const colon = body.indexOf(':');
    if (colon <= 0) return undefined;
    const key = body.slice(0, colon);
    if (!KEY.test(key) || NOT_A_STRING.some((re) => re.test(key))) return undefined;
    const rest = body.slice(colon + 1);
    if (nested) {
      if (!block || rest[0] !== ' ' || key in block) return undefined;
      const value = scalar(rest.slice(1));
      if (value === undefined) return undefined;
      block[key] = value;
      continue;
    }
    if (block && Object.keys(block).length === 0) return undefined; // `key:` with nothing under it is null
    block = undefined;
    if (key in out) return undefined;
    if (rest === '') {
      block = {};
      out[key] = block;
      continue;
    }
    if (rest[0] !== ' ') return undefined;
    const value = scalar(rest.slice(1));
    if (value === undefined) return undefined;
    out[key] = value;
  }
  if (block && Object.keys(block).length === 0) return undefined;
  return out;
}
