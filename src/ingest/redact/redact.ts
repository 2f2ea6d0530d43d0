/**
 * @module ingest/redact/redact
 * Secret redaction before storage: every secret becomes `[REDACTED:<kind>]`.
 *
 * Kinds and rules (each pattern runs only when its literal prefix occurs — `String.includes`, gated
 * by one check for `_` and one for `-` — and assignments are found by jumping between `=`/`:`
 * characters, so text without any candidate costs a few memchr-speed scans):
 * | kind             | what                                                                       |
 * | ---------------- | -------------------------------------------------------------------------- |
 * | private-key      | PEM `-----BEGIN … PRIVATE KEY-----` blocks, whole (to END, or to the end of |
 * |                  | the base64 body when the END line is cut off)                               |
 * | anthropic        | `sk-ant-…` (20+ chars)                                                       |
 * | openai           | `sk-…`, `sk-proj-…`, `sk-svcacct-…`, `sk-admin-…` (20+ chars, with a digit)  |
 * | github           | `ghp_ gho_ ghs_ ghu_ ghr_` + 36 chars, `github_pat_…`                        |
 * | aws-access-key   | `AKIA` / `ASIA` / `ABIA` / `ACCA` + 16 upper-case letters or digits          |
 * | google           | `AIza` + 35 chars                                                            |
 * | slack            | `xoxa- xoxb- xoxp- xoxr- xoxs-` tokens, `https://hooks.slack.com/services/…` |
 * | stripe           | `sk_live_ rk_live_ sk_test_ rk_test_` + 16+ chars                             |
 * | gitlab           | `glpat-` + 20+ chars                                                         |
 * | npm              | `npm_` + 36 chars                                                            |
 * | huggingface      | `hf_` + 30+ letters/digits                                                   |
 * | jwt              | `eyJ….eyJ….<signature>`                                                      |
 * | bearer           | the credential after `Authorization: Bearer/Basic/Token/Bot`, and any        |
 * |                  | `Bearer <16+ token chars with a digit>`                                      |
 * | url-password     | `scheme://user:password@host` → the password only (the user is kept)        |
 * | aws-secret-key   | a value assigned to a key naming AWS and secret (`aws_secret_access_key=`)   |
 * | password         | a value assigned to a password-like key (`password`, `passwd`, `pwd`, …)     |
 * | secret           | a value assigned to another secret-like key (see `isSecretKey`)              |
 *
 * Assignments (`KEY=value`, `KEY: value`, `"key": "value"`, `key = 'value'`, query `?token=…`):
 * the key is kept, the value redacted. A key is secret-like when its last word (split at `_ - .`
 * and camelCase) is password/passwd/pwd/pass/passphrase/secret/token/apikey/credential(s)/pat/auth,
 * or it ends in `key` after api/access/private/secret/signing/encryption/master/client/app/service/
 * account/license/auth/admin/deploy/storage/subscription/session, or it is `secret_key_base`; keys
 * naming public/publishable are never secret. Values are left alone when they are placeholders or
 * references (`$VAR`, `${…}`, `<…>`, `{{…}}`, `process.env…`, `null`/`true`/`false`, `***`, `xxx`,
 * already redacted), pure numbers, or contain spaces. UPPER_CASE (env) keys redact any other value;
 * lower-case keys need a quoted value, or a bare value of 6+ characters holding a digit that is not a
 * call or a dotted identifier — so prose such as "Password: reset it" and code such as
 * `token = getToken()` or `password=form.password1` stay intact.
 */

/** Result of {@link redactSecrets}. */
export interface RedactResult {
  text: string;
  /** Number of redactions. */
  count: number;
  /** Redactions per kind. */
  kinds: Record<string, number>;
}

interface Hit {
  start: number;
  end: number;
  kind: string;
}

interface Pattern {
  kind: string;
  /** A character every match contains, checked once per text for the whole group. */
  gate?: '_' | '-';
  /** Literal(s) of which one must occur for the regex to run. */
  needles: readonly string[];
  re: RegExp;
  /** Capture group holding the secret (0 = whole match). */
  group?: number;
  check?: (secret: string) => boolean;
}

const hasDigit = (s: string) => /\d/.test(s);

