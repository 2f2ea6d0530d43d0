/**
 * @module redact/values
 * What a secret value looks like: Shannon entropy, character classes, and the shapes that are
 * never secrets — placeholders (`your_key`, `xxx`, `<token>`, `${VAR}`, env lookups in code), code
 * (calls, regex literals, dotted identifiers, variable names), paths and URLs.
 */

const counts = new Uint32Array(128);

/** Shannon entropy of `s` in bits per character (0 for an empty string). */
export function entropy(s: string): number {
  const n = s.length;
  if (n === 0) return 0;
  counts.fill(0);
  const other = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 128) counts[c]!++;
    else other.set(c, (other.get(c) ?? 0) + 1);
  }
  let h = 0;
  for (let c = 0; c < 128; c++) {
    const k = counts[c]!;
    if (k) h -= (k / n) * Math.log2(k / n);
  }
  for (const k of other.values()) h -= (k / n) * Math.log2(k / n);
  return h;
}

/** Which of lower-case, upper-case, digit and other characters `s` holds (bits 1, 2, 4, 8). */
export function charClasses(s: string): number {
  let m = 0;
  for (let i = 0; i < s.length && m !== 15; i++) {
    const c = s.charCodeAt(i);
    if (c >= 97 && c <= 122) m |= 1;
    else if (c >= 65 && c <= 90) m |= 2;
    else if (c >= 48 && c <= 57) m |= 4;
    else m |= 8;
  }
  return m;
}

/** Number of classes in a {@link charClasses} mask. */
export function classCount(mask: number): number {
  return (mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1) + ((mask >> 3) & 1);
}

/** Runs that only appear in placeholders: `xxxx`, `XXXX`, `****`, `...`, `000000`, `<…>`, `${`. */
const FILLER = /x{4}|X{4}|\*{3}|\.{3}|…|0{6}|<[^<>]*>|\{\{|\$\{/;

/** Runs of 5+ consecutive characters (`12345`, `abcdef`, `fGHIJ`), case-insensitive. */
function withoutSequences(s: string): string {
  let out = '';
  let runStart = 0;
  const low = s.toLowerCase();
  for (let i = 1; i <= s.length; i++) {
    if (i < s.length && low.charCodeAt(i) === low.charCodeAt(i - 1) + 1) continue;
    if (i - runStart < 5) out += s.slice(runStart, i);
    runStart = i;
  }
  return out;
}

/**
 * Whether a token's variable part is a stand-in rather than a key: filler runs, too little
 * entropy for the rule (`ghp_aaaa…`), or little left once counting runs are taken out
 * (`sk-1234567890abcdef…`).
 */
export function isFillerToken(body: string, minEntropy: number): boolean {
  if (FILLER.test(body) || entropy(body) < minEntropy) return true;
  const rest = withoutSequences(body);
  return (
    rest.length < Math.min(8, body.length / 2) ||
    (rest.length < body.length && entropy(rest) < Math.min(2.5, minEntropy))
  );
}

/** Words that mark a value as a stand-in for a secret, not a secret (checked lower-cased). */
const PLACEHOLDER_WORDS = new RegExp(
  String.raw`your|my[_-]?(?:api|secret|token|key|pass)|example|sample|dummy|fake|placeholder|changeme|` +
    String.raw`change[_-]me|replace|redacted|insert|enter[_-]|here|todo|tbd|fixme|test|secret|passw|token|apikey|` +
    String.raw`api[_-]key|access[_-]key|none|null|undefined|default|foobar|lorem|hunter2`,
);

/**
 * References and empty values: `$X`, `${X}`, `%X%`, `<x>`, `{{x}}`, `[x]`, env lookups (`os.environ[…]`, `ENV[…]`),
 * `xxx`.
 */
const REFERENCE = new RegExp(
  String.raw`^(?:\$|%|<|\{|\[|\(|@|!|#|&|\\|process\.env|import\.meta\.env|os\.environ|os\.getenv|getenv|` +
    String.raw`env[.([:]|ENV\[|secrets\.|vault:|ref\+|op:\/\/|arn:|sm:\/\/|-+$|\.+$|_+$|\*+|x+$|X+$|…|true$|` +
    String.raw`false$|nil$|on$|off$|yes$|no$)`,
);

/** Function calls, `new X`, arrow functions, concatenation, member access, regexes, templates. */
const CODE = /\w\(|^\(|\)$|=>|\s|^new$|\\[dwsbntu]|\$\{|^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$|^[\w$.]+\[/;

/** An identifier without digits: `hashedPassword`, `api_key`, `MY_TOKEN`, `secret`. */
const WORDY_IDENT = /^[A-Za-z_$][A-Za-z_$-]*$/;

/** An env var name used as a value (`API_KEY=OPENAI_API_KEY`, `token: GITHUB_TOKEN`). */
const ENV_NAME = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;

/** File paths, URLs, e-mail addresses, versions, dates, times, UUID-free plain numbers. */
const NOT_A_VALUE = new RegExp(
  String.raw`^(?:\/|\.{1,2}\/|~\/|[A-Za-z]:\\|https?:|file:|s3:|gs:|git@|[\w.+-]+@[\w-]+\.[\w.]+$|` +
    String.raw`v?\d+(?:\.\d+)+$|\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2}|[\d_.,:-]+$|[\w.-]+\.(?:pem|key|crt|json|ya?ml|` +
    String.raw`txt|env|toml|ini|p12|pfx|jks|ts|js|py|rb|go|md|sh)$)`,
  'i',
);

/** Base64 that decodes to printable text naming a placeholder (`not my real password`, `user:example`). */
export function isEncodedPlaceholder(value: string): boolean {
  if (value.length < 12 || value.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return false;
  const text = Buffer.from(value, 'base64').toString('latin1');
  return /^[\x20-\x7e]+$/.test(text) && (PLACEHOLDER_WORDS.test(text.toLowerCase()) || /not my real|xxx/i.test(text));
}

/**
 * Whether an assigned value (the part after `password=`, `api_key: …`) is a secret: not a
 * placeholder, reference, code, path or plain word, and random enough. `password` keys accept
 * shorter, less random values (people's passwords) than token and key names do.
 */
export function isSecretValue(value: string, password: boolean): boolean {
  const n = value.length;
  if (n < (password ? 6 : 8) || n > 400) return false;
  if (REFERENCE.test(value) || NOT_A_VALUE.test(value) || CODE.test(value)) return false;
  if (FILLER.test(value) || ENV_NAME.test(value) || withoutSequences(value).length < Math.min(8, n / 2)) return false;
  if (PLACEHOLDER_WORDS.test(value.toLowerCase()) || isEncodedPlaceholder(value)) return false;
  const mask = charClasses(value);
  const classes = classCount(mask);
  const h = entropy(value);
  if (WORDY_IDENT.test(value)) {
    // Letters only: a variable name unless it is long, mixed-case and random (a base64-ish key).
    return n >= 20 && (mask & 3) === 3 && h >= 3.8;
  }
  if (password) return classes >= 2 && h >= 2.3;
  // Keys and tokens: a digit or symbol among letters, and entropy close to random for the length.
  return classes >= 2 && h >= Math.min(3.5, Math.log2(n) - 0.5);
}