const PATTERNS: readonly Pattern[] = [
  {
    kind: 'private-key',
    gate: '-',
    needles: ['-----BEGIN'],
    re: /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----(?:[\s\S]*?-----END \1-----|(?:[A-Za-z0-9+/=\s:,-]|\\n)*)/g,
  },
  { kind: 'anthropic', gate: '-', needles: ['sk-ant-'], re: /(?<![\w-])sk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: 'openai', gate: '-', needles: ['sk-'], re: /(?<![\w-])sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g, check: hasDigit },
  { kind: 'github', gate: '_', needles: ['ghp_', 'gho_', 'ghs_', 'ghu_', 'ghr_', 'github_pat_'], re: /(?<![\w])(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/g },
  { kind: 'aws-access-key', needles: ['IA', 'ACCA'], re: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])/g },
  { kind: 'google', needles: ['AIza'], re: /(?<![\w-])AIza[0-9A-Za-z_-]{35}(?![\w-])/g },
  { kind: 'slack', gate: '-', needles: ['xox'], re: /(?<![\w-])xox[abprs]-[A-Za-z0-9-]{10,}/g },
  { kind: 'slack', needles: ['hooks.slack.com/'], re: /https:\/\/hooks\.slack\.com\/(?:services|workflows)\/[A-Za-z0-9/_-]{20,}/g },
  { kind: 'stripe', gate: '_', needles: ['_live_', '_test_'], re: /(?<![\w])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { kind: 'gitlab', gate: '-', needles: ['glpat-'], re: /(?<![\w-])glpat-[A-Za-z0-9_-]{20,}/g },
  { kind: 'npm', gate: '_', needles: ['npm_'], re: /(?<![\w])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g },
  { kind: 'huggingface', gate: '_', needles: ['hf_'], re: /(?<![\w])hf_[A-Za-z0-9]{30,}(?![A-Za-z0-9])/g, check: hasDigit },
  { kind: 'jwt', needles: ['eyJ'], re: /(?<![\w-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{10,}/g },
  {
    kind: 'bearer',
    needles: ['uthorization', 'UTHORIZATION'],
    re: /\bauthorization["']?\s*[:=]\s*["']?(?:(?:Bearer|Basic|Token|Bot|Digest)\s+)?([A-Za-z0-9._~+/=:-]{8,})/dgi,
    group: 1,
    check: (s) => hasDigit(s) || /[=+/]/.test(s) || s.length >= 20,
  },
  { kind: 'bearer', needles: ['earer'], re: /\b[Bb]earer\s+([A-Za-z0-9._~+/-]{16,}=*)/dg, group: 1, check: hasDigit },
  {
    kind: 'url-password',
    needles: ['://'],
    re: /\b[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^\s:@/?#"'<>]+:([^\s@/?#"'<>]+)@[A-Za-z0-9[]/dg,
    group: 1,
  },
];

/** Quick test on a candidate key before the full rule. */
const KEYWORD = /pass|pwd|secret|token|key|auth|credential|pat/i;

function isKeyChar(c: number): boolean {
  // A-Z a-z 0-9 _ . -
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === 45;
}

const SECRET_LAST = new Set(['password', 'passwd', 'pwd', 'pass', 'passphrase', 'secret', 'token', 'apikey', 'credentials', 'credential', 'pat', 'auth', 'authtoken', 'privatekey', 'secretkey', 'accesskey']);
const KEY_QUALIFIERS = new Set(['api', 'access', 'private', 'secret', 'signing', 'encryption', 'master', 'client', 'app', 'service', 'account', 'license', 'auth', 'admin', 'deploy', 'storage', 'subscription', 'session']);

function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[_.\-]+/)
    .filter(Boolean);
}

/** Whether an assignment key names a secret (rule in the module comment). */
export function isSecretKey(key: string): boolean {
  const w = keyWords(key);
  if (w.length === 0 || w.some((x) => x === 'public' || x === 'publishable')) return false;
  const last = w[w.length - 1]!;
  const prev = w[w.length - 2];
  if (SECRET_LAST.has(last)) return true;
  if (last === 'key' && prev !== undefined && KEY_QUALIFIERS.has(prev)) return true;
  return last === 'base' && w.includes('secret');
}

const DOTTED_IDENT = /^[A-Za-z_$][\w$]*(?:\.[\w$]+)+;?$/;
const PLACEHOLDER = /^(?:\$|<|\{\{|%|process\.env|os\.environ|env\(|\[REDACTED|\*{3,}|x{3,}$|null$|none$|nil$|true$|false$|undefined$|""$|''$)/i;

function assignmentKind(key: string): string {
  const w = keyWords(key);
  if (w.includes('aws') && w.includes('secret')) return 'aws-secret-key';
  const last = w[w.length - 1] ?? '';
  return ['password', 'passwd', 'pwd', 'pass', 'passphrase'].includes(last) ? 'password' : 'secret';
}

/**
 * Finds `key = value` / `key: value` assignments by jumping from one `=` or `:` to the next
 * (indexOf, so text without them costs almost nothing) and reading the key backwards.
 */
function scanAssignments(text: string, hits: Hit[]): void {
  let nextEq = text.indexOf('=');
  let nextCo = text.indexOf(':');
  let done = 0;
  while (nextEq >= 0 || nextCo >= 0) {
    let j: number;
    if (nextCo < 0 || (nextEq >= 0 && nextEq < nextCo)) {
      j = nextEq;
      nextEq = text.indexOf('=', j + 1);
    } else {
      j = nextCo;
      nextCo = text.indexOf(':', j + 1);
    }
    if (j < done) continue;
    const op = text[j];
    if (op === ':' && text[j + 1] === '/' && text[j + 2] === '/') continue;
    if (op === '=' && (text[j + 1] === '=' || (j > 0 && '=!<>'.includes(text[j - 1]!)))) continue;
    let ke = j;
    while (ke > 0 && (text[ke - 1] === ' ' || text[ke - 1] === '\t')) ke--;
    if (ke > 0 && (text[ke - 1] === '"' || text[ke - 1] === "'")) ke--;
    let ks = ke;
    while (ks > 0 && ke - ks <= 80 && isKeyChar(text.charCodeAt(ks - 1))) ks--;
    if (ks === ke || ke - ks > 80) continue;
    const key = text.slice(ks, ke);
    if (!KEYWORD.test(key) || !isSecretKey(key)) continue;
    let v = j + 1;
    while (text[v] === ' ' || text[v] === '\t') v++;
    const q = text[v];
    const quoted = q === '"' || q === "'" || q === '`';
    let vs: number;
    let ve: number;
    if (quoted) {
      vs = v + 1;
      ve = text.indexOf(q, vs);
      const nl = text.indexOf('\n', vs);
      if (ve < 0 || (nl >= 0 && nl < ve)) continue;
    } else {
      vs = v;
      ve = vs;
      while (ve < text.length && !/[\s"'`,;&)}\]]/.test(text[ve]!)) ve++;
    }
    const value = text.slice(vs, ve);
    done = ve;
    if (!value || PLACEHOLDER.test(value) || /^\d{1,12}$/.test(value) || /\s/.test(value)) continue;
    const upperKey = /^[A-Z0-9_]+$/.test(key);
    if (!upperKey && !quoted) {
      if (value.length < 6 || !/\d/.test(value) || /[()]/.test(value) || DOTTED_IDENT.test(value)) continue;
    }
    hits.push({ start: vs, end: ve, kind: assignmentKind(key) });
  }
}

/**
 * Replaces secrets in `text` with `[REDACTED:<kind>]` (kinds and rules in the module comment).
 * Idempotent: redacting redacted text changes nothing.
 */
export function redactSecrets(text: string): RedactResult {
  const hits: Hit[] = [];
  const gates = { _: text.includes('_'), '-': text.includes('-') };
  for (const p of PATTERNS) {
    if (p.gate && !gates[p.gate]) continue;
    if (!p.needles.some((n) => text.includes(n))) continue;
    p.re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = p.re.exec(text)) !== null) {
      const g = p.group ?? 0;
      const secret = m[g];
      if (secret === undefined || secret === '') continue;
      if (secret.startsWith('[REDACTED')) continue;
      if (p.check && !p.check(secret)) continue;
      const start = g === 0 ? m.index : (m.indices?.[g]?.[0] ?? m.index + m[0].lastIndexOf(secret));
      hits.push({ start, end: start + secret.length, kind: p.kind });
    }
  }
  scanAssignments(text, hits);
  if (hits.length === 0) return { text, count: 0, kinds: {} };
  // Earliest start wins; at equal starts the provider pattern (pushed first) wins over assignments.
  hits.sort((a, b) => a.start - b.start);
  const kinds: Record<string, number> = {};
  const parts: string[] = [];
  let pos = 0;
  let count = 0;
  for (const h of hits) {
    if (h.start < pos) continue;
    parts.push(text.slice(pos, h.start), `[REDACTED:${h.kind}]`);
    pos = h.end;
    count++;
    kinds[h.kind] = (kinds[h.kind] ?? 0) + 1;
  }
  parts.push(text.slice(pos));
  return { text: parts.join(''), count, kinds };
}
